package wsql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A window grouped by a ROW and a MAP key stops at a checkpoint and
// resumes from it: the key tables (the keys' encodings) are restored and
// the results, written back as the nested values, are those of one
// uninterrupted run.
func TestNestedGroupKeysResumeFromCheckpoint(t *testing.T) {
	var rows []string
	for i := range 300 {
		ms := int64(i) * 97
		ts := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
		attrs := fmt.Sprintf(`{"a":%d,"b":1}`, i%2)
		if i%3 == 0 { // the same map, its entries in another order
			attrs = fmt.Sprintf(`{"b":1,"a":%d}`, i%2)
		}
		rows = append(rows, fmt.Sprintf(`{"ts":"%s","user":{"id":%d,"country":"c%d"},"attrs":%s,"v":%d}`, ts, i%4, i%2, attrs, i))
	}
	script := `CREATE TABLE events (ts TIMESTAMP(3), ` + "`user`" + ` ROW<id INT, country STRING>, attrs MAP<STRING, INT>, v BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/in', 'format' = 'json', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (u ROW<id INT, country STRING>, attrs MAP<STRING, INT>, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'json');
INSERT INTO results SELECT ` + "`user`" + `, attrs, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(v)
FROM events GROUP BY ` + "`user`" + `, attrs, TUMBLE(ts, INTERVAL '5' SECOND);
`
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(16))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}
	write := func(dir string, lines []string, flag int) {
		f, err := os.OpenFile(filepath.Join(dir, "in", "events.json"), flag|os.O_WRONLY, 0o644)
		require.NoError(t, err)
		_, err = f.WriteString(strings.Join(lines, "\n") + "\n")
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	jsonParts := func(dir string) string {
		names, err := filepath.Glob(filepath.Join(dir, "out", "part-*"))
		require.NoError(t, err)
		var b strings.Builder
		for _, n := range names {
			data, err := os.ReadFile(n)
			require.NoError(t, err)
			b.Write(data)
		}
		return b.String()
	}

	ref := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(ref, "in"), 0o755))
	write(ref, rows, os.O_CREATE)
	runUntil(ref, 300)
	want := jsonParts(ref)
	require.Contains(t, want, `{"u":{"id":0,"country":"c0"},"attrs":{"a":0,"b":1},"wend":"1970-01-01 00:00:05.000","n":13,"total":312}`)

	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	write(dir, rows[:130], os.O_CREATE)
	notices := runUntil(dir, 130)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	write(dir, rows[130:], os.O_APPEND)
	notices = runUntil(dir, 300)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, jsonParts(dir))
}
