package intervaltext

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Flink's types of the two kinds, as DESCRIBE prints them.
const (
	DayTimeName   = "INTERVAL DAY TO SECOND(3)"
	YearMonthName = "INTERVAL YEAR TO MONTH"
)

// DayTime and YearMonth are the Arrow types of the two kinds.
var (
	DayTime   arrow.DataType = arrow.FixedWidthTypes.Duration_ms
	YearMonth arrow.DataType = arrow.FixedWidthTypes.MonthInterval
)

// IsInterval reports whether dt is one of the two interval types.
func IsInterval(dt arrow.DataType) bool {
	return arrow.TypeEqual(dt, DayTime) || dt.ID() == arrow.INTERVAL_MONTHS
}

// AppendYearMonth writes months as +y-mm (-0-01 for minus one month).
func AppendYearMonth(dst []byte, months int64) []byte {
	dst, months = appendSign(dst, months)
	dst = strconv.AppendInt(dst, months/12, 10)
	dst = append(dst, '-')
	return appendTwo(dst, months%12)
}

// AppendDayTime writes milliseconds as +d hh:mm:ss.fff.
func AppendDayTime(dst []byte, ms int64) []byte {
	dst, ms = appendSign(dst, ms)
	dst = strconv.AppendInt(dst, ms/86_400_000, 10)
	dst = append(dst, ' ')
	dst = appendTwo(dst, ms/3_600_000%24)
	dst = append(dst, ':')
	dst = appendTwo(dst, ms/60_000%60)
	dst = append(dst, ':')
	dst = appendTwo(dst, ms/1000%60)
	dst = append(dst, '.')
	f := ms % 1000
	return append(dst, byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

func appendSign(dst []byte, v int64) ([]byte, int64) {
	if v < 0 {
		return append(dst, '-'), -v
	}
	return append(dst, '+'), v
}

func appendTwo(dst []byte, v int64) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}
