package wsql

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// A checkpoint belongs to the query as it was when it was taken: a table
// option that changes the rows read ('csv.field-delimiter',
// 'csv.ignore-parse-errors'), or a setting that changes the results
// ('table.local-time-zone'), or a table hint that changes them for the
// query, changed between runs is refused with the old
// checkpoint named, never resumed with the new meaning. Undoing the change
// resumes.
func TestChangedTableOptionDoesNotResumeTheCheckpoint(t *testing.T) {
	dir := t.TempDir()
	stopAt := func(script string, rows int64) ([]string, error) {
		return runCheckpointedUntil(t, dir, script, rows, WithBatchSize(2))
	}
	notices, err := stopAt(checkpointScript, 4)
	require.ErrorIs(t, err, context.Canceled)
	require.Contains(t, strings.Join(notices, "\n"), "stopped; checkpoint")
	old, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
	require.Len(t, old, 1)

	for name, changed := range map[string]string{
		"ignore-parse-errors": strings.Replace(checkpointScript, "'format' = 'csv')", "'format' = 'csv', 'csv.ignore-parse-errors' = 'true')", 1),
		"field-delimiter":     strings.Replace(checkpointScript, "'format' = 'csv')", "'format' = 'csv', 'csv.field-delimiter' = ',')", 1),
		"time zone":           "SET 'table.local-time-zone' = 'Europe/Berlin';\n" + checkpointScript,
		"sink option":         strings.Replace(checkpointScript, "'DIR/out', 'format' = 'csv')", "'DIR/out', 'format' = 'json')", 1),
		// a table hint changes the options of one query, and so its identity
		"hinted source option": strings.Replace(checkpointScript, "FROM events GROUP BY", "FROM events /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */ GROUP BY", 1),
		"hinted sink option":   strings.Replace(checkpointScript, "INSERT INTO results SELECT", "INSERT INTO results /*+ OPTIONS('format' = 'json') */ SELECT", 1),
	} {
		require.NotEqual(t, checkpointScript, changed, name)
		notices, err := stopAt(changed, 100)
		require.ErrorIs(t, err, checkpoint.ErrIncompatible, name)
		require.ErrorContains(t, err, "the checkpoint "+old[0]+" is of query 1 as it was before a change", name)
		require.ErrorContains(t, err, "remove "+filepath.Base(old[0])+" to start query 1 afresh", name)
		require.NotContains(t, strings.Join(notices, "\n"), "resuming", name)
	}

	notices, err = stopAt(checkpointScript, 100)
	require.NoError(t, err)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	_, files := runInDir(t, strings.ReplaceAll(checkpointScript, "DIR/out", "DIR/out.csv"))
	require.Equal(t, files["out.csv"], partFiles(t, dir))
}
