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

// A window over the UNION ALL of two followed tables of different speeds
// and lateness stops at a checkpoint and resumes from it: each query's
// read position, watermark and the rows the union held back are restored,
// and the results are those of one uninterrupted run.
func TestUnionResumesFromCheckpoint(t *testing.T) {
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") }
	var web, shop []string
	for i := range 200 {
		web = append(web, fmt.Sprintf("%s,u%d,%d", at(int64(i)*97), i%3, i))
	}
	for i := range 100 {
		ms := int64(i)*190 + 50
		if i%7 == 3 {
			ms -= 2500 // out of order, within shop's lateness
		}
		shop = append(shop, fmt.Sprintf("%s,u%d,%d", at(max(ms, 0)), i%2, 1000+i))
	}
	script := `CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/web', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, amount BIGINT, WATERMARK FOR ts AS ts - INTERVAL '3' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/shop', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (usr STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT usr, TUMBLE_END(ts, INTERVAL '2' SECOND), COUNT(*), SUM(amount)
FROM (SELECT ts, usr, amount FROM web UNION ALL SELECT ts, usr, amount FROM shop)
GROUP BY usr, TUMBLE(ts, INTERVAL '2' SECOND);
`
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(8))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}

	ref := tableFiles(t, "web", web, "shop", shop)
	runUntil(ref, 300)
	want := partFiles(t, ref)
	require.Contains(t, want, "u0,1970-01-01 00:00:02.000,")

	dir := tableFiles(t, "web", web[:120], "shop", shop[:40])
	notices := runUntil(dir, 160)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	writeTableFile(t, dir, "web", web[120:], os.O_APPEND)
	writeTableFile(t, dir, "shop", shop[40:], os.O_APPEND)
	notices = runUntil(dir, 300)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, partFiles(t, dir))
}

// A row that fails in one query of a union stops the run with its error,
// and the pipelines of both queries and the rows the union held back are
// released (runScript checks the allocator ends at zero).
func TestUnionFailureReleasesEverything(t *testing.T) {
	script := `CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_web.csv', 'format' = 'csv');
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, amount BIGINT, WATERMARK FOR ts AS ts - INTERVAL '30' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_shop.csv', 'format' = 'csv');
SELECT usr, amount FROM web UNION ALL SELECT usr, CAST(CAST(amount AS STRING) || 'x' AS BIGINT) FROM shop WHERE amount > 300;
`
	for _, size := range []int{1, 3, 4096} {
		out := runScript(t, script, size)
		require.Contains(t, out, `cannot read "400x"`, "batch size %d", size)
		require.Contains(t, out, "alice,10\n", "batch size %d", size)
	}
}

// tableFiles is a fresh directory with a folder per table, each holding
// its lines in TABLE/TABLE.csv.
func tableFiles(t *testing.T, a string, aLines []string, b string, bLines []string) string {
	dir := t.TempDir()
	for _, table := range []string{a, b} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, table), 0o755))
	}
	writeTableFile(t, dir, a, aLines, os.O_CREATE)
	writeTableFile(t, dir, b, bLines, os.O_CREATE)
	return dir
}

// writeTableFile creates (os.O_CREATE) or extends (os.O_APPEND) a table's
// file with lines.
func writeTableFile(t *testing.T, dir, table string, lines []string, flag int) {
	f, err := os.OpenFile(filepath.Join(dir, table, table+".csv"), flag|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(strings.Join(lines, "\n") + "\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
}
