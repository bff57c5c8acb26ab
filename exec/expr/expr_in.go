package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// InList is X IN (v1, v2, ...) over constants of X's type, looked up in a
// set built once. As in SQL: TRUE when X equals a value; otherwise NULL when
// X is NULL or the list holds a NULL; otherwise FALSE. NOT IN is Not over
// it. (A list with column references is compiled as ORs of equalities.)
type InList struct {
	X      Expr
	Values []*Literal

	ints    map[int64]struct{}
	floats  map[float64]struct{}
	strs    map[string]struct{}
	decs    map[decimal128.Num]struct{} // one scale: X's
	hasNull bool
}

// NewInList builds the lookup set.
func NewInList(x Expr, values []*Literal) *InList {
	e := &InList{X: x, Values: values}
	switch {
	case x.DataType().ID() == arrow.STRING:
		e.strs = make(map[string]struct{}, len(values))
	case isFloatType(x.DataType()):
		e.floats = make(map[float64]struct{}, len(values))
	case x.DataType().ID() == arrow.DECIMAL128:
		e.decs = make(map[decimal128.Num]struct{}, len(values))
	default:
		e.ints = make(map[int64]struct{}, len(values))
	}
	for _, v := range values {
		switch {
		case v.Null:
			e.hasNull = true
		case e.strs != nil:
			e.strs[v.Str] = struct{}{}
		case e.floats != nil:
			e.floats[v.Float] = struct{}{}
		case e.decs != nil:
			e.decs[v.Dec] = struct{}{}
		default:
			e.ints[v.Int] = struct{}{}
		}
	}
	return e
}

func (e *InList) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *InList) children() []Expr         { return []Expr{e.X} }

func (e *InList) String() string {
	vals := make([]string, len(e.Values))
	for i, v := range e.Values {
		vals[i] = v.String()
	}
	return fmt.Sprintf("%s IN (%s)", e.X, strings.Join(vals, ", "))
}

func (e *InList) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	found := make([]byte, (n+7)/8)
	switch a := x.(type) {
	case *array.String:
		for i := range n {
			if _, ok := e.strs[a.Value(i)]; ok {
				found[i>>3] |= 1 << (i & 7)
			}
		}
	case *array.Boolean:
		for i := range n {
			if _, ok := e.ints[int64(b2u(a.Value(i)))]; ok {
				found[i>>3] |= 1 << (i & 7)
			}
		}
	case *array.Decimal128:
		for i, v := range a.Values() {
			if _, ok := e.decs[v]; ok {
				found[i>>3] |= 1 << (i & 7)
			}
		}
	default:
		switch storageID(x.DataType()) {
		case arrow.INT8:
			lookupInts(valuesOf[int8](x), e.ints, found)
		case arrow.INT16:
			lookupInts(valuesOf[int16](x), e.ints, found)
		case arrow.INT32:
			lookupInts(valuesOf[int32](x), e.ints, found)
		case arrow.INT64:
			lookupInts(valuesOf[int64](x), e.ints, found)
		case arrow.FLOAT32:
			for i, v := range valuesOf[float32](x) {
				if _, ok := e.floats[float64(v)]; ok {
					found[i>>3] |= 1 << (i & 7)
				}
			}
		case arrow.FLOAT64:
			for i, v := range valuesOf[float64](x) {
				if _, ok := e.floats[v]; ok {
					found[i>>3] |= 1 << (i & 7)
				}
			}
		default:
			return nil, fmt.Errorf("IN over %s is not supported", x.DataType())
		}
	}
	valid := make([]byte, len(found))
	copyValidity(valid, x)
	for i := range found {
		found[i] &= valid[i]
		if e.hasNull {
			valid[i] = found[i] // not found against a NULL in the list is NULL
		}
	}
	return newBool(mem, n, found, valid), nil
}

func lookupInts[T integer](vals []T, set map[int64]struct{}, found []byte) {
	for i, v := range vals {
		if _, ok := set[int64(v)]; ok {
			found[i>>3] |= 1 << (i & 7)
		}
	}
}
