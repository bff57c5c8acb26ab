package format

import (
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/format/intervaltext"
	"github.com/wsql/wsql/exec/format/scalartext"
	"github.com/wsql/wsql/rowtime"
)

// Text forms shared by the result writers:
//   TIMESTAMP(p)      yyyy-MM-dd HH:mm:ss[.fraction of p digits], the wall time as stored
//   TIMESTAMP_LTZ(p)  the same, for the instant seen in the session time zone
//   DATE yyyy-MM-dd, TIME HH:mm:ss[.fraction], BOOLEAN true/false
//   DOUBLE/FLOAT      Java's Double.toString/Float.toString (float_text.go):
//                     1.0, 0.001, 1.0E7, 1.0E-4, NaN, Infinity, -0.0
//   DECIMAL(p,s)      exactly s fraction digits
// NULL is left to the writer (empty in CSV, NULL in tables).

// AppendValue appends the text of arr[i] to dst; it appends nothing for NULL.
// loc is the time zone for zoned timestamps (nil means UTC).
func AppendValue(dst []byte, arr arrow.Array, i int, loc *time.Location) []byte {
	if arr.IsNull(i) {
		return dst
	}
	return ValueAppender(arr, loc)(dst, i)
}

// ValueAppender returns the formatter for arr's type.
func ValueAppender(arr arrow.Array, loc *time.Location) func(dst []byte, i int) []byte {
	if loc == nil {
		loc = time.UTC
	}
	if app := nestedValueAppender(arr, loc); app != nil {
		return app
	}
	switch a := arr.(type) {
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.LargeString:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.Binary:
		return func(dst []byte, i int) []byte { return AppendBytesLiteral(dst, a.Value(i)) }
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }
	case *array.Int8:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
	case *array.Int16:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
	case *array.Int32:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
	case *array.Int64:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, a.Value(i), 10) }
	case *array.Uint8:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }
	case *array.Uint16:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }
	case *array.Uint32:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }
	case *array.Uint64:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, a.Value(i), 10) }
	case *array.Float32:
		return func(dst []byte, i int) []byte { return scalartext.AppendFloatValue(dst, float64(a.Value(i)), 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return scalartext.AppendFloatValue(dst, a.Value(i), 64) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(dst []byte, i int) []byte { return AppendDecimal128Value(dst, a.Value(i), scale) }
	case *array.Date32:
		return func(dst []byte, i int) []byte { return AppendDateValue(dst, int64(a.Value(i))) }
	case *array.Date64:
		return func(dst []byte, i int) []byte {
			return AppendDateValue(dst, rowtime.FloorDiv(int64(a.Value(i)), 86_400_000))
		}
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(dst []byte, i int) []byte {
			return AppendTimeOfDayValue(dst, int64(a.Value(i))*int64(unit.Multiplier()), unit)
		}
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(dst []byte, i int) []byte {
			return AppendTimeOfDayValue(dst, int64(a.Value(i))*int64(unit.Multiplier()), unit)
		}
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		unit, zoned := tt.Unit, tt.TimeZone != ""
		return func(dst []byte, i int) []byte { return AppendTimestampValue(dst, int64(a.Value(i)), unit, zoned, loc) }
	case *array.Duration: // a day-time interval in milliseconds
		return func(dst []byte, i int) []byte { return intervaltext.AppendDayTime(dst, int64(a.Value(i))) }
	case *array.MonthInterval:
		return func(dst []byte, i int) []byte { return intervaltext.AppendYearMonth(dst, int64(a.Value(i))) }
	}
	return func(dst []byte, i int) []byte { return append(dst, arr.ValueStr(i)...) }
}

// TimeUnitDigits is how many fraction digits a time unit writes.
func TimeUnitDigits(u arrow.TimeUnit) int {
	switch u {
	case arrow.Millisecond:
		return 3
	case arrow.Microsecond:
		return 6
	case arrow.Nanosecond:
		return 9
	}
	return 0
}

// AppendDecimal128Value formats a DECIMAL of the given scale.
func AppendDecimal128Value(dst []byte, n decimal128.Num, scale int32) []byte {
	hi, lo := n.HighBits(), n.LowBits()
	if (hi == 0 && lo <= math.MaxInt64) || (hi == -1 && lo > math.MaxInt64) {
		return appendScaledInt(dst, int64(lo), int(scale))
	}
	return append(dst, n.ToString(scale)...) // beyond int64: rare, allocates
}

// appendScaledInt writes v·10^-scale with exactly scale fraction digits.
func appendScaledInt(dst []byte, v int64, scale int) []byte {
	if scale <= 0 {
		dst = strconv.AppendInt(dst, v, 10)
		for range -scale {
			if v == 0 {
				break
			}
			dst = append(dst, '0')
		}
		return dst
	}
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	var tmp [20]byte
	digits := strconv.AppendUint(tmp[:0], u, 10)
	if len(digits) <= scale {
		dst = append(dst, '0', '.')
		for range scale - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// AppendZeroPadInt writes v with at least width digits, zero-padded.
func AppendZeroPadInt(dst []byte, v int64, width int) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var tmp [20]byte
	digits := strconv.AppendInt(tmp[:0], v, 10)
	for range width - len(digits) {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}

func appendDateParts(dst []byte, y, m, d int64) []byte {
	dst = AppendZeroPadInt(dst, y, 4)
	dst = append(dst, '-')
	dst = AppendZeroPadInt(dst, m, 2)
	dst = append(dst, '-')
	return AppendZeroPadInt(dst, d, 2)
}

// AppendDateValue formats a DATE (days since 1970-01-01) as yyyy-MM-dd.
func AppendDateValue(dst []byte, days int64) []byte {
	y, m, d := rowtime.CivilFromDays(days)
	return appendDateParts(dst, y, m, d)
}

func appendClockValue(dst []byte, h, mi, s, nanos int64, unit arrow.TimeUnit) []byte {
	dst = AppendZeroPadInt(dst, h, 2)
	dst = append(dst, ':')
	dst = AppendZeroPadInt(dst, mi, 2)
	dst = append(dst, ':')
	dst = AppendZeroPadInt(dst, s, 2)
	if digits := TimeUnitDigits(unit); digits > 0 {
		dst = append(dst, '.')
		dst = AppendZeroPadInt(dst, nanos/int64(math.Pow10(9-digits)), digits)
	}
	return dst
}

// AppendTimeOfDayValue formats nanoseconds since midnight.
func AppendTimeOfDayValue(dst []byte, nanos int64, unit arrow.TimeUnit) []byte {
	sec := rowtime.FloorDiv(nanos, 1e9)
	frac := nanos - sec*1e9
	sec %= 86400
	if sec < 0 {
		sec += 86400
	}
	return appendClockValue(dst, sec/3600, sec/60%60, sec%60, frac, unit)
}

// AppendTimestampValue formats v (in unit since the epoch): zone-less values
// as the UTC wall time they store, zoned ones (TIMESTAMP_LTZ) in loc.
func AppendTimestampValue(dst []byte, v int64, unit arrow.TimeUnit, zoned bool, loc *time.Location) []byte {
	per := int64(time.Second / unit.Multiplier())
	sec := rowtime.FloorDiv(v, per)
	nanos := (v - sec*per) * int64(unit.Multiplier())
	if zoned && loc != time.UTC {
		t := time.Unix(sec, nanos).In(loc)
		y, m, d := t.Date()
		h, mi, s := t.Clock()
		dst = appendDateParts(dst, int64(y), int64(m), int64(d))
		dst = append(dst, ' ')
		return appendClockValue(dst, int64(h), int64(mi), int64(s), nanos, unit)
	}
	days := rowtime.FloorDiv(sec, 86400)
	secOfDay := sec - days*86400
	dst = AppendDateValue(dst, days)
	dst = append(dst, ' ')
	return appendClockValue(dst, secOfDay/3600, secOfDay/60%60, secOfDay%60, nanos, unit)
}
