package wsql

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// otherQueryScript writes another query (another window) into the same
// directory as checkpointScript.
var otherQueryScript = strings.Replace(checkpointScript, "INTERVAL '5' SECOND", "INTERVAL '2' SECOND", 2)

// A sink directory belongs to one query at a time. q1 is stopped with its
// output committed; q2, another plan with its own checkpoints, is refused
// rather than deleting q1's output. Once q1's output is moved away q2 runs,
// and q1's stale checkpoint is then refused, never resumed over q2's
// output.
func TestStaleCheckpointDoesNotResumeOverAnotherQuerysOutput(t *testing.T) {
	require.NotEqual(t, checkpointScript, otherQueryScript)
	dir := t.TempDir()
	q1 := func(rows int64) ([]string, error) {
		return runCheckpointedUntil(t, dir, checkpointScript, rows, WithBatchSize(2))
	}
	q2 := func() ([]string, error) {
		return runCheckpointedUntil(t, dir, otherQueryScript, 0, WithBatchSize(2), WithCheckpointDir(filepath.Join(dir, "q2-checkpoints")))
	}
	_, err := q1(4)
	require.ErrorIs(t, err, context.Canceled)
	q1Output := partFiles(t, dir)
	require.NotEmpty(t, q1Output, "q1 committed results before it stopped")
	q1Ckpt, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
	require.Len(t, q1Ckpt, 1)

	_, err = q2()
	require.ErrorContains(t, err, "filesystem sink: "+filepath.Join(dir, "out")+" holds the committed output of another query (part-000000.csv, its checkpoint is "+q1Ckpt[0]+")")
	require.ErrorContains(t, err, "starting this query afresh would delete it")
	require.Equal(t, q1Output, partFiles(t, dir), "q1's output is untouched")

	// q1's output moved away, q2 takes the directory over
	parts, _ := filepath.Glob(filepath.Join(dir, "out", "part-*"))
	require.NotEmpty(t, parts)
	for _, p := range parts {
		require.NoError(t, os.Remove(p))
	}
	_, err = q2()
	require.NoError(t, err)
	_, ref2 := runInDir(t, strings.ReplaceAll(otherQueryScript, "DIR/out", "DIR/out.csv"))
	require.Equal(t, ref2["out.csv"], partFiles(t, dir))

	notices, err := q1(0)
	require.ErrorContains(t, err, "filesystem sink: "+filepath.Join(dir, "out")+" no longer holds what the checkpoint "+q1Ckpt[0]+" committed: another query (its checkpoint is "+filepath.Join(dir, "q2-checkpoints"))
	require.ErrorContains(t, err, "resuming would mix the two outputs")
	require.NotContains(t, strings.Join(notices, "\n"), "resuming")
	require.Equal(t, ref2["out.csv"], partFiles(t, dir), "q2's output is untouched")
}

// A resume checks that the directory holds each part file its checkpoint
// committed, with the size it had: a part file changed or removed since is
// refused; put back, the query resumes and ends with the output of an
// uninterrupted run.
func TestResumeRefusesAChangedPartFile(t *testing.T) {
	dir := t.TempDir()
	run := func(rows int64) ([]string, error) {
		return runCheckpointedUntil(t, dir, checkpointScript, rows, WithBatchSize(2))
	}
	_, err := run(4)
	require.ErrorIs(t, err, context.Canceled)
	ckpt, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
	require.Len(t, ckpt, 1)
	part := filepath.Join(dir, "out", "part-000000.csv")
	good, err := os.ReadFile(part)
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(part, append(append([]byte(nil), good...), "x,1970-01-01 00:00:05.000,1,1\n"...), 0o644))
	_, err = run(0)
	require.ErrorContains(t, err, "filesystem sink: "+filepath.Join(dir, "out")+" no longer holds what the checkpoint "+ckpt[0]+" committed: part-000000.csv has")
	require.ErrorContains(t, err, "put the directory back as it was, or remove the checkpoint to start the query afresh")

	require.NoError(t, os.Remove(part))
	_, err = run(0)
	require.ErrorContains(t, err, "the output the checkpoint covers is gone")

	require.NoError(t, os.WriteFile(part, good, 0o644))
	notices, err := run(0)
	require.NoError(t, err)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	_, files := runInDir(t, strings.ReplaceAll(checkpointScript, "DIR/out", "DIR/out.csv"))
	require.Equal(t, files["out.csv"], partFiles(t, dir))
}
