package wsql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// generatorScript writes per-key window counts and sums of a paced
// datagen table into part files under DIR/out.
const generatorScript = `
CREATE TABLE g (k INT, v DOUBLE, s STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '30000', 'rows-per-second' = 'RATE', 'seed' = '42',
      'fields.k.min' = '1', 'fields.k.max' = '5', 'fields.v.min' = '0', 'fields.v.max' = '10', 'fields.s.length' = '3',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '29999999');
CREATE TABLE results (k INT, wend TIMESTAMP(3), n BIGINT, sv DOUBLE, smax STRING)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '1' SECOND), COUNT(*), SUM(v), MAX(s)
FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND);
`

// A query over datagen stopped part way checkpoints the generator's
// state; run again, it resumes from there, and the committed output is
// that of an uninterrupted run.
func TestCheckpointedDatagenResumes(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(generatorScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)
	require.Equal(t, 30*5, strings.Count(want, "\n"), "a window per second and key")

	dir := t.TempDir()
	paced := strings.ReplaceAll(generatorScript, "RATE", "20000") // 1.5 s of rows
	_, err = runCheckpointedUntil(t, dir, paced, 8000)
	require.Error(t, err, "stopped part way")
	ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
	require.Len(t, ckpts, 1, "a checkpoint when stopped")
	got := partFiles(t, dir)
	require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far:\n%s", got)

	_, err = runCheckpointed(t, dir, paced)
	require.NoError(t, err)
	require.Equal(t, want, partFiles(t, dir))
}
