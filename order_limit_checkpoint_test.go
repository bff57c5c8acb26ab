package wsql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sortedScript writes the rows of a paced datagen table in time order
// (ORDER BY its time attribute, then k) under DIR/out. The rows arrive up
// to 500 ms out of order, within the watermark's delay.
const sortedScript = `
CREATE TABLE g (k INT, v DOUBLE, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms - k * 100, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '5', 'fields.v.min' = '0', 'fields.v.max' = '10',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
CREATE TABLE results (ts TIMESTAMP_LTZ(3), k INT, v DOUBLE)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT ts, k, v FROM g ORDER BY ts, k DESC LIMIT_CLAUSE;
`

// A sorted (and limited) query stopped part way checkpoints the rows the
// sort holds and what the limit still wants; run again, it resumes, and
// the committed output is that of an uninterrupted run.
func TestCheckpointedSortResumes(t *testing.T) {
	for name, limit := range map[string]string{"order by": "", "order by and limit": "LIMIT 15000"} {
		t.Run(name, func(t *testing.T) {
			script := strings.ReplaceAll(sortedScript, "LIMIT_CLAUSE", limit)
			ref := t.TempDir()
			_, err := runCheckpointed(t, ref, strings.ReplaceAll(script, "RATE", "0"))
			require.NoError(t, err)
			want := partFiles(t, ref)
			rows := strings.Split(strings.TrimSpace(want), "\n")
			if limit == "" {
				require.Len(t, rows, 20000)
			} else {
				require.Len(t, rows, 15000)
			}
			require.True(t, isSorted(rows), "rows in time order")

			dir := t.TempDir()
			paced := strings.ReplaceAll(script, "RATE", "20000") // 1 s of rows
			_, err = runCheckpointedUntil(t, dir, paced, 6000)
			require.Error(t, err, "stopped part way")
			ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
			require.Len(t, ckpts, 1, "a checkpoint when stopped")
			got := partFiles(t, dir)
			require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far")

			_, err = runCheckpointed(t, dir, paced)
			require.NoError(t, err)
			require.Equal(t, want, partFiles(t, dir))
		})
	}
}

// isSorted reports whether CSV rows starting with a timestamp are in
// time order.
func isSorted(rows []string) bool {
	for i := 1; i < len(rows); i++ {
		a, _, _ := strings.Cut(rows[i-1], ",")
		b, _, _ := strings.Cut(rows[i], ",")
		if a > b {
			return false
		}
	}
	return true
}
