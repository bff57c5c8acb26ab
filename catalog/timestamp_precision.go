package catalog

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/sql"
)

// Precisions of TIME and TIMESTAMP on Arrow. Arrow's units are seconds,
// milliseconds, microseconds and nanoseconds, so TIMESTAMP(p) is kept in the
// coarsest unit that holds p digits: TIMESTAMP(0) in seconds, 1 to 3 in
// milliseconds, 4 to 6 in microseconds, 7 to 9 in nanoseconds. Values are
// truncated to the unit (the decoders) or to p (CAST, INSERT); a p between
// the units travels on the column's Arrow field (Column.Field,
// exec/format/timeprecision), so results print p digits as Flink's do.

// DefaultTimestampPrecision is the precision of TIMESTAMP and
// TIMESTAMP_LTZ written without one, Flink's 6 (microseconds). A rowtime
// column needs a precision of at most 3, so it is declared TIMESTAMP(3),
// as in Flink.
const DefaultTimestampPrecision = 6

// TimestampUnit is the Arrow unit of TIMESTAMP(p).
func TimestampUnit(p int) arrow.TimeUnit {
	switch {
	case p == 0:
		return arrow.Second
	case p <= 3:
		return arrow.Millisecond
	case p <= 6:
		return arrow.Microsecond
	}
	return arrow.Nanosecond
}

func timestampArrowType(t sql.TypeName) (arrow.DataType, error) {
	p := t.Precision
	if p < 0 {
		p = DefaultTimestampPrecision
	}
	if p > 9 {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "%s(%d) is invalid: the precision of %s must be 0 to 9", t.Name, p, t.Name)
	}
	tt := &arrow.TimestampType{Unit: TimestampUnit(p)}
	if t.Name == "TIMESTAMP_LTZ" {
		tt.TimeZone = "UTC"
	}
	return tt, nil
}

// timeArrowType is TIME(p): Flink keeps TIME in milliseconds of the day, so
// p is 0 (time32[s]) or 1 to 3 (time32[ms]); finer precisions are refused
// rather than silently truncated as Flink does (FLINK-39214).
func timeArrowType(t sql.TypeName) (arrow.DataType, error) {
	switch p := t.Precision; {
	case p <= 0:
		return arrow.FixedWidthTypes.Time32s, nil
	case p <= 3:
		return arrow.FixedWidthTypes.Time32ms, nil
	case p <= 9:
		return nil, sql.Errorf(sql.ErrUnsupported, t.At, "TIME(%d) is not supported: TIME is kept in milliseconds of the day, as in Flink; declare TIME(3) or use TIMESTAMP(%d)", p, p)
	default:
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "TIME(%d) is invalid: the precision of TIME must be 0 to 9", p)
	}
}

// checkRowtimeType refuses a WATERMARK on a column that is not a
// millisecond TIMESTAMP or TIMESTAMP_LTZ. Flink takes precisions 0 to 3 for
// a rowtime; wsql's event time is in milliseconds, so it takes 1 to 3, and
// TIMESTAMP(0) (seconds) is refused with the way out.
func checkRowtimeType(col Column, at sql.Pos) error {
	tt, ok := col.Type.(*arrow.TimestampType)
	switch {
	case !ok:
		return sql.Errorf(sql.ErrInvalid, at, "watermark column %q must be TIMESTAMP(3) or TIMESTAMP_LTZ(3), not %s", col.Name, col.SQLType)
	case tt.Unit == arrow.Second:
		return sql.Errorf(sql.ErrUnsupported, at, "watermark column %q is %s: event time is kept in milliseconds, declare it with a precision of 1 to 3, e.g. TIMESTAMP(3)", col.Name, col.SQLType)
	case tt.Unit != arrow.Millisecond:
		return sql.Errorf(sql.ErrInvalid, at, "watermark column %q is %s: the precision of a rowtime attribute must be at most 3, as in Flink; declare it TIMESTAMP(3)", col.Name, col.SQLType)
	}
	return nil
}

// TIMESTAMP(p) and TIME(p) of different precisions meet in the finer one,
// as Flink's LogicalTypeMerging takes the larger precision.

// unitRank orders Arrow time units from coarse to fine.
func unitRank(u arrow.TimeUnit) int {
	return map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 1, arrow.Microsecond: 2, arrow.Nanosecond: 3}[u]
}

// FinerTemporal is the common type of two TIMESTAMPs of one kind (both
// zone-less or both TIMESTAMP_LTZ) or two TIMEs: the finer precision.
func FinerTemporal(a, b arrow.DataType) (arrow.DataType, bool) {
	switch at := a.(type) {
	case *arrow.TimestampType:
		bt, ok := b.(*arrow.TimestampType)
		if !ok || (at.TimeZone == "") != (bt.TimeZone == "") {
			return nil, false
		}
		if unitRank(bt.Unit) > unitRank(at.Unit) {
			return b, true
		}
		return a, true
	case *arrow.Time32Type:
		bt, ok := b.(*arrow.Time32Type)
		if !ok {
			return nil, false
		}
		if unitRank(bt.Unit) > unitRank(at.Unit) {
			return b, true
		}
		return a, true
	}
	return nil, false
}

// CastableTemporal reports the casts between TIME and TIMESTAMP wsql runs:
// TIME to TIME of any precision, TIMESTAMP to TIME (its time of day).
func CastableTemporal(from, to arrow.DataType) bool {
	return to.ID() == arrow.TIME32 && (from.ID() == arrow.TIME32 || from.ID() == arrow.TIMESTAMP)
}

// IntervalIn is an interval of ms milliseconds in the unit of the timestamp
// type dt, and the type the sum is computed in: a TIMESTAMP(0) plus an
// interval with a fraction of a second becomes a TIMESTAMP(3).
func IntervalIn(dt arrow.DataType, ms int64) (int64, arrow.DataType) {
	tt := dt.(*arrow.TimestampType)
	switch tt.Unit {
	case arrow.Second:
		if ms%1000 == 0 {
			return ms / 1000, dt
		}
		return ms, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: tt.TimeZone}
	case arrow.Microsecond:
		return ms * 1000, dt
	case arrow.Nanosecond:
		return ms * 1_000_000, dt
	}
	return ms, dt
}

// MillisOf is a timestamp value of type dt in epoch milliseconds (floor).
func MillisOf(v int64, dt arrow.DataType) int64 {
	switch dt.(*arrow.TimestampType).Unit {
	case arrow.Second:
		return v * 1000
	case arrow.Microsecond:
		return floorDiv(v, 1000)
	case arrow.Nanosecond:
		return floorDiv(v, 1_000_000)
	}
	return v
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// TimePrecision is the declared precision of a TIMESTAMP, TIMESTAMP_LTZ or
// TIME column (from its SQLType, e.g. TIMESTAMP(2)), -1 for other columns.
func (c Column) TimePrecision() int {
	switch c.Type.(type) {
	case *arrow.TimestampType, *arrow.Time32Type:
	default:
		return -1
	}
	open, end := strings.IndexByte(c.SQLType, '('), strings.IndexByte(c.SQLType, ')')
	if open < 0 || end < open {
		return -1
	}
	p, err := strconv.Atoi(c.SQLType[open+1 : end])
	if err != nil {
		return -1
	}
	return p
}

// Field is c's Arrow field; a TIMESTAMP or TIME whose precision lies
// between Arrow's units carries it (exec/format/timeprecision).
func (c Column) Field() arrow.Field {
	return timeprecision.With(arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull}, c.TimePrecision())
}
