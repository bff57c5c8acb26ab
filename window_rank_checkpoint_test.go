package wsql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// windowTopNScript keeps the three keys of the largest totals per
// one-second window (a window Top-N over a window aggregation) of a paced
// datagen table under DIR/out.
const windowTopNScript = `
CREATE TABLE g (k INT, v INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '50', 'fields.v.min' = '0', 'fields.v.max' = '1000',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
CREATE TABLE results (window_end TIMESTAMP(3), k INT, total BIGINT, rownum BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT window_end, k, total, rownum FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY total DESC, k) AS rownum
  FROM (SELECT window_start, window_end, k, SUM(CAST(v AS BIGINT)) AS total
        FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end, k)
) WHERE rownum <= 3;
`

// A window Top-N stopped part way resumes from its checkpoint, and the
// committed output is that of an uninterrupted run: each window's ranks
// once.
func TestCheckpointedWindowTopNResumes(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(windowTopNScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)
	require.Equal(t, 20*3, strings.Count(want, "\n"), "three rows per window")

	dir := t.TempDir()
	paced := strings.ReplaceAll(windowTopNScript, "RATE", "20000") // 1 s of rows
	_, err = runCheckpointedUntil(t, dir, paced, 6000)
	require.Error(t, err, "stopped part way")
	ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
	require.Len(t, ckpts, 1, "a checkpoint when stopped")
	got := partFiles(t, dir)
	require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far")

	_, err = runCheckpointed(t, dir, paced)
	require.NoError(t, err)
	require.Equal(t, want, partFiles(t, dir))
}

// windowDedupScript keeps the first row per key and one-second window of
// a window table function without aggregation (a window deduplication,
// which holds each open window's candidates) of a paced datagen table
// under DIR/out.
const windowDedupScript = `
CREATE TABLE g (k INT, v INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms - k, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '50', 'fields.v.min' = '0', 'fields.v.max' = '1000',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
CREATE TABLE results (window_end TIMESTAMP(3), k INT, ts TIMESTAMP_LTZ(3), v INT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT window_end, k, ts, v FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY ts) AS rn
  FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND))
) WHERE rn = 1;
`

// A window deduplication stopped part way checkpoints the candidates of
// its open windows; run again, it resumes, and the committed output is
// that of an uninterrupted run.
func TestCheckpointedWindowDeduplicationResumes(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(windowDedupScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)
	require.Greater(t, strings.Count(want, "\n"), 20*40, "about one row per key and window")

	dir := t.TempDir()
	paced := strings.ReplaceAll(windowDedupScript, "RATE", "20000") // 1 s of rows
	_, err = runCheckpointedUntil(t, dir, paced, 6000)
	require.Error(t, err, "stopped part way")
	got := partFiles(t, dir)
	require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far")

	_, err = runCheckpointed(t, dir, paced)
	require.NoError(t, err)
	require.Equal(t, want, partFiles(t, dir))
}
