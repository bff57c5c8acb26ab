package wsql

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tiesScript ranks a paced datagen table's rows by DENSE_RANK, ties on
// the small score range, into a debezium-json sink under DIR/out.
const tiesScript = `
CREATE TABLE g (k INT, v INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '11',
      'fields.k.min' = '1', 'fields.k.max' = '300', 'fields.v.min' = '0', 'fields.v.max' = '40',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999');
CREATE TABLE results (k INT, v INT, ms BIGINT, r BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'debezium-json');
INSERT INTO results SELECT k, v, ms, r FROM (
  SELECT k, v, ms, DENSE_RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM g
) WHERE r <= 3;
`

// changeFiles is the committed part files under dir/out, in order.
func changeFiles(t *testing.T, dir string) string {
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

// A DENSE_RANK Top-N stopped part way checkpoints its kept rows and their
// ranks; run again, it resumes, and the committed changes are those of
// an uninterrupted run.
func TestCheckpointedRankTopNResumes(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(tiesScript, "RATE", "0"))
	require.NoError(t, err)
	want := changeFiles(t, ref)
	require.True(t, strings.Contains(want, `"op":"d"`), "ranks moved: -U as a delete")

	dir := t.TempDir()
	paced := strings.ReplaceAll(tiesScript, "RATE", "20000") // 1 s of rows
	_, err = runCheckpointedUntil(t, dir, paced, 6000)
	require.Error(t, err, "stopped part way")
	got := changeFiles(t, dir)
	require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the changes so far")

	_, err = runCheckpointed(t, dir, paced)
	require.NoError(t, err)
	require.Equal(t, want, changeFiles(t, dir))
}
