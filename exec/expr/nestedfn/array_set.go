package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Distinct is ARRAY_DISTINCT(haystack): the array without repeated
// elements (one NULL kept), in the order of their first occurrence; NULL
// for a NULL array.
type Distinct struct {
	X expr.Expr
}

func (d *Distinct) DataType() arrow.DataType { return d.X.DataType() }

func (d *Distinct) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := d.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	l, ok := a.(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, d.DataType(), n), nil
	}
	values := l.ListValues()
	key, err := elementKeys(values)
	if err != nil {
		return nil, err
	}
	seen := newElemSet()
	b := newListBuilder(mem, n, values.Len())
	for i := 0; i < n; i++ {
		b.startRow(i)
		if l.IsNull(i) {
			continue
		}
		seen.reset()
		start, end := l.ValueOffsets(i)
		for e := int(start); e < int(end); e++ {
			if seen.addAt(values, key, e) {
				b.add(e)
			}
		}
	}
	validity, nulls := expr.AndValidity(mem, n, l)
	return b.finish(d.DataType(), values, validity, nulls, mem)
}

func (d *Distinct) String() string { return fmt.Sprintf("ARRAY_DISTINCT(%s)", d.X) }

// Children lets conditional forms see the sub-expression.
func (d *Distinct) Children() []expr.Expr { return []expr.Expr{d.X} }

// SetOp says which of ARRAY_UNION, ARRAY_INTERSECT and ARRAY_EXCEPT a
// SetOf is.
type SetOp int

const (
	// Union: the distinct elements of array1 and then of array2.
	Union SetOp = iota
	// Intersect: the distinct elements of array1 also in array2.
	Intersect
	// Except: the distinct elements of array1 not in array2.
	Except
)

func (o SetOp) String() string {
	return [...]string{"ARRAY_UNION", "ARRAY_INTERSECT", "ARRAY_EXCEPT"}[o]
}

// SetOf is ARRAY_UNION, ARRAY_INTERSECT or ARRAY_EXCEPT(array1, array2):
// the elements without duplicates, in the order of array1 (then array2);
// a NULL element is an element like the others. NULL when either array
// is NULL.
type SetOf struct {
	Op   SetOp
	L, R expr.Expr
}

func (s *SetOf) DataType() arrow.DataType { return s.L.DataType() }

func (s *SetOf) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{s.L, s.R}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	ls, ok := listsOf(cols)
	if !ok {
		return array.MakeArrayOfNull(mem, s.DataType(), n), nil
	}
	src, base, err := concatenated(ls, mem)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	key, err := elementKeys(src)
	if err != nil {
		return nil, err
	}
	seen, other := newElemSet(), newElemSet()
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, src.Len())
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		seen.reset()
		ls0, le0 := ls[0].ValueOffsets(i)
		rs, re := ls[1].ValueOffsets(i)
		if s.Op != Union {
			other.reset()
			for e := base[1] + int(rs); e < base[1]+int(re); e++ {
				other.addAt(src, key, e)
			}
		}
		for e := base[0] + int(ls0); e < base[0]+int(le0); e++ {
			switch s.Op {
			case Intersect:
				if !other.hasAt(src, key, e) {
					continue
				}
			case Except:
				if other.hasAt(src, key, e) {
					continue
				}
			}
			if seen.addAt(src, key, e) {
				b.add(e)
			}
		}
		if s.Op == Union {
			for e := base[1] + int(rs); e < base[1]+int(re); e++ {
				if seen.addAt(src, key, e) {
					b.add(e)
				}
			}
		}
	}
	return b.finish(s.DataType(), src, validity, nulls, mem)
}

func (s *SetOf) String() string { return fmt.Sprintf("%s(%s, %s)", s.Op, s.L, s.R) }

// Children lets conditional forms see the sub-expressions.
func (s *SetOf) Children() []expr.Expr { return []expr.Expr{s.L, s.R} }
