package gotable

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// goTimestamp is t in the unit of a TIMESTAMP(p) column (seconds for p = 0,
// milliseconds for 1 to 3, microseconds for 4 to 6, nanoseconds above),
// truncated as CAST to a lower precision is.
func goTimestamp(t time.Time, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return t.Unix()
	case arrow.Microsecond:
		return t.UnixMicro()
	case arrow.Nanosecond:
		return t.UnixNano()
	}
	return t.UnixMilli()
}
