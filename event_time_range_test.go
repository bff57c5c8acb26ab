package wsql

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/windowop"
)

// A row at Long.MAX or Long.MIN milliseconds is a bad row: skipped before
// it moves the watermark, counted, and written to the bad-rows file with
// its reason. The rows after it still get their windows.
func TestEventTimesOutsideTheRangeAreBadRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := New(WithAllocator(mem))
	defer e.Close()
	ltz := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: ltz}, {Name: "k", Type: arrow.BinaryTypes.String}}, nil)
	rec := arrowtest.Record(t, mem, schema, []any{1000, "a"}, []any{math.MaxInt64, "b"}, []any{math.MinInt64, "c"},
		[]any{70_000, "d"}, []any{253_402_300_799_999, "e"})
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	require.NoError(t, err)
	rec.Release()
	require.NoError(t, e.CreateRecordReaderTable(ctx, `CREATE TABLE r (ts TIMESTAMP_LTZ(3), k STRING, WATERMARK FOR ts AS ts)`, rr))

	bad := filepath.Join(t.TempDir(), "bad.csv")
	var out strings.Builder
	var sum Summary
	err = e.Run(ctx, `SET 'table.local-time-zone' = 'UTC';
SET 'wsql.bad-rows.path' = '`+bad+`';
SELECT k, TUMBLE_START(ts, INTERVAL '1' DAY) AS ws, TUMBLE_END(ts, INTERVAL '1' DAY) AS we, COUNT(*) AS n
FROM r GROUP BY k, TUMBLE(ts, INTERVAL '1' DAY);`, Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
		OnSummary: func(s Summary) { sum = s },
	})
	require.NoError(t, err)
	require.Equal(t, `k,ws,we,n
a,1970-01-01 00:00:00.000,1970-01-02 00:00:00.000,1
d,1970-01-01 00:00:00.000,1970-01-02 00:00:00.000,1
e,9999-12-31 00:00:00.000,10000-01-01 00:00:00.000,1
`, out.String())
	require.Equal(t, "3 rows read, 0 late rows dropped, 2 bad rows skipped, 3 result rows", sum.Counts())
	got, err := os.ReadFile(bad)
	require.NoError(t, err)
	require.Equal(t, `# table r, column ts: 9223372036854775807 ms (292278994-08-17 07:12:55.807 UTC) is outside the event times wsql accepts, 0000-01-01 00:00:00.000 UTC to 9999-12-31 23:59:59.999 UTC
292278994-08-17 07:12:55.807,b
# table r, column ts: -9223372036854775808 ms (-292275055-05-16 16:47:04.192 UTC) is outside the event times wsql accepts, 0000-01-01 00:00:00.000 UTC to 9999-12-31 23:59:59.999 UTC
-292275055-05-16 16:47:04.192,c
`, string(got))
}

// Windows of rows at the two ends of the accepted range have their true
// bounds: nothing wraps around to the other end of int64.
func TestWindowsAtTheEndsOfTheEventTimeRange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "edge.csv")
	require.NoError(t, os.WriteFile(path, []byte("-62167219200000,lo\n253402300799999,hi\n"), 0o644))
	ddl := `SET 'table.local-time-zone' = 'UTC';
CREATE TABLE e (ms BIGINT, k STRING, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
`
	for q, want := range map[string]string{
		`SELECT k, HOP_START(ts, INTERVAL '12' HOUR, INTERVAL '1' DAY) AS s, HOP_END(ts, INTERVAL '12' HOUR, INTERVAL '1' DAY) AS e FROM e GROUP BY k, HOP(ts, INTERVAL '12' HOUR, INTERVAL '1' DAY)`: `k,s,e
lo,-0001-12-31 12:00:00.000,0000-01-01 12:00:00.000
lo,0000-01-01 00:00:00.000,0000-01-02 00:00:00.000
hi,9999-12-31 00:00:00.000,10000-01-01 00:00:00.000
hi,9999-12-31 12:00:00.000,10000-01-01 12:00:00.000
`,
		`SELECT k, SESSION_START(ts, INTERVAL '1' DAY) AS s, SESSION_END(ts, INTERVAL '1' DAY) AS e FROM e GROUP BY k, SESSION(ts, INTERVAL '1' DAY)`: `k,s,e
lo,0000-01-01 00:00:00.000,0000-01-02 00:00:00.000
hi,9999-12-31 23:59:59.999,10000-01-01 23:59:59.999
`,
		`SELECT k, CUMULATE_END(ts, INTERVAL '1' DAY, INTERVAL '2' DAY) AS e FROM e GROUP BY k, CUMULATE(ts, INTERVAL '1' DAY, INTERVAL '2' DAY)`: `k,e
lo,0000-01-02 00:00:00.000
lo,0000-01-03 00:00:00.000
hi,10000-01-01 00:00:00.000
hi,10000-01-02 00:00:00.000
`,
	} {
		out := runScript(t, ddl+q+";", 4096)
		require.Contains(t, out, want, q)
		require.Contains(t, out, "0 late rows dropped, 0 bad rows skipped", q)
	}
}

// A per-row session gap that overflows (INTERVAL '1' SECOND times a huge
// column value) stops the query and says why, instead of ending the
// session before it starts.
func TestSessionGapOverflowIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gaps.csv")
	require.NoError(t, os.WriteFile(path, []byte("1000,a,9223372036854775\n"), 0o644))
	src := `CREATE TABLE e (ms BIGINT, k STRING, g BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
SELECT k, SESSION_END(ts, INTERVAL '1' SECOND * g) AS e FROM e GROUP BY k, SESSION(ts, INTERVAL '1' SECOND * g);`
	err := New().Run(context.Background(), src, Output{NewWriter: func(r ResultInfo) (ResultWriter, error) { return countingWriter{new(int64)}, nil }})
	require.True(t, errors.Is(err, windowop.ErrBadGap), err)
	require.ErrorContains(t, err, "the row with event time 1970-01-01 00:00:01.000 has gap 9223372036854775000 ms; a session gap must be positive and at most 4503599627370496 ms")
}

// TO_TIMESTAMP_LTZ outside 0000-01-01 to 9999-12-31 is NULL, as in Flink:
// never a wrapped instant. A constant argument out of range is a
// positioned error; so is a TIMESTAMP constant plus an INTERVAL beyond
// the range. As a rowtime, the NULL makes the row a bad row that names
// the value.
func TestTimestampConstantsAndConversionsOutOfRange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.csv")
	require.NoError(t, os.WriteFile(path, []byte("1000,a\n9300000000000000,b\n"), 0o644))
	ddl := `CREATE TABLE e (ms BIGINT, k STRING) WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
`
	out := runScript(t, ddl+`SELECT k, TO_TIMESTAMP_LTZ(ms, 0) AS s, TO_TIMESTAMP_LTZ(ms, 3) AS m FROM e;`, 4096)
	require.Contains(t, out, "k,s,m\na,1970-01-01 00:16:40.000,1970-01-01 00:00:01.000\nb,,\n")
	for q, msg := range map[string]string{
		`SELECT k, TO_TIMESTAMP_LTZ(9300000000000000, 0) FROM e;`:              "error: 2:28: TO_TIMESTAMP_LTZ(9300000000000000, 0) is outside the range of TIMESTAMP_LTZ, 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999 UTC; give epoch seconds from -62167219200 to 253402300799",
		`SELECT k, TO_TIMESTAMP_LTZ(-9223372036854775807, 3) FROM e;`:          "error: 2:28: TO_TIMESTAMP_LTZ(-9223372036854775807, 3) is outside the range of TIMESTAMP_LTZ",
		`SELECT k, TIMESTAMP '9999-12-31 00:00:00' + INTERVAL '2' DAY FROM e;`: "error: 2:11: TIMESTAMP '9999-12-31 00:00:00' + INTERVAL '2' DAY is outside the range of TIMESTAMP, 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999",
	} {
		require.Contains(t, runScript(t, ddl+q, 4096), msg, q)
	}

	rt := `CREATE TABLE r (ms BIGINT, k STRING, ts AS TO_TIMESTAMP_LTZ(ms, 0), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv'OPTS);
SELECT k, COUNT(*) AS n FROM r GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR);`
	out = runScript(t, strings.Replace(rt, "OPTS", "", 1), 4096)
	require.Contains(t, out, `rowtime ts is NULL: TO_TIMESTAMP_LTZ(ms#0, 0) gave NULL for [ms = "9300000000000000"] (it gives NULL for an instant outside 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999 UTC, the event times wsql accepts)`)
	out = runScript(t, strings.Replace(rt, "OPTS", ", 'csv.ignore-parse-errors' = 'true'", 1), 4096)
	require.Contains(t, out, "k,n\na,1\n-- 1 rows read, 0 late rows dropped, 1 bad rows skipped, 1 result rows")
}
