package wsql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// overScript is an OVER aggregation of a paced datagen table under
// DIR/out: its rows wait for the watermark, which lags them by 5 s.
const overScript = `
CREATE TABLE g (k INT, v INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms - k, 3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '300', 'fields.v.min' = '0', 'fields.v.max' = '10',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
CREATE TABLE results (k INT, ts TIMESTAMP_LTZ(3), v INT, s INT, n BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, ts, v,
  SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW),
  COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM g;
`

// An OVER aggregation stopped part way checkpoints its frames, its
// accumulators and the rows waiting for the watermark; run again, it
// resumes, and the committed output is that of an uninterrupted run.
func TestCheckpointedOverAggregationResumes(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(overScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)
	require.Equal(t, 20000, strings.Count(want, "\n"), "a row per row: none is late")

	dir := t.TempDir()
	paced := strings.ReplaceAll(overScript, "RATE", "20000") // 1 s of rows
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
