package expr

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/rowtime"
)

// Flink's DateTimeUtils.addMonths: keep the day unless the target month is
// shorter, then take its last day.
func TestShiftMonthsEdges(t *testing.T) {
	day := func(y, m, d int64) int64 { return rowtime.DaysFromCivil(y, m, d) }
	cases := []struct {
		from   int64
		months int64
		want   int64
	}{
		{day(2024, 1, 31), 1, day(2024, 2, 29)},      // leap year end of month
		{day(2023, 1, 31), 1, day(2023, 2, 28)},      // common year
		{day(2100, 1, 31), 1, day(2100, 2, 28)},      // a century is not a leap year
		{day(2000, 1, 31), 1, day(2000, 2, 29)},      // ... unless divisible by 400
		{day(2024, 2, 29), 12, day(2025, 2, 28)},     // leap day + 1 YEAR
		{day(2024, 2, 29), 48, day(2028, 2, 29)},     // leap day + 4 YEAR
		{day(2024, 3, 31), -1, day(2024, 2, 29)},     // negative interval
		{day(2024, 1, 15), -13, day(2022, 12, 15)},   // across a year boundary backwards
		{day(2024, 11, 30), 3, day(2025, 2, 28)},     // forwards across a year
		{day(1969, 12, 31), 2, day(1970, 2, 28)},     // before the epoch
		{day(1, 1, 31), -1, day(0, 12, 31)},          // year 0
		{day(2024, 5, 31), 0, day(2024, 5, 31)},      // zero
		{day(2024, 8, 31), 1, day(2024, 9, 30)},      // 30-day month
		{day(2024, 4, 30), 1, day(2024, 5, 30)},      // shorter to longer keeps the day
		{day(9999, 12, 31), -119976, day(1, 12, 31)}, // 9998 years back
	}
	for _, c := range cases {
		y, m, d := rowtime.CivilFromDays(c.from)
		require.Equal(t, c.want, ShiftMonths(c.from, c.months), "%04d-%02d-%02d %+d months", y, m, d, c.months)
	}
}

func TestAddMonthsColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ms := func(y, m, d, hh int64) int64 { return rowtime.DaysFromCivil(y, m, d)*msPerDay + hh*3_600_000 }
	// 2024-01-31 23:00, 1969-12-31 12:00 (negative epoch), NULL
	ts := arrowtest.Array(t, mem, &arrow.TimestampType{Unit: arrow.Microsecond}, ms(2024, 1, 31, 23)*1000+7, ms(1969, 12, 31, 12)*1000, nil)
	date := arrowtest.Array(t, mem, arrow.FixedWidthTypes.Date32, int32(rowtime.DaysFromCivil(2024, 1, 31)), int32(rowtime.DaysFromCivil(2024, 3, 31)), nil)
	ltz := arrowtest.Array(t, mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, ms(2024, 1, 15, 15), ms(2024, 3, 31, 4), nil)
	rec := arrowtest.Batch(ts, date, ltz)
	defer rec.Release()
	require.Equal(t, []string{"2024-02-29 23:00:00.000007", "1970-01-31 12:00:00.000000", "NULL"},
		texts(t, mem, &AddMonths{X: col(rec, 0), Months: 1}, rec))
	require.Equal(t, []string{"2023-12-31", "2024-02-29", "NULL"},
		texts(t, mem, &AddMonths{X: col(rec, 1), Months: -1}, rec))
	// New York: 10:00 EST in January is 10:00 EDT in July (14:00 UTC);
	// 2024-03-31 00:00 EDT (04:00 UTC) minus a month is 2024-02-29 00:00 EST (05:00 UTC).
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	out, err := (&AddMonths{X: col(rec, 2), Months: 6, Loc: ny}).Eval(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, []int64{ms(2024, 7, 15, 14)}, valuesOf[int64](out)[:1])
	back, err := (&AddMonths{X: col(rec, 2), Months: -1, Loc: ny}).Eval(rec, mem)
	require.NoError(t, err)
	defer back.Release()
	require.Equal(t, ms(2024, 2, 29, 5), valuesOf[int64](back)[1])
}
