package nestedfn

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Sort is ARRAY_SORT(array [, ascending [, nullsFirst]]): the elements
// in ascending (or descending) order, the NULL elements first or last.
// Ascending defaults to TRUE and nullsFirst to ascending, as Flink's
// ArraySortFunction. NULL when any argument is.
type Sort struct {
	X                     expr.Expr
	Ascending, NullsFirst expr.Expr // nil: the defaults
}

func (s *Sort) DataType() arrow.DataType { return s.X.DataType() }

func (s *Sort) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	xs := s.Children()
	cols, release, err := evalAll(xs, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	l, ok := cols[0].(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, s.DataType(), n), nil
	}
	flags := make([]*array.Boolean, len(cols)-1)
	for k, c := range cols[1:] {
		if flags[k], ok = c.(*array.Boolean); !ok {
			return array.MakeArrayOfNull(mem, s.DataType(), n), nil
		}
	}
	values := l.ListValues()
	order := orderAt(values)
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, values.Len())
	asc, nullsFirst := true, true
	// one comparison closure per batch, reading the row's direction
	less := func(x, y int32) int {
		xn, yn := values.IsNull(int(x)), values.IsNull(int(y))
		switch {
		case xn && yn:
			return 0
		case xn == nullsFirst && (xn || yn):
			return -1
		case xn || yn:
			return 1
		}
		if asc {
			return order(int(x), int(y))
		}
		return order(int(y), int(x))
	}
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		asc = len(flags) == 0 || flags[0].Value(i)
		nullsFirst = asc
		if len(flags) == 2 {
			nullsFirst = flags[1].Value(i)
		}
		from := len(b.idx)
		start, end := l.ValueOffsets(i)
		for e := start; e < end; e++ {
			b.add(int(e))
		}
		slices.SortStableFunc(b.idx[from:], less)
	}
	return b.finish(s.DataType(), values, validity, nulls, mem)
}

func (s *Sort) String() string { return "ARRAY_SORT(" + joinExprs(s.Children()) + ")" }

// Children lets conditional forms see the sub-expressions.
func (s *Sort) Children() []expr.Expr {
	xs := []expr.Expr{s.X}
	if s.Ascending != nil {
		xs = append(xs, s.Ascending)
	}
	if s.NullsFirst != nil {
		xs = append(xs, s.NullsFirst)
	}
	return xs
}

// Extreme is ARRAY_MAX(array) (Max) and ARRAY_MIN(array): the largest
// (smallest) element, NULL elements left out; NULL for a NULL or empty
// array or one of NULLs only.
type Extreme struct {
	X   expr.Expr
	Max bool
}

func (x *Extreme) DataType() arrow.DataType { return x.X.DataType().(*arrow.ListType).Elem() }

func (x *Extreme) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := x.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	l, ok := a.(*array.List)
	if !ok {
		return array.MakeArrayOfNull(mem, x.DataType(), n), nil
	}
	values := l.ListValues()
	order := orderAt(values)
	sign := -1
	if x.Max {
		sign = 1
	}
	idx := make([]int32, n) // one per batch
	buf, valid := newBits(mem, n)
	defer buf.Release()
	for i := 0; i < n; i++ {
		if l.IsNull(i) {
			continue
		}
		best := -1
		start, end := l.ValueOffsets(i)
		for e := int(start); e < int(end); e++ {
			if values.IsNull(e) {
				continue
			}
			if best < 0 || order(e, best)*sign > 0 {
				best = e
			}
		}
		if best >= 0 {
			idx[i] = int32(best)
			valid[i>>3] |= 1 << (i & 7)
		}
	}
	return takeValid(values, idx, valid, x.DataType(), mem)
}

func (x *Extreme) String() string {
	if x.Max {
		return fmt.Sprintf("ARRAY_MAX(%s)", x.X)
	}
	return fmt.Sprintf("ARRAY_MIN(%s)", x.X)
}

// Children lets conditional forms see the sub-expression.
func (x *Extreme) Children() []expr.Expr { return []expr.Expr{x.X} }
