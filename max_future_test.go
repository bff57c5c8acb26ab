package wsql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Rows beyond 'scan.watermark.max-future' are judged per split, by the rows
// of that split in order: the same rows are bad at every batch size, they
// are written to the bad-rows file with the reason, and a JSON table gets
// them back as JSON objects.
func TestMaxFutureSplitsAndBadRowsFile(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "in")
	require.NoError(t, os.Mkdir(data, 0o755))
	// split a: 2099 is a typo; split b starts later than a's bound but is
	// judged by its own rows only (its first row has no bound)
	require.NoError(t, os.WriteFile(filepath.Join(data, "a.jsonl"), []byte(
		`{"ts":"2024-03-01 09:00:01","k":"a"}
{"ts":"2099-03-01 09:00:02","k":"a"}
{"ts":"2024-03-01 09:00:40","k":"a"}
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(data, "b.jsonl"), []byte(
		`{"ts":"2024-03-01 12:00:00","k":"b"}
{"ts":"2024-03-01 12:10:00.001","k":"b"}
{"ts":"2024-03-01 12:10:00","k":"b"}
`), 0o644))
	src := `SET 'wsql.bad-rows.path' = '` + filepath.Join(dir, "bad.jsonl") + `';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '` + data + `', 'format' = 'json', 'scan.watermark.max-future' = '10 min');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);`
	var want string
	for _, size := range []int{1, 3, 4096} {
		got := runScript(t, src, size)
		if want == "" {
			want = got
		}
		require.Equal(t, want, got, "batch size %d", size)
		bad, err := os.ReadFile(filepath.Join(dir, "bad.jsonl"))
		require.NoError(t, err)
		require.Equal(t, `# table t, column ts: 2099-03-01 09:00:02.000 is past the bound 2024-03-01 09:10:01.000 (the latest accepted event time of its split, 2024-03-01 09:00:01.000, plus 'scan.watermark.max-future' = '10 min')
{"ts":"2099-03-01 09:00:02.000","k":"a"}
# table t, column ts: 2024-03-01 12:10:00.001 is past the bound 2024-03-01 12:10:00.000 (the latest accepted event time of its split, 2024-03-01 12:00:00.000, plus 'scan.watermark.max-future' = '10 min')
{"ts":"2024-03-01 12:10:00.001","k":"b"}
`, string(bad), "batch size %d", size)
	}
	require.Equal(t, `k,w,n
a,2024-03-01 09:00:00.000,2
b,2024-03-01 12:00:00.000,1
b,2024-03-01 12:10:00.000,1
-- 4 rows read, 0 late rows dropped, 2 bad rows skipped, 3 result rows
`, want)
}

// Tables registered from Go take the option too; SOURCE_WATERMARK() and
// sources without one refuse it.
func TestMaxFutureGoTableAndRefusals(t *testing.T) {
	e := New()
	ctx := t.Context()
	_, err := e.CreatePushTable(ctx, `CREATE TABLE p (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS SOURCE_WATERMARK())
		WITH ('scan.watermark.max-future' = '1 h')`)
	if err == nil {
		_, err = e.Query(ctx, `SELECT k, COUNT(*) FROM p GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)`)
	}
	require.ErrorContains(t, err, "takes its watermark from the source (SOURCE_WATERMARK())")

	src := `CREATE TABLE g (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '1', 'scan.watermark.max-future' = '1 h');
SELECT k, COUNT(*) FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);`
	require.Contains(t, runScript(t, src, 4096), "unsupported option 'scan.watermark.max-future' for connector 'datagen'")

	err = e.CreateReaderTable(ctx, `CREATE TABLE rd (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
		WITH ('format' = 'csv', 'scan.watermark.max-future' = '1 min')`,
		strings.NewReader("2024-03-01 09:00:00,a\n2024-03-01 10:00:00,a\n2024-03-01 09:00:30,a\n"))
	require.NoError(t, err)
	rows, err := e.Query(ctx, `SELECT k, COUNT(*) AS n FROM rd GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)`)
	require.NoError(t, err)
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, int64(1), n)
	require.Equal(t, int64(1), rows.Summary().BadRowsSkipped)
}
