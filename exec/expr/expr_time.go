package expr

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/wsql/wsql/exec/expr/datepattern"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

// Time functions read TIMESTAMP as the wall clock it stores, TIMESTAMP_LTZ
// as the wall clock of its instant in the session zone Loc (nil is UTC),
// and DATE as midnight. Calendar arithmetic is integer work on days and
// milliseconds (floor division, so times before 1970 are right), with no
// time.Time per row.

// wallMillis returns the local wall-clock milliseconds of a TIMESTAMP,
// TIMESTAMP_LTZ or DATE column.
func wallMillis(x arrow.Array, loc *time.Location) ([]int64, error) {
	switch x.DataType().ID() {
	case arrow.DATE32:
		days := valuesOf[int32](x)
		out := make([]int64, len(days))
		for i, d := range days {
			out[i] = int64(d) * msPerDay
		}
		return out, nil
	case arrow.TIMESTAMP:
		in := valuesOf[int64](x)
		if x.DataType().(*arrow.TimestampType).TimeZone == "" {
			return in, nil
		}
		out := make([]int64, len(in))
		rowtime.NewLocalTime(loc).ToLocalColumn(in, out)
		return out, nil
	}
	return nil, fmt.Errorf("%s is not a time type", x.DataType())
}

// Extract is EXTRACT(Unit FROM X) and YEAR(X), MONTH(X), ... as BIGINT.
// Units: MILLENNIUM, CENTURY, DECADE, YEAR, QUARTER, MONTH, WEEK (ISO week),
// DAY, DOY, DOW (Sunday = 1), ISODOW (Monday = 1), HOUR, MINUTE, SECOND,
// MILLISECOND (seconds included, as Calcite: 12.345 s gives 12345),
// MICROSECOND and NANOSECOND (likewise, from the value's own precision),
// EPOCH (seconds), ISOYEAR (the year of the ISO week).
type Extract struct {
	Unit string
	X    Expr
	Loc  *time.Location
}

// ExtractUnits lists the units Extract knows.
var ExtractUnits = []string{"MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY",
	"DOY", "DOW", "ISODOW", "ISOYEAR", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH"}

func (e *Extract) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int64 }
func (e *Extract) children() []Expr         { return []Expr{e.X} }
func (e *Extract) String() string           { return fmt.Sprintf("EXTRACT(%s FROM %s)", e.Unit, e.X) }

func (e *Extract) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if IsFractionUnit(e.Unit) {
		return e.secondFraction(x, mem), nil
	}
	ms, err := wallMillis(x, e.Loc)
	if err != nil {
		return nil, err
	}
	n := x.Len()
	validity, nulls := andValidity(mem, n, x)
	vb, out := NewValues[int64](mem, n)
	switch e.Unit {
	case "HOUR":
		for i, v := range ms {
			out[i] = rowtime.FloorMod(v, msPerDay) / 3_600_000
		}
	case "MINUTE":
		for i, v := range ms {
			out[i] = rowtime.FloorMod(v, 3_600_000) / 60_000
		}
	case "SECOND":
		for i, v := range ms {
			out[i] = rowtime.FloorMod(v, 60_000) / 1000
		}
	case "EPOCH":
		for i, v := range ms {
			out[i] = rowtime.FloorDiv(v, 1000)
		}
	case "DOW", "ISODOW":
		for i, v := range ms {
			dow := rowtime.FloorMod(rowtime.FloorDiv(v, msPerDay)+4, 7) // 1970-01-01 was a Thursday; 0 = Sunday
			if e.Unit == "ISODOW" && dow == 0 {
				dow = 7
			} else if e.Unit == "DOW" {
				dow++
			}
			out[i] = dow
		}
	default:
		for i, v := range ms {
			out[i] = calendarField(e.Unit, rowtime.FloorDiv(v, msPerDay))
		}
	}
	return NewArray(arrow.PrimitiveTypes.Int64, n, validity, nulls, vb), nil
}

// calendarField computes a date unit of the day number days.
func calendarField(unit string, days int64) int64 {
	y, m, d := rowtime.CivilFromDays(days)
	switch unit {
	case "YEAR":
		return y
	case "QUARTER":
		return (m-1)/3 + 1
	case "MONTH":
		return m
	case "DAY":
		return d
	case "DOY":
		return days - rowtime.DaysFromCivil(y, 1, 1) + 1
	case "WEEK", "ISOYEAR":
		isoDow := rowtime.FloorMod(days+3, 7) + 1 // Monday = 1
		thursday := days - isoDow + 4             // the week's year is its Thursday's
		ty, _, _ := rowtime.CivilFromDays(thursday)
		if unit == "ISOYEAR" {
			return ty
		}
		return (thursday-rowtime.DaysFromCivil(ty, 1, 1))/7 + 1
	case "DECADE":
		return rowtime.FloorDiv(y, 10)
	case "CENTURY":
		if y > 0 {
			return (y + 99) / 100
		}
		return -((-y)/100 + 1)
	case "MILLENNIUM":
		if y > 0 {
			return (y + 999) / 1000
		}
		return -((-y)/1000 + 1)
	}
	return 0
}

// DateFormat is DATE_FORMAT(X, 'pattern'): a TIMESTAMP, TIMESTAMP_LTZ (in
// Loc) or DATE as text in a Java date pattern (every letter of a zone-less
// date-time: MMM month names, EEE day names, a, h, S fractions, quoted
// text), compiled once into segments.
type DateFormat struct {
	X      Expr
	Format string
	Loc    *time.Location
	layout *datepattern.Layout
}

// NewDateFormat compiles the pattern.
func NewDateFormat(x Expr, format string, loc *time.Location) (*DateFormat, error) {
	l, err := datepattern.CompileFormat(format)
	if err != nil {
		return nil, err
	}
	return &DateFormat{X: x, Format: format, Loc: loc, layout: l}, nil
}

func (e *DateFormat) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *DateFormat) children() []Expr         { return []Expr{e.X} }

func (e *DateFormat) String() string {
	return fmt.Sprintf("DATE_FORMAT(%s, %s)", e.X, strconv.Quote(e.Format))
}

// Eval formats a row only when it leaves the period (Layout.Period) of
// the row before: times in order share their texts, which are copied.
// The column is built on its buffers, not through a builder (Nexmark q16's
// two DATE_FORMATs, of the day and of the minute, went from 3.0 to 0.3
// CPU-s at 10M events).
func (e *DateFormat) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	ms, err := wallMillis(x, e.Loc)
	if err != nil {
		return nil, err
	}
	n := len(ms)
	offsets, offs := NewValues[int32](mem, n+1)
	defer offsets.Release()
	data := memory.NewResizableBuffer(mem)
	defer data.Release()
	period := e.layout.Period()
	var text []byte
	var bytes []byte // data's, grown as it fills
	last, pos := int64(0), 0
	bm, off := nullBitmap(x)
	offs[0] = 0
	for i, v := range ms {
		if validAt(bm, off, i) {
			if k := rowtime.FloorDiv(v, period); text == nil || k != last {
				text, last = e.layout.Append(text[:0], v), k
			}
			if pos+len(text) > len(bytes) {
				if int64(pos)+int64(len(text)) > MaxStringColumnBytes {
					return nil, stringLimitError("DATE_FORMAT", n)
				}
				// room for the rest at this row's length, doubled at least
				data.Reserve(max(2*len(bytes), pos+len(text)*(n-i)))
				bytes = data.Buf()[:cap(data.Buf())]
			}
			pos += copy(bytes[pos:], text)
		}
		offs[i+1] = int32(pos)
	}
	data.Resize(pos)
	var valid *memory.Buffer
	nulls := 0
	if bm != nil {
		var bits []byte
		valid, bits = NewBits(mem, n)
		defer valid.Release()
		for i := range n {
			if validAt(bm, off, i) {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
	}
	d := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{valid, offsets, data}, nil, nulls, 0)
	defer d.Release()
	return array.NewStringData(d), nil
}

// UnixTimestamp is UNIX_TIMESTAMP(s [, 'pattern']): text read in the
// pattern (default 'yyyy-MM-dd HH:mm:ss') as a wall-clock time in the
// session zone, returned as epoch seconds (BIGINT). Text that does not
// match gives Long.MIN_VALUE, as Flink documents; NULL text gives NULL.
type UnixTimestamp struct {
	X      Expr
	Format string
	Loc    *time.Location
	layout *datepattern.Layout
}

// NewUnixTimestamp compiles the pattern.
func NewUnixTimestamp(x Expr, format string, loc *time.Location) (*UnixTimestamp, error) {
	l, err := datepattern.CompileOffsets(format)
	if err != nil {
		return nil, err
	}
	return &UnixTimestamp{X: x, Format: format, Loc: loc, layout: l}, nil
}

func (e *UnixTimestamp) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int64 }
func (e *UnixTimestamp) children() []Expr         { return []Expr{e.X} }

func (e *UnixTimestamp) String() string {
	return fmt.Sprintf("UNIX_TIMESTAMP(%s, %s)", e.X, strconv.Quote(e.Format))
}

func (e *UnixTimestamp) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	s, ok := x.(*array.String)
	if !ok {
		return nil, fmt.Errorf("UNIX_TIMESTAMP over %s is not supported", x.DataType())
	}
	local := rowtime.NewLocalTime(e.Loc)
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(s.Len())
	for i := range s.Len() {
		if s.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		ms, offset, zoned, ok := e.layout.ParseOffset(s.Value(i))
		switch {
		case !ok:
			b.UnsafeAppend(math.MinInt64)
		case zoned: // the text's offset, not the session zone
			b.UnsafeAppend(rowtime.FloorDiv(ms-offset, 1000))
		default:
			b.UnsafeAppend(rowtime.FloorDiv(local.ToEpoch(ms), 1000))
		}
	}
	return b.NewArray(), nil
}
