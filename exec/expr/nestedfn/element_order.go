package nestedfn

import (
	"bytes"
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// CanOrder reports the element types ARRAY_SORT, ARRAY_MAX and ARRAY_MIN
// order (orderAt).
func CanOrder(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP, arrow.DECIMAL128:
		return true
	}
	return false
}

// orderAt returns the comparison of elements i and j of a (neither NULL):
// numbers and times by value (DOUBLE as Java's Double.compare: NaN above
// everything), strings and bytes by their bytes, FALSE before TRUE. The
// switch on the type is made once, here.
func orderAt(a arrow.Array) func(i, j int) int {
	switch a := a.(type) {
	case *array.Boolean:
		return func(i, j int) int { return cmp.Compare(b2i(a.Value(i)), b2i(a.Value(j))) }
	case *array.Int8:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Int16:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Int32:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Int64:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Float32:
		return func(i, j int) int { return compareDouble(float64(a.Value(i)), float64(a.Value(j))) }
	case *array.Float64:
		return func(i, j int) int { return compareDouble(a.Value(i), a.Value(j)) }
	case *array.String:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Binary:
		return func(i, j int) int { return bytes.Compare(a.Value(i), a.Value(j)) }
	case *array.Date32:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Time32:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Timestamp:
		return func(i, j int) int { return cmp.Compare(a.Value(i), a.Value(j)) }
	case *array.Decimal128:
		return func(i, j int) int { return a.Value(i).Cmp(a.Value(j)) }
	}
	return func(int, int) int { return 0 }
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareDouble orders as Java's Double.compare: -0.0 below 0.0, NaN
// above everything and equal to itself.
func compareDouble(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	xb, yb := math.Float64bits(x), math.Float64bits(y)
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	case math.IsNaN(y):
		return -1
	case xb == yb:
		return 0
	case int64(xb) < int64(yb): // -0.0 has the sign bit
		return -1
	}
	return 1
}
