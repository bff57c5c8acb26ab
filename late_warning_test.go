package wsql

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// shuffledClicks is the example's clicks table over its rows shuffled:
// with the 5 s watermark most of them arrive after their minute closed.
const shuffledClicks = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '%s' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_shuffled.csv', 'format' = 'csv');
`

const clicksPerMinute = `SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`

// querySummary runs a query through the Go API and returns its counters.
func querySummary(t *testing.T, src string, opts ...Option) Summary {
	t.Helper()
	e, mem := checkedEngine(t, opts...)
	defer mem.AssertSize(t, 0)
	defer e.Close()
	rows, err := e.Query(context.Background(), src)
	require.NoError(t, err)
	for rows.Next() {
	}
	require.NoError(t, rows.Err())
	require.NoError(t, rows.Close())
	return rows.Summary()
}

// Query's counters carry what the CLI's warning says: how late the rows
// were and the delay that keeps them, which does keep them.
func TestQuerySummaryDescribesLateRows(t *testing.T) {
	for _, size := range []int{1, 4096} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			s := querySummary(t, fmt.Sprintf(shuffledClicks, "5")+clicksPerMinute, WithBatchSize(size))
			require.Equal(t, int64(28), s.LateRowsDropped)
			require.Equal(t, LateRows{
				Max:            115_251 * time.Millisecond,
				Typical:        57_343 * time.Millisecond,
				P90:            115_251 * time.Millisecond,
				SuggestedDelay: 121 * time.Second,
				Column:         "ts",
			}, s.Late)
			require.Equal(t, `wsql: warning: 28 of 42 rows (67%) were dropped as late: the watermark had passed their windows by up to 1 min 55 s, typically about 57 s
  a watermark delay of 2 min 1 s would have kept at least 90% of them:
    WATERMARK FOR ts AS ts - INTERVAL '121' SECOND
  or keep late rows in a file: SET 'wsql.late-data.path' = 'late.csv';`, s.Warning())
		})
	}
	// the partitions of a parallel window add up to the same report
	parallel := querySummary(t, "SET 'parallelism.default' = '3';\n"+fmt.Sprintf(shuffledClicks, "5")+clicksPerMinute)
	require.Equal(t, int64(28), parallel.LateRowsDropped)
	require.Equal(t, LateRows{
		Max:            115_251 * time.Millisecond,
		Typical:        57_343 * time.Millisecond,
		P90:            115_251 * time.Millisecond,
		SuggestedDelay: 121 * time.Second,
		Column:         "ts",
	}, parallel.Late)
	// the suggested delay keeps them all; a second less does not
	kept := querySummary(t, fmt.Sprintf(shuffledClicks, "121")+clicksPerMinute)
	require.Zero(t, kept.LateRowsDropped)
	require.Equal(t, LateRows{}, kept.Late)
	require.Empty(t, kept.Warning())
	short := querySummary(t, fmt.Sprintf(shuffledClicks, "120")+clicksPerMinute)
	require.Equal(t, int64(6), short.LateRowsDropped)
	require.Equal(t, 251*time.Millisecond, short.Late.Max)
}

// Late rows written to wsql.late-data.path are not lost: the counters say
// where, and there is no warning.
func TestNoLateWarningWhenTheRowsAreKept(t *testing.T) {
	path := t.TempDir() + "/late.csv"
	s := querySummary(t, fmt.Sprintf("SET 'wsql.late-data.path' = '%s';\n", path)+fmt.Sprintf(shuffledClicks, "5")+clicksPerMinute)
	require.Equal(t, int64(28), s.LateRowsDropped)
	require.Equal(t, path, s.Late.KeptIn)
	require.Empty(t, s.Warning())
}

// A few late rows (the example's 2 of 42) are the counter's business only.
func TestNoWarningBelowTheShare(t *testing.T) {
	s := querySummary(t, `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
`+clicksPerMinute)
	require.Equal(t, int64(2), s.LateRowsDropped)
	require.Equal(t, 15_629*time.Millisecond, s.Late.Max) // a delay of 20.629 s keeps them
	require.Empty(t, s.Warning())
}

// Rows in a HOP's gaps and rows of COUNT windows that never filled are
// told apart, each with what to change.
func TestQuerySummaryTellsNoWindowCauses(t *testing.T) {
	ddl := fmt.Sprintf(shuffledClicks, "1000")
	hop := querySummary(t, ddl+`SELECT COUNT(*) AS n FROM clicks GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '30' SECOND)`)
	require.Equal(t, int64(19), hop.NoWindowRows)
	require.Zero(t, hop.UnfilledCountRows)
	require.Equal(t, `wsql: warning: 19 of 42 rows (45%) fell in the gaps between HOP windows and reached no window:
  the slide is larger than the size; HOP(time, slide, size) takes the slide first: swap them, or make the size at least the slide`, hop.Warning())

	count := querySummary(t, ddl+`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, COUNT_WINDOW(10)`)
	require.Equal(t, int64(12), count.NoWindowRows)
	require.Equal(t, int64(12), count.UnfilledCountRows)
	require.Equal(t, `wsql: warning: 12 of 42 rows (29%) are in COUNT windows that never filled, which are not emitted:
  COUNT_WINDOW(n) emits a key's window when its n-th row arrives; use a smaller n, or a time window to see partial groups`, count.Warning())

	few := querySummary(t, ddl+`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, COUNT_WINDOW(13)`)
	require.Equal(t, int64(3), few.UnfilledCountRows)
	require.Empty(t, few.Warning(), "3 of 42 rows")
}

func TestDelaySuggestionUnits(t *testing.T) {
	for _, c := range []struct {
		ms      int64
		literal string
		text    string
	}{
		{3, "'0.003' SECOND", "3 ms"},
		{230, "'0.3' SECOND", "300 ms"},
		{5_001, "'6' SECOND", "6 s"},
		{121_000, "'121' SECOND", "2 min 1 s"},
		{600_001, "'11' MINUTE", "11 min"},
		{10*3_600_000 + 1, "'11' HOUR", "11 h"},
		{50 * 3_600_000, "'50' HOUR", "2 d 2 h"},
	} {
		d := roundUpDelay(c.ms)
		require.Equal(t, c.literal, intervalLiteral(d), "%d", c.ms)
		require.Equal(t, c.text, readableDuration(time.Duration(d)*time.Millisecond), "%d", c.ms)
	}
}

// A watermark without a fixed delay (an expression, the source's) gets
// the increase instead of a DDL line; without rows read, no share.
func TestLateWarningWithoutAFixedDelay(t *testing.T) {
	s := Summary{RowsRead: 100, LateRowsDropped: 10, Late: LateRows{Max: 90 * time.Second, Typical: 2100 * time.Millisecond, P90: 3 * time.Second, Column: "ts"}}
	require.Equal(t, `wsql: warning: 10 of 100 rows (10%) were dropped as late: the watermark had passed their windows by up to 1 min 30 s, typically about 2.1 s
  a watermark delay 3 s larger would have kept at least 90% of them
  or keep late rows in a file: SET 'wsql.late-data.path' = 'late.csv';`, s.Warning())
	s.LateRowsDropped = 9
	require.Empty(t, s.Warning(), "9%")

	expr := querySummary(t, `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS CASE WHEN usr = 'nobody' THEN ts - INTERVAL '1' MINUTE ELSE ts - INTERVAL '5' SECOND END)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_shuffled.csv', 'format' = 'csv');
`+clicksPerMinute)
	require.Equal(t, int64(28), expr.LateRowsDropped)
	require.Equal(t, LateRows{Max: 115_251 * time.Millisecond, Typical: 57_343 * time.Millisecond, P90: 115_251 * time.Millisecond, Column: "ts"}, expr.Late)
	require.Contains(t, expr.Warning(), "\n  a watermark delay 1 min 56 s larger would have kept at least 90% of them\n")
}
