package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Cardinality is CARDINALITY(array | map | multiset): the number of
// elements (entries) as an INT, NULL for a NULL collection. A MULTISET
// counts each element as often as it occurs, as Flink's does.
type Cardinality struct {
	X        expr.Expr
	Multiset bool
}

func (c *Cardinality) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int32 }

func (c *Cardinality) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := c.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	buf, out := expr.NewValues[int32](mem, n)
	validity, nulls := expr.AndValidity(mem, n, a)
	var counts []int32
	if m, ok := a.(*array.Map); ok && c.Multiset {
		counts = expr.ValuesOf[int32](m.Items())
	}
	if l, ok := a.(array.ListLike); ok {
		for i := 0; i < n; i++ {
			start, end := l.ValueOffsets(i)
			if counts == nil {
				out[i] = int32(end - start)
				continue
			}
			s := int32(0)
			for e := start; e < end; e++ {
				s += counts[e]
			}
			out[i] = s
		}
	}
	return expr.NewArray(c.DataType(), n, validity, nulls, buf), nil
}

func (c *Cardinality) String() string { return fmt.Sprintf("CARDINALITY(%s)", c.X) }

// Children lets conditional forms see the sub-expression.
func (c *Cardinality) Children() []expr.Expr { return []expr.Expr{c.X} }

// Sole is ELEMENT(array): the sole element of an array of one, NULL for an
// empty or NULL array; more than one element is an error, as in Flink.
type Sole struct {
	X expr.Expr
}

func (s *Sole) DataType() arrow.DataType { return s.X.DataType().(*arrow.ListType).Elem() }

func (s *Sole) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := s.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	l, ok := a.(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, s.DataType(), a.Len()), nil
	}
	n := l.Len()
	idx := make([]int32, n) // one per batch
	buf, valid := newBits(mem, n)
	defer buf.Release()
	for i := 0; i < n; i++ {
		if l.IsNull(i) {
			continue
		}
		start, end := l.ValueOffsets(i)
		switch end - start {
		case 0:
		case 1:
			idx[i] = int32(start)
			valid[i>>3] |= 1 << (i & 7)
		default:
			return nil, fmt.Errorf("ELEMENT: the array has %d elements; it must have at most one", end-start)
		}
	}
	return takeValid(l.ListValues(), idx, valid, s.DataType(), mem)
}

func (s *Sole) String() string { return fmt.Sprintf("ELEMENT(%s)", s.X) }

// Children lets conditional forms see the sub-expression.
func (s *Sole) Children() []expr.Expr { return []expr.Expr{s.X} }

// CanFail: an array of more than one element fails the query.
func (s *Sole) CanFail() bool { return true }

// Entries is MAP_KEYS(map) or MAP_VALUES(map): the keys (Values false) or
// the values of each map as an ARRAY, sharing the map's buffers.
type Entries struct {
	X      expr.Expr
	Values bool
}

func (e *Entries) DataType() arrow.DataType {
	mt := e.X.DataType().(*arrow.MapType)
	if e.Values {
		return arrow.ListOfField(mt.ItemField())
	}
	return arrow.ListOfField(mt.KeyField())
}

func (e *Entries) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	m, ok := a.(*array.Map)
	if !ok {
		return array.MakeArrayOfNull(mem, e.DataType(), a.Len()), nil
	}
	// The map's entries are a struct of keys and values; a list over the
	// keys (or values) child with the map's own validity and offsets.
	entries := m.Data().Children()[0]
	child := entries.Children()[0]
	if e.Values {
		child = entries.Children()[1]
	}
	if off := entries.Offset(); off != 0 {
		child = array.NewSliceData(child, int64(off), int64(off+entries.Len()))
		defer child.Release()
	}
	d := m.Data()
	bufs := d.Buffers()[:2]
	out := array.NewData(e.DataType(), d.Len(), bufs, []arrow.ArrayData{child}, d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out), nil
}

func (e *Entries) String() string {
	if e.Values {
		return fmt.Sprintf("MAP_VALUES(%s)", e.X)
	}
	return fmt.Sprintf("MAP_KEYS(%s)", e.X)
}

// Children lets conditional forms see the sub-expression.
func (e *Entries) Children() []expr.Expr { return []expr.Expr{e.X} }

// Contains is ARRAY_CONTAINS(haystack, needle): whether the array holds
// the needle (a NULL needle finds a NULL element), NULL for a NULL array.
type Contains struct {
	X, Needle expr.Expr
}

func (c *Contains) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }

func (c *Contains) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{c.X, c.Needle}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	a, nd := cols[0], cols[1]
	n := a.Len()
	validity, nulls := expr.AndValidity(mem, n, a)
	vb, out := expr.NewBits(mem, n)
	if l, ok := a.(*array.List); ok {
		values := l.ListValues()
		key, needleKey, err := searchKeys(values, nd)
		if err != nil {
			if validity != nil {
				validity.Release()
			}
			vb.Release()
			return nil, err
		}
		for i := 0; i < n; i++ {
			start, end := l.ValueOffsets(i)
			needleNull := needleKey == nil || nd.IsNull(i)
			var nk elemKey
			if !needleNull {
				nk = needleKey(i)
			}
			for e := int(start); e < int(end); e++ {
				if values.IsNull(e) {
					if needleNull {
						out[i>>3] |= 1 << (i & 7)
						break
					}
				} else if !needleNull && key(e) == nk {
					out[i>>3] |= 1 << (i & 7)
					break
				}
			}
		}
	}
	return expr.NewArray(c.DataType(), n, validity, nulls, vb), nil
}

func (c *Contains) String() string { return fmt.Sprintf("ARRAY_CONTAINS(%s, %s)", c.X, c.Needle) }

// Children lets conditional forms see the sub-expressions.
func (c *Contains) Children() []expr.Expr { return []expr.Expr{c.X, c.Needle} }

// Position is ARRAY_POSITION(haystack, needle): the 1-based position of
// the needle's first occurrence, 0 when absent, NULL when either is NULL.
type Position struct {
	X, Needle expr.Expr
}

func (p *Position) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int32 }

func (p *Position) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{p.X, p.Needle}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	a, nd := cols[0], cols[1]
	n := a.Len()
	if nd.DataType().ID() == arrow.NULL {
		return array.MakeArrayOfNull(mem, p.DataType(), n), nil
	}
	validity, nulls := expr.AndValidity(mem, n, a, nd)
	buf, out := expr.NewValues[int32](mem, n)
	if l, ok := a.(*array.List); ok {
		values := l.ListValues()
		key, needleKey, err := searchKeys(values, nd)
		if err != nil {
			if validity != nil {
				validity.Release()
			}
			buf.Release()
			return nil, err
		}
		for i := 0; i < n; i++ {
			if l.IsNull(i) || nd.IsNull(i) {
				continue
			}
			nk := needleKey(i)
			start, end := l.ValueOffsets(i)
			for e := int(start); e < int(end); e++ {
				if values.IsValid(e) && key(e) == nk {
					out[i] = int32(e-int(start)) + 1
					break
				}
			}
		}
	}
	return expr.NewArray(p.DataType(), n, validity, nulls, buf), nil
}

func (p *Position) String() string { return fmt.Sprintf("ARRAY_POSITION(%s, %s)", p.X, p.Needle) }

// Children lets conditional forms see the sub-expressions.
func (p *Position) Children() []expr.Expr { return []expr.Expr{p.X, p.Needle} }

// Reverse is ARRAY_REVERSE(haystack): the elements in reverse order, NULL
// for a NULL array.
type Reverse struct {
	X expr.Expr
}

func (r *Reverse) DataType() arrow.DataType { return r.X.DataType() }

func (r *Reverse) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := r.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	l, ok := a.(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, r.DataType(), a.Len()), nil
	}
	n := l.Len()
	ob, offs := expr.NewValues[int32](mem, n+1)
	defer ob.Release()
	var idx []int32 // one per batch
	for i := 0; i < n; i++ {
		offs[i] = int32(len(idx))
		start, end := l.ValueOffsets(i)
		for e := end - 1; e >= start; e-- {
			idx = append(idx, int32(e))
		}
	}
	offs[n] = int32(len(idx))
	elems, err := expr.Take(l.ListValues(), idx, mem)
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	validity, nulls := expr.AndValidity(mem, n, l)
	if validity != nil {
		defer validity.Release()
	}
	out := array.NewData(r.DataType(), n, []*memory.Buffer{validity, ob}, []arrow.ArrayData{elems.Data()}, nulls, 0)
	defer out.Release()
	return array.MakeFromData(out), nil
}

func (r *Reverse) String() string { return fmt.Sprintf("ARRAY_REVERSE(%s)", r.X) }

// Children lets conditional forms see the sub-expression.
func (r *Reverse) Children() []expr.Expr { return []expr.Expr{r.X} }

// searchKeys are the keys of an array's elements and of the needles
// looked for in it (nil for an untyped NULL needle); a needle has the
// element type, or for nested values one that encodes alike.
func searchKeys(values, needle arrow.Array) (key, needleKey func(int) elemKey, err error) {
	if key, err = elementKeys(values); err != nil {
		return nil, nil, err
	}
	if needle.DataType().ID() == arrow.NULL {
		return key, nil, nil
	}
	needleKey, err = elementKeys(needle)
	return key, needleKey, err
}
