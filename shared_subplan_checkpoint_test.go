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

// A self-join over one windowed sub-plan (Nexmark q5's form), whose count
// per user and window runs once for both sides, stops at a checkpoint and
// resumes from it: the shared read's position and window state are saved
// once, and the results are those of one uninterrupted run.
func TestSharedSubplanResumesFromCheckpoint(t *testing.T) {
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") }
	var bids []string
	for i := range 300 {
		ms := int64(i) * 83
		if i%11 == 5 {
			ms -= 700 // out of order, within the lateness
		}
		bids = append(bids, fmt.Sprintf("%s,a%d,%d", at(max(ms, 0)), (i*7)%5, i))
	}
	hop := `TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))`
	script := `CREATE TABLE bids (ts TIMESTAMP(3), auction STRING, price INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/bids', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (auction STRING, num BIGINT, starttime TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT A.auction, A.num, A.starttime FROM (
  SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM ` + hop + ` GROUP BY auction, window_start, window_end) AS A
JOIN (
  SELECT MAX(C.num) AS maxn, C.starttime, C.endtime FROM (
    SELECT COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM ` + hop + ` GROUP BY auction, window_start, window_end) AS C
  GROUP BY C.starttime, C.endtime) AS M
ON A.starttime = M.starttime AND A.endtime = M.endtime AND A.num >= M.maxn;
`
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(8))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}
	bidFiles := func(lines []string) string {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, "bids"), 0o755))
		writeTableFile(t, dir, "bids", lines, os.O_CREATE)
		return dir
	}

	// read to its end (not followed), the shared read counts its rows once
	once := bidFiles(bids)
	bounded := strings.Replace(script, ", 'source.monitor-interval' = '5 ms'", "", 1)
	require.Contains(t, runScript(t, strings.ReplaceAll(bounded, "DIR", filepath.ToSlash(once)), 8), "300 rows read")

	ref := bidFiles(bids)
	runUntil(ref, 300)
	want := partFiles(t, ref)
	require.Contains(t, want, "a0,")

	dir := bidFiles(bids[:140])
	notices := runUntil(dir, 140)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	writeTableFile(t, dir, "bids", bids[140:], os.O_APPEND)
	notices = runUntil(dir, 300)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, partFiles(t, dir))
}
