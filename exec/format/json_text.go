package format

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format/scalartext"
	"github.com/wsql/wsql/rowtime"
)

// JSONValueAppender returns the JSON text of a non-NULL value of arr, as the
// JSON writer and a refused JSON row's text write it.
func JSONValueAppender(arr arrow.Array, loc *time.Location, std TimestampStandard) func(dst []byte, i int) []byte {
	quoted := func(app func([]byte, int) []byte) func([]byte, int) []byte {
		return func(dst []byte, i int) []byte {
			return append(app(append(dst, '"'), i), '"')
		}
	}
	if app := nestedJSONAppender(arr, loc, std); app != nil {
		return app
	}
	switch a := arr.(type) {
	case *array.String:
		return func(dst []byte, i int) []byte { return AppendJSONString(dst, a.Value(i)) }
	case *array.LargeString:
		return func(dst []byte, i int) []byte { return AppendJSONString(dst, a.Value(i)) }
	case *array.Boolean, *array.Int8, *array.Int16, *array.Int32, *array.Int64,
		*array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64, *array.Decimal128:
		return ValueAppender(arr, loc)
	case *array.Binary:
		return func(dst []byte, i int) []byte { return append(AppendBase64(append(dst, '"'), a.Value(i)), '"') }
	case *array.Duration: // Flink's json format: an interval is its milliseconds or months
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
	case *array.MonthInterval:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }
	case *array.Float32:
		return func(dst []byte, i int) []byte { return appendJSONFloat(dst, float64(a.Value(i)), 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return appendJSONFloat(dst, a.Value(i), 64) }
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		unit, zoned := tt.Unit, tt.TimeZone != ""
		return func(dst []byte, i int) []byte {
			return appendJSONTimestamp(dst, int64(a.Value(i)), unit, zoned, loc, std)
		}
	}
	text := ValueAppender(arr, loc)
	switch arr.(type) {
	case *array.Date32, *array.Date64, *array.Time32, *array.Time64:
		return quoted(text) // digits, '-', ':' and '.' need no escapes
	}
	return func(dst []byte, i int) []byte {
		start := len(dst)
		dst = text(dst, i)
		s := string(dst[start:])
		return AppendJSONString(dst[:start], s)
	}
}

func appendJSONFloat(dst []byte, v float64, bits int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		dst = append(dst, '"')
		return append(scalartext.AppendFloatValue(dst, v, bits), '"')
	}
	return scalartext.AppendFloatValue(dst, v, bits)
}

// appendJSONTimestamp writes a TIMESTAMP as its wall time and a
// TIMESTAMP_LTZ as the wall time in loc with the offset of that instant.
func appendJSONTimestamp(dst []byte, v int64, unit arrow.TimeUnit, zoned bool, loc *time.Location, std TimestampStandard) []byte {
	dst = append(dst, '"')
	start := len(dst)
	dst = AppendTimestampValue(dst, v, unit, zoned, loc)
	if std == TimestampISO8601 {
		if k := bytes.IndexByte(dst[start:], ' '); k >= 0 {
			dst[start+k] = 'T'
		}
	}
	if zoned {
		per := int64(time.Second / unit.Multiplier())
		_, off := time.Unix(rowtime.FloorDiv(v, per), 0).In(loc).Zone()
		if off == 0 {
			dst = append(dst, 'Z')
		} else {
			sign := byte('+')
			if off < 0 {
				sign, off = '-', -off
			}
			dst = append(dst, sign)
			dst = AppendZeroPadInt(dst, int64(off/3600), 2)
			dst = append(dst, ':')
			dst = AppendZeroPadInt(dst, int64(off/60%60), 2)
		}
	}
	return append(dst, '"')
}

// jsonEscape tells the ASCII bytes a JSON string must escape.
var jsonEscape = func() (t [utf8.RuneSelf]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD so the output stays valid JSON.
func AppendJSONString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || !jsonEscape[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
