package rowtime

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// IsRowtimeType reports whether dt can be a rowtime column: Arrow
// timestamp[ms], zone-less (TIMESTAMP(3)) or UTC (TIMESTAMP_LTZ(3)).
func IsRowtimeType(dt arrow.DataType) bool {
	ts, ok := dt.(*arrow.TimestampType)
	return ok && ts.Unit == arrow.Millisecond
}

// Millis returns the event times of a rowtime column as epoch milliseconds,
// without copying: the slice aliases the array's buffer and is valid while
// the array is. A rowtime column must not hold NULLs (sources reject or skip
// such rows before they reach the generator).
func Millis(arr arrow.Array) ([]int64, error) {
	a, ok := arr.(*array.Timestamp)
	if !ok || !IsRowtimeType(arr.DataType()) {
		return nil, fmt.Errorf("rowtime column must be timestamp[ms], got %s", arr.DataType())
	}
	if a.NullN() > 0 {
		return nil, fmt.Errorf("rowtime column holds %d NULL values", a.NullN())
	}
	v := a.TimestampValues()
	// arrow.Timestamp is defined as int64: reinterpret instead of copying.
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(v))), len(v)), nil
}
