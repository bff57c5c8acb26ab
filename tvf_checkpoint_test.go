package wsql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tvfRowsScript writes the HOP windows of each row of a paced datagen
// table (a window table function without aggregation) under DIR/out.
const tvfRowsScript = `
CREATE TABLE g (k INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '3000',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
CREATE TABLE results (k INT, ts TIMESTAMP_LTZ(3), window_start TIMESTAMP(3), window_time TIMESTAMP_LTZ(3))
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, ts, window_start, window_time
FROM TABLE(HOP(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) WHERE k < 1000;
`

// A window table function without aggregation keeps no state: stopped
// part way and run again from its checkpoint, it neither repeats nor
// loses a row's windows.
func TestCheckpointedWindowTVFRowsResume(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(tvfRowsScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)
	require.Greater(t, strings.Count(want, "\n"), 3*6000, "three windows per row kept")

	dir := t.TempDir()
	paced := strings.ReplaceAll(tvfRowsScript, "RATE", "20000") // 1 s of rows
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
