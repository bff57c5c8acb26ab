package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Append is ARRAY_APPEND(array, element) (Front false) and
// ARRAY_PREPEND(array, element) (Front true): the array with the element
// (of the element type, NULL too) added at its end or its beginning;
// NULL for a NULL array.
type Append struct {
	X, Elem expr.Expr
	Front   bool
}

func (a *Append) DataType() arrow.DataType { return a.X.DataType() }

func (a *Append) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{a.X, a.Elem}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	l, ok := cols[0].(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, a.DataType(), n), nil
	}
	values := l.ListValues()
	elem := cols[1]
	if elem.DataType().ID() == arrow.NULL {
		elem = array.MakeArrayOfNull(mem, values.DataType(), n)
		defer elem.Release()
	}
	src, err := array.Concatenate([]arrow.Array{values, elem}, mem)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	base := values.Len()
	b := newListBuilder(mem, n, values.Len()+n)
	for i := 0; i < n; i++ {
		b.startRow(i)
		if l.IsNull(i) {
			continue
		}
		if a.Front {
			b.add(base + i)
		}
		start, end := l.ValueOffsets(i)
		for e := start; e < end; e++ {
			b.add(int(e))
		}
		if !a.Front {
			b.add(base + i)
		}
	}
	validity, nulls := expr.AndValidity(mem, n, l)
	return b.finish(a.DataType(), src, validity, nulls, mem)
}

func (a *Append) String() string {
	if a.Front {
		return fmt.Sprintf("ARRAY_PREPEND(%s, %s)", a.X, a.Elem)
	}
	return fmt.Sprintf("ARRAY_APPEND(%s, %s)", a.X, a.Elem)
}

// Children lets conditional forms see the sub-expressions.
func (a *Append) Children() []expr.Expr { return []expr.Expr{a.X, a.Elem} }

// Concat is ARRAY_CONCAT(array1, ...): the elements of each array in
// turn; NULL when any array is NULL.
type Concat struct {
	Lists []expr.Expr
}

func (c *Concat) DataType() arrow.DataType { return c.Lists[0].DataType() }

func (c *Concat) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll(c.Lists, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	ls, ok := listsOf(cols)
	if !ok {
		return array.MakeArrayOfNull(mem, c.DataType(), n), nil
	}
	src, base, err := concatenated(ls, mem)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, src.Len())
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		for k, l := range ls {
			start, end := l.ValueOffsets(i)
			for e := start; e < end; e++ {
				b.add(base[k] + int(e))
			}
		}
	}
	return b.finish(c.DataType(), src, validity, nulls, mem)
}

func (c *Concat) String() string { return "ARRAY_CONCAT(" + joinExprs(c.Lists) + ")" }

// Children lets conditional forms see the sub-expressions.
func (c *Concat) Children() []expr.Expr { return c.Lists }

func anyNull(cols []arrow.Array, i int) bool {
	for _, c := range cols {
		if c.IsNull(i) {
			return true
		}
	}
	return false
}

// Slice is ARRAY_SLICE(array, start [, end]): the elements from the
// 1-based offset start to end, both included, as Flink's
// ArraySliceFunction: a negative offset counts from the end (-1 is the
// last element), a start below 1 is 1, an end of 0 is 1 and an end past
// the array its length; a start after the end gives an empty array. NULL
// when any argument is. End nil: the array's length.
type Slice struct {
	X, Start, End expr.Expr
}

func (s *Slice) DataType() arrow.DataType { return s.X.DataType() }

func (s *Slice) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	xs := []expr.Expr{s.X, s.Start}
	if s.End != nil {
		xs = append(xs, s.End)
	}
	cols, release, err := evalAll(xs, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	l, ok := cols[0].(*array.List)
	if !ok || cols[1].DataType().ID() == arrow.NULL || (s.End != nil && cols[2].DataType().ID() == arrow.NULL) {
		return array.MakeArrayOfNull(mem, s.DataType(), n), nil
	}
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, l.ListValues().Len())
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		start, end := l.ValueOffsets(i)
		size := end - start
		if size == 0 {
			continue
		}
		from, to := intAt(cols[1], i), size
		if s.End != nil {
			to = intAt(cols[2], i)
		}
		if from < 0 {
			from += size + 1
		}
		if to < 0 {
			to += size + 1
		}
		from = max(1, from)
		if to == 0 {
			to = 1
		} else {
			to = min(to, size)
		}
		for e := start + from - 1; e < start+to; e++ {
			b.add(int(e))
		}
	}
	return b.finish(s.DataType(), l.ListValues(), validity, nulls, mem)
}

func (s *Slice) String() string {
	if s.End == nil {
		return fmt.Sprintf("ARRAY_SLICE(%s, %s)", s.X, s.Start)
	}
	return fmt.Sprintf("ARRAY_SLICE(%s, %s, %s)", s.X, s.Start, s.End)
}

// Children lets conditional forms see the sub-expressions.
func (s *Slice) Children() []expr.Expr {
	if s.End == nil {
		return []expr.Expr{s.X, s.Start}
	}
	return []expr.Expr{s.X, s.Start, s.End}
}

// Remove is ARRAY_REMOVE(haystack, needle): the array without the
// elements equal to the needle (a NULL needle removes the NULL elements),
// in order; NULL for a NULL array.
type Remove struct {
	X, Needle expr.Expr
}

func (r *Remove) DataType() arrow.DataType { return r.X.DataType() }

func (r *Remove) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{r.X, r.Needle}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	l, ok := cols[0].(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, r.DataType(), n), nil
	}
	values, needle := l.ListValues(), cols[1]
	key, err := elementKeys(values)
	if err != nil {
		return nil, err
	}
	needleKey := func(int) elemKey { return elemKey{} }
	if needle.DataType().ID() != arrow.NULL {
		if needleKey, err = elementKeys(needle); err != nil {
			return nil, err
		}
	}
	untyped := needle.DataType().ID() == arrow.NULL
	b := newListBuilder(mem, n, values.Len())
	for i := 0; i < n; i++ {
		b.startRow(i)
		if l.IsNull(i) {
			continue
		}
		nullNeedle := untyped || needle.IsNull(i)
		var nk elemKey
		if !nullNeedle {
			nk = needleKey(i)
		}
		start, end := l.ValueOffsets(i)
		for e := int(start); e < int(end); e++ {
			if values.IsNull(e) {
				if !nullNeedle {
					b.add(e)
				}
				continue
			}
			if nullNeedle || key(e) != nk {
				b.add(e)
			}
		}
	}
	validity, nulls := expr.AndValidity(mem, n, l)
	return b.finish(r.DataType(), values, validity, nulls, mem)
}

func (r *Remove) String() string { return fmt.Sprintf("ARRAY_REMOVE(%s, %s)", r.X, r.Needle) }

// Children lets conditional forms see the sub-expressions.
func (r *Remove) Children() []expr.Expr { return []expr.Expr{r.X, r.Needle} }
