package intervalfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/intervaltext"
)

// Flink's generateTemporalPlusMinus: a TIMESTAMP moves by the
// milliseconds or by clamped months, a DATE by ms / 86400000 truncated
// toward zero, a TIME wraps around the day and ignores months.
func TestShift(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tsType := &arrow.TimestampType{Unit: arrow.Microsecond}
	tb := array.NewTimestampBuilder(mem, tsType)
	tb.AppendValues([]arrow.Timestamp{1706695200_000_001, 0, 0}, []bool{true, true, false}) // 2024-01-31 10:00:00.000001
	ts := tb.NewArray()
	tb.Release()
	db := array.NewDate32Builder(mem)
	db.AppendValues([]arrow.Date32{19753, 19753, 0}, nil) // 2024-01-31
	dates := db.NewArray()
	db.Release()
	timeType := arrow.FixedWidthTypes.Time32ms.(*arrow.Time32Type)
	cb := array.NewTime32Builder(mem, timeType)
	cb.AppendValues([]arrow.Time32{84_600_000, 900_000, 0}, nil) // 23:30, 00:15
	times := cb.NewArray()
	cb.Release()
	ib := array.NewDurationBuilder(mem, intervaltext.DayTime.(*arrow.DurationType))
	ib.AppendValues([]arrow.Duration{3_600_000, -90_000_000, 0}, []bool{true, true, false}) // 1 hour, -25 hours
	ivs := ib.NewArray()
	ib.Release()
	mb := array.NewMonthIntervalBuilder(mem)
	mb.AppendValues([]arrow.MonthInterval{1, -13, 0}, nil)
	months := mb.NewArray()
	mb.Release()
	cols := []arrow.Array{ts, dates, times, ivs, months}
	fields := make([]arrow.Field, len(cols))
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: string(rune('a' + i)), Type: c.DataType(), Nullable: true}
		exprs[i] = &expr.ColumnExpr{Index: i, Name: fields[i].Name, Type: c.DataType()}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 3)
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	text := func(e expr.Expr) []string {
		a, err := e.Eval(rec, mem)
		require.NoError(t, err)
		defer a.Release()
		require.True(t, arrow.TypeEqual(e.DataType(), a.DataType()))
		var out []string
		for i := range a.Len() {
			out = append(out, a.ValueStr(i))
		}
		return out
	}
	tsCol, dateCol, timeCol, ivCol, monthCol := exprs[0], exprs[1], exprs[2], exprs[3], exprs[4]
	require.Equal(t, []string{"2024-01-31T11:00:00.000001", "1969-12-30T23:00:00", "(null)"}, text(&Shift{X: tsCol, Interval: ivCol}))
	require.Equal(t, []string{"2024-02-29T10:00:00.000001", "1968-12-01T00:00:00", "(null)"}, text(&Shift{X: tsCol, Interval: monthCol}))
	require.Equal(t, []string{"2024-01-31", "2024-02-01", "(null)"}, text(&Shift{X: dateCol, Interval: ivCol, Minus: true}))
	require.Equal(t, []string{"2024-02-29", "2022-12-31", "1970-01-01"}, text(&Shift{X: dateCol, Interval: monthCol}))
	require.Equal(t, []string{"00:30:00.000", "23:15:00.000", "(null)"}, text(&Shift{X: timeCol, Interval: ivCol}))
	require.Equal(t, []string{"23:30:00.000", "00:15:00.000", "00:00:00.000"}, text(&Shift{X: timeCol, Interval: monthCol, Minus: true}))

	require.Equal(t, []string{"7200000ms", "-180000000ms", "(null)"}, text(&Sum{L: ivCol, R: ivCol}))
	require.Equal(t, []string{"0", "0", "0"}, text(&Sum{L: monthCol, R: monthCol, Minus: true}))
}
