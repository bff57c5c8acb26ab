package windowop

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// The aggregates with a DOUBLE result computed from their state when a
// window fires (the variance family, PERCENTILE) share how the results are
// appended and compared: result gives a slot's value, or false for NULL.

// appendDoubleResults appends the result of each slot to b, a DOUBLE
// builder.
func appendDoubleResults(slots []int32, b array.Builder, result func(int32) (float64, bool)) {
	fb := b.(*array.Float64Builder)
	for _, s := range slots {
		if v, ok := result(s); ok {
			fb.Append(v)
		} else {
			fb.AppendNull()
		}
	}
}

// sameDoubleResult reports whether slots x and y have the same result, bit
// for bit (NaN equals NaN, -0.0 differs from 0.0).
func sameDoubleResult(result func(int32) (float64, bool), x, y int32) bool {
	vx, okx := result(x)
	vy, oky := result(y)
	return okx == oky && math.Float64bits(vx) == math.Float64bits(vy)
}
