package rowtime

import (
	"fmt"
	"time"
)

// MillisText prints a duration in ms the short way, as EXPLAIN and
// messages show interval and duration options: 1 min, 5 s, 1500 ms.
func MillisText(ms int64) string {
	switch {
	case ms != 0 && ms%86_400_000 == 0:
		return fmt.Sprintf("%d d", ms/86_400_000)
	case ms != 0 && ms%3_600_000 == 0:
		return fmt.Sprintf("%d h", ms/3_600_000)
	case ms != 0 && ms%60_000 == 0:
		return fmt.Sprintf("%d min", ms/60_000)
	case ms != 0 && ms%1000 == 0:
		return fmt.Sprintf("%d s", ms/1000)
	}
	return fmt.Sprintf("%d ms", ms)
}

// DurationText shows a duration option in MillisText's units, or Go's form
// below a millisecond.
func DurationText(d time.Duration) string {
	if d%time.Millisecond != 0 {
		return d.String()
	}
	return MillisText(d.Milliseconds())
}
