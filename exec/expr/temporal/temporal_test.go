package temporal

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
)

var (
	tsMs = &arrow.TimestampType{Unit: arrow.Millisecond}
	tsUs = &arrow.TimestampType{Unit: arrow.Microsecond}
)

// wall is the wall-clock milliseconds of a date-time.
func wall(y int, mo time.Month, d, h, mi, s, ms int) int64 {
	return time.Date(y, mo, d, h, mi, s, ms*1e6, time.UTC).UnixMilli()
}

// batch is one column of TIMESTAMP values (nil for NULL) in dt's unit,
// given in milliseconds times scale.
func batch(mem memory.Allocator, dt *arrow.TimestampType, scale int64, vals ...*int64) arrow.RecordBatch {
	b := array.NewTimestampBuilder(mem, dt)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(arrow.Timestamp(*v * scale))
		}
	}
	a := b.NewArray()
	defer a.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: dt, Nullable: true}}, nil), []arrow.Array{a}, int64(len(vals)))
}

func ptr(v int64) *int64 { return &v }

// eval evaluates e over rec and prints its values as the writers do.
func eval(t *testing.T, mem memory.Allocator, e expr.Expr, rec arrow.RecordBatch) []string {
	t.Helper()
	a, err := e.Eval(rec, mem)
	require.NoError(t, err)
	defer a.Release()
	require.True(t, arrow.TypeEqual(e.DataType(), a.DataType()))
	out := make([]string, a.Len())
	for i := range out {
		out[i] = "NULL"
		if a.IsValid(i) {
			out[i] = string(format.AppendValue(nil, a, i, time.UTC))
		}
	}
	return out
}

func TestCalendarArithmetic(t *testing.T) {
	c := msClock
	jan31 := wall(2024, 1, 31, 10, 15, 30, 250)
	// months keep the day, clamped to the month's length (Calcite's addMonths)
	require.Equal(t, wall(2024, 2, 29, 10, 15, 30, 250), c.addMonths(jan31, 1))
	require.Equal(t, wall(2023, 2, 28, 10, 15, 30, 250), c.addMonths(jan31, -11))
	// whole months: 01-31 to 02-29 is one (the clamped day), to 02-28 none
	require.Equal(t, int64(1), c.subtractMonths(wall(2024, 2, 29, 10, 15, 30, 250), jan31))
	require.Equal(t, int64(0), c.subtractMonths(wall(2024, 2, 28, 23, 0, 0, 0), jan31))
	require.Equal(t, int64(-1), c.subtractMonths(jan31, wall(2024, 2, 29, 10, 15, 30, 250)))
	// one millisecond short of the month is not a month
	require.Equal(t, int64(0), c.subtractMonths(wall(2024, 2, 29, 10, 15, 30, 249), jan31))
	// weeks start on Sunday: Wednesday 2024-01-31 floors to Sunday 01-28,
	// and before 1970 too (Thursday 1969-12-25 to Sunday 12-21)
	require.Equal(t, wall(2024, 1, 28, 0, 0, 0, 0), c.floor(jan31, "WEEK"))
	require.Equal(t, wall(1969, 12, 21, 0, 0, 0, 0), c.floor(wall(1969, 12, 25, 5, 0, 0, 0), "WEEK"))
	require.Equal(t, wall(2024, 4, 1, 0, 0, 0, 0), c.ceil(jan31, "QUARTER"))
	require.Equal(t, wall(2024, 1, 1, 0, 0, 0, 0), c.ceil(wall(2024, 1, 1, 0, 0, 0, 0), "YEAR"))
	require.Equal(t, wall(1969, 12, 31, 23, 0, 0, 0), c.floor(wall(1969, 12, 31, 23, 59, 0, 0), "HOUR"))
	// a TIMESTAMP(0) counts seconds: a millisecond is finer than its clock
	secs := clockOf(&arrow.TimestampType{Unit: arrow.Second})
	require.Equal(t, int64(86_400), secs.day)
	require.Equal(t, int64(7), secs.floor(7, "MILLISECOND"))
	require.Equal(t, int64(61), secs.step(60, 1500, "MILLISECOND"))
}

func TestKernelsOverColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	rec := batch(mem, tsMs, 1, ptr(wall(2024, 1, 31, 10, 15, 30, 250)), nil, ptr(wall(2024, 3, 1, 0, 0, 0, 0)))
	defer rec.Release()
	ts := &expr.ColumnExpr{Index: 0, Name: "t", Type: tsMs}
	one := &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 1}
	require.Equal(t, []string{"2024-02-29 10:15:30.250", "NULL", "2024-04-01 00:00:00.000"},
		eval(t, mem, NewAdd("MONTH", one, ts), rec))
	require.Equal(t, []string{"2024-01-31 10:00:00.000", "NULL", "2024-03-01 00:00:00.000"},
		eval(t, mem, &Round{Unit: "HOUR", X: ts}, rec))
	require.Equal(t, []string{"2024-02-01 00:00:00.000", "NULL", "2024-03-01 00:00:00.000"},
		eval(t, mem, &Round{Unit: "MONTH", Ceil: true, X: ts}, rec))
	later := &expr.Literal{Type: tsMs, Int: wall(2024, 3, 1, 0, 0, 0, 0)}
	require.Equal(t, []string{"29", "NULL", "0"}, eval(t, mem, &Diff{Unit: "DAY", A: ts, B: later}, rec))
	require.Equal(t, []string{"-1", "NULL", "0"}, eval(t, mem, &Diff{Unit: "MONTH", A: later, B: ts}, rec))

	// TIMESTAMP(6): the microseconds survive
	us := batch(mem, tsUs, 1000, ptr(wall(2024, 1, 31, 10, 15, 30, 250)))
	defer us.Release()
	usCol := &expr.ColumnExpr{Index: 0, Name: "t", Type: tsUs}
	require.Equal(t, []string{"2024-01-31 10:15:31.250000"}, eval(t, mem, NewAdd("SECOND", one, usCol), us))
	require.Equal(t, []string{"2024-01-31 11:00:00.000000"}, eval(t, mem, &Round{Unit: "HOUR", Ceil: true, X: usCol}, us))

	// an instant is rounded on the session's wall clock
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	ltz := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	zrec := batch(mem, ltz, 1, ptr(0))
	defer zrec.Release()
	got := eval(t, mem, &Round{Unit: "DAY", X: &expr.ColumnExpr{Index: 0, Name: "t", Type: ltz}, Loc: tokyo}, zrec)
	require.Equal(t, []string{"1969-12-31 15:00:00.000"}, got) // midnight in Tokyo, printed in UTC
}

func TestConvertTZ(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"1970-01-01 00:00:00", "garbage", ""}, []bool{true, true, false})
	a := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{a}, 3)
	a.Release()
	defer rec.Release()
	str := func(s string) *expr.Literal { return &expr.Literal{Type: arrow.BinaryTypes.String, Str: s} }
	s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
	// Flink: CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles')
	// returns '1969-12-31 16:00:00'
	require.Equal(t, []string{"1969-12-31 16:00:00", "NULL", "NULL"},
		eval(t, mem, &ConvertTZ{S: s, From: str("UTC"), To: str("America/Los_Angeles")}, rec))
	require.Equal(t, []string{"1970-01-01 16:00:00", "NULL", "NULL"},
		eval(t, mem, &ConvertTZ{S: s, From: str("PST"), To: str("GMT+08:00")}, rec))
	_, err := (&ConvertTZ{S: s, From: str("Mars/Olympus"), To: str("UTC")}).Eval(rec, mem)
	require.ErrorContains(t, err, `unknown time zone "Mars/Olympus"`)
}

func TestZone(t *testing.T) {
	for name, offset := range map[string]int{"UTC": 0, "GMT": 0, "GMT-08:00": -8 * 3600, "UTC+8": 8 * 3600,
		"+05:30": 5*3600 + 1800, "GMT+0530": 5*3600 + 1800, "EST": -5 * 3600, "Z": 0} {
		loc, err := Zone(name)
		require.NoError(t, err, name)
		_, got := time.Date(2024, 1, 15, 0, 0, 0, 0, loc).Zone()
		require.Equal(t, offset, got, name)
	}
	for _, bad := range []string{"GMT+25", "nowhere", "Local", "+5:3"} {
		_, err := Zone(bad)
		require.Error(t, err, bad)
	}
}
