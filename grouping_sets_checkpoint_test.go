package wsql

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// groupingSetsTable is a paced datagen table.
const groupingSetsTable = `
CREATE TABLE g (k INT, j INT, v DOUBLE, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '18',
      'fields.k.min' = '1', 'fields.k.max' = '40', 'fields.j.min' = '1', 'fields.j.max' = '3',
      'fields.v.min' = '0', 'fields.v.max' = '10',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
`

// groupingSetsScripts are a windowed ROLLUP (append-only: one row per
// set, key and window, as csv part files under DIR/out) and a CUBE
// without a window (an update stream, as debezium-json changes).
var groupingSetsScripts = map[string]string{
	"window": groupingSetsTable + `
CREATE TABLE results (s TIMESTAMP(3), k INT, j INT, g BIGINT, n BIGINT, total DOUBLE)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results
SELECT window_start, k, j, GROUPING(k, j), COUNT(*), SUM(v)
FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end, ROLLUP (k, j);
`,
	"no window": groupingSetsTable + `
CREATE TABLE results (k INT, j INT, n BIGINT, top DOUBLE)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'debezium-json');
INSERT INTO results SELECT k, j, COUNT(*), MAX(v) FROM g WHERE k <= 5 GROUP BY CUBE (k, j);
`,
}

// outFiles is the committed part files, in name order.
func outFiles(t *testing.T, dir string) string {
	names, err := filepath.Glob(filepath.Join(dir, "out", "part-*"))
	require.NoError(t, err)
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(n)
		require.NoError(t, err)
		b.Write(data)
	}
	return b.String()
}

// Grouping sets stopped part way checkpoint the aggregation's state (the
// Expand before it keeps none); run again, they resume, and the committed
// output, rows or changes, is that of an uninterrupted run.
func TestCheckpointedGroupingSetsResume(t *testing.T) {
	for name, script := range groupingSetsScripts {
		t.Run(name, func(t *testing.T) {
			ref := t.TempDir()
			_, err := runCheckpointed(t, ref, strings.ReplaceAll(script, "RATE", "0"))
			require.NoError(t, err)
			want := outFiles(t, ref)
			if name == "window" {
				require.Contains(t, want, ",,,3,1000,", "the total of a whole second")
			} else {
				require.Contains(t, want, `"op":"d"`, "the changes retract")
			}

			dir := t.TempDir()
			paced := strings.ReplaceAll(script, "RATE", "20000") // 1 s of rows
			_, err = runCheckpointedUntil(t, dir, paced, 6000)
			require.Error(t, err, "stopped part way")
			ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
			require.Len(t, ckpts, 1, "a checkpoint when stopped")
			got := outFiles(t, dir)
			require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far")

			_, err = runCheckpointed(t, dir, paced)
			require.NoError(t, err)
			require.Equal(t, want, outFiles(t, dir))
		})
	}
}
