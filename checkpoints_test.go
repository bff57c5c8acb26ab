package wsql

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// checkpointScript writes per-key window counts of the e2e events into a
// part-file directory under checkpoints.
const checkpointScript = sinkEventsDDL + `
CREATE TABLE results (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`

// runCheckpointed runs the script (DIR replaced by dir) with checkpoints
// in dir/checkpoints and returns its notices and error.
func runCheckpointed(t *testing.T, dir, script string, opts ...Option) ([]string, error) {
	t.Helper()
	return runCheckpointedUntil(t, dir, script, 0, opts...)
}

// runCheckpointedUntil is runCheckpointed stopped, as by Ctrl-C, once rows
// rows were read; 0 runs to the end.
func runCheckpointedUntil(t *testing.T, dir, script string, rows int64, opts ...Option) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var notices []string
	e := New(append([]Option{WithCheckpointDir(filepath.Join(dir, "checkpoints"))}, opts...)...)
	defer e.Close()
	out := Output{
		OnNotice:  func(s string) { notices = append(notices, s) },
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(io.Discard, r.Schema, r.Location), nil },
	}
	if rows > 0 {
		out.ProgressEvery = time.Nanosecond
		out.OnProgress = func(p Progress) {
			if p.RowsRead >= rows {
				cancel()
			}
		}
	}
	err := e.Run(ctx, strings.ReplaceAll(script, "DIR", filepath.ToSlash(dir)), out)
	return notices, err
}

func partFiles(t *testing.T, dir string) string {
	names, err := filepath.Glob(filepath.Join(dir, "out", "*"))
	require.NoError(t, err)
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		if filepath.Base(n) == ".wsql-owner.csv" {
			continue // the directory's owner record
		}
		require.Regexp(t, `/part-\d{6}\.csv$`, filepath.ToSlash(n), "only committed part files are left")
		data, err := os.ReadFile(n)
		require.NoError(t, err)
		b.Write(data)
	}
	return b.String()
}

// With a checkpoint directory a filesystem sink writes part files holding
// what a run without checkpoints writes to its file; a second run finds
// the query finished and leaves the output alone.
func TestCheckpointedRunWritesPartFiles(t *testing.T) {
	_, files := runInDir(t, strings.ReplaceAll(checkpointScript, "DIR/out", "DIR/out.csv"))
	dir := t.TempDir()
	_, err := runCheckpointed(t, dir, checkpointScript)
	require.NoError(t, err)
	require.Equal(t, files["out.csv"], partFiles(t, dir))
	ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
	require.Len(t, ckpts, 1)

	notices, err := runCheckpointed(t, dir, checkpointScript)
	require.NoError(t, err)
	require.Len(t, notices, 1)
	require.Regexp(t, `query 1 already finished \(checkpoint \d+ in .*\); remove the checkpoint to run it again`, notices[0])
	require.Equal(t, files["out.csv"], partFiles(t, dir))
}

// A damaged checkpoint, or one of another query, is refused whole.
func TestDamagedOrForeignCheckpointIsRefused(t *testing.T) {
	dir := t.TempDir()
	_, err := runCheckpointed(t, dir, checkpointScript)
	require.NoError(t, err)
	ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
	require.Len(t, ckpts, 1)
	good, err := os.ReadFile(ckpts[0])
	require.NoError(t, err)

	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 1
	require.NoError(t, os.WriteFile(ckpts[0], bad, 0o644))
	_, err = runCheckpointed(t, dir, checkpointScript)
	require.ErrorIs(t, err, checkpoint.ErrCorrupt)
	require.ErrorContains(t, err, "checksum mismatch")
	require.ErrorContains(t, err, "remove it to start the query afresh")

	require.NoError(t, os.WriteFile(ckpts[0], good[:len(good)-3], 0o644))
	_, err = runCheckpointed(t, dir, checkpointScript)
	require.ErrorIs(t, err, checkpoint.ErrCorrupt)

	// the same file name with another query's state
	s, err := checkpoint.Load(writeBack(t, ckpts[0], good))
	require.NoError(t, err)
	s.Query, s.Finished = "another query", false
	require.NoError(t, checkpoint.Save(ckpts[0], s))
	_, err = runCheckpointed(t, dir, checkpointScript)
	require.ErrorIs(t, err, checkpoint.ErrIncompatible)
	require.ErrorContains(t, err, "written by another query")
}

func writeBack(t *testing.T, path string, b []byte) string {
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// What cannot resume is refused when the query starts, with the reason.
func TestCheckpointsRefuseWhatCannotResume(t *testing.T) {
	query := `
SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND);`
	_, err := runCheckpointed(t, t.TempDir(),
		`CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'stdin', 'format' = 'csv');`+query,
		WithStdin(strings.NewReader("")))
	require.ErrorContains(t, err, "reads stdin, a stream that cannot be read again after a restart")

	ctx := context.Background()
	e := New(WithCheckpointDir(t.TempDir()))
	defer e.Close()
	_, err = e.CreatePushTable(ctx, `CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)`)
	require.NoError(t, err)
	rows, err := e.Query(ctx, query)
	require.NoError(t, err)
	for rows.Next() {
	}
	require.ErrorContains(t, rows.Err(), "checkpoints are not supported for the source connector=[pushed from Go]: it cannot resume from a position")

	_, err = runCheckpointed(t, t.TempDir(), `SET 'execution.checkpointing.interval' = 'soon';`)
	require.ErrorContains(t, err, "invalid 'execution.checkpointing.interval'")
}

// A followed file ('source.monitor-interval') resumes at its offset after
// a stop: rows appended while wsql was down are read once, and the
// committed output equals that of one run over the whole file.
func TestCheckpointedFollowResumesAfterAppend(t *testing.T) {
	var rows []string
	for i := range 400 {
		ms := int64(i)*137 + int64(i%7)*311 // out of order by up to 2 s
		rows = append(rows, time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")+fmt.Sprintf(",k%d,%d,%d", i%5, i%11, i))
	}
	script := `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/in', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`
	// runUntil follows the input until n rows were read, then stops.
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(16))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}
	write := func(dir string, lines []string, flag int) {
		f, err := os.OpenFile(filepath.Join(dir, "in", "events.csv"), flag|os.O_WRONLY, 0o644)
		require.NoError(t, err)
		_, err = f.WriteString(strings.Join(lines, "\n") + "\n")
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}

	ref := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(ref, "in"), 0o755))
	write(ref, rows, os.O_CREATE)
	runUntil(ref, 400)
	want := partFiles(t, ref)
	require.NotEmpty(t, want)

	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	write(dir, rows[:150], os.O_CREATE)
	notices := runUntil(dir, 150)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	require.True(t, strings.HasPrefix(want, partFiles(t, dir)))
	write(dir, rows[150:], os.O_APPEND)
	notices = runUntil(dir, 400)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, partFiles(t, dir))

	// a file that appeared in the directory joins the same query as a new
	// split: the restart resumes rather than starting afresh
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "more.csv"), []byte(rows[399]+"\n"), 0o644))
	notices = runUntil(dir, 401)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.True(t, strings.HasPrefix(partFiles(t, dir), want))
}

// Two runs of one query on an engine would write one checkpoint file: the
// second is refused while the first runs.
func TestCheckpointFileIsUsedByOneRunAtATime(t *testing.T) {
	ctx := context.Background()
	e := New(WithCheckpointDir(t.TempDir()))
	defer e.Close()
	require.NoError(t, e.Exec(ctx, `CREATE TABLE f (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv', 'source.monitor-interval' = '10 ms')`))
	query := `SELECT k, COUNT(*) FROM f GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND)`
	first, err := e.Query(ctx, query)
	require.NoError(t, err)
	defer first.Close()
	time.Sleep(50 * time.Millisecond) // the first run is following the file
	_, err = e.Query(ctx, query)
	require.ErrorContains(t, err, "this query is already running with the checkpoint")
	require.NoError(t, first.Close())
	again, err := e.Query(ctx, query)
	require.NoError(t, err, "once the first run ended")
	require.NoError(t, again.Close())
}

// A followed file that a checkpoint was reading and that is gone at the
// restart is refused with the reason, not read as if it were empty.
func TestCheckpointedFollowRefusesAMissingFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	data, err := os.ReadFile("testdata/e2e/events.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "events.csv"), data, 0o644))
	script := `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'DIR/in', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);`
	run := func() error {
		_, err := runCheckpointedUntil(t, dir, script, 9) // the file's rows
		return err
	}
	require.ErrorIs(t, run(), context.Canceled)
	require.NoError(t, os.Remove(filepath.Join(dir, "in", "events.csv")))
	err = run()
	require.ErrorIs(t, err, checkpoint.ErrIncompatible)
	require.ErrorContains(t, err, "events.csv, which is gone")
}

// A followed file rotated (mv f f.1, a new f) or truncated while the query
// was stopped is refused at the restart, saying so: the checkpoint's
// offset is in the old content, and the rows after it cannot be found.
func TestCheckpointedFollowRefusesARotatedOrTruncatedFile(t *testing.T) {
	data, err := os.ReadFile("testdata/e2e/events.csv")
	require.NoError(t, err)
	for _, change := range []string{"rotated", "truncated"} {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
		path := filepath.Join(dir, "in", "events.csv")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		script := `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'DIR/in/events.csv', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);`
		run := func() error {
			_, err := runCheckpointedUntil(t, dir, script, 9) // the file's rows
			return err
		}
		require.ErrorIs(t, run(), context.Canceled)
		if change == "rotated" {
			require.NoError(t, os.Rename(path, path+".1"))
		}
		require.NoError(t, os.WriteFile(path, data[:len(data)/2], 0o644))
		err = run()
		require.ErrorIs(t, err, checkpoint.ErrIncompatible, change)
		require.ErrorContains(t, err, "a followed file rotated or truncated while the query was stopped", change)
		require.ErrorContains(t, err, "remove the checkpoint", change)
	}
	s := Summary{RowsRead: 5, FilesRotated: 1, FilesTruncated: 2}
	require.Equal(t, "5 rows read, 0 late rows dropped, 0 bad rows skipped, 0 result rows, 1 followed files rotated, 2 followed files truncated", s.Counts())
}

// A bounded directory whose files changed since the checkpoint is refused,
// as is a file rewritten before the offset the checkpoint read: the
// checkpoint's positions are in the files it was reading.
func TestCheckpointRefusesAChangedDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	data, err := os.ReadFile("testdata/e2e/events.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "a.csv"), data, 0o644))
	script := strings.ReplaceAll(checkpointScript, "'testdata/e2e/events.csv'", "'DIR/in'")
	stopAt := func(n int64) error {
		_, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(2))
		return err
	}
	require.ErrorIs(t, stopAt(4), context.Canceled)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "b.csv"), data, 0o644))
	err = stopAt(100)
	require.ErrorIs(t, err, checkpoint.ErrIncompatible)
	require.ErrorContains(t, err, "the input must not change between a checkpoint and its restart")

	// the same files, one rewritten before the checkpoint's offset
	require.NoError(t, os.Remove(filepath.Join(dir, "in", "b.csv")))
	changed := strings.Replace(string(data), ",a,", ",z,", 1)
	require.NotEqual(t, string(data), changed)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "a.csv"), []byte(changed), 0o644))
	err = stopAt(100)
	require.ErrorIs(t, err, checkpoint.ErrIncompatible)
	require.ErrorContains(t, err, "is not the file the checkpoint read")

	// put back, it resumes
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "a.csv"), data, 0o644))
	require.NoError(t, stopAt(100))
}
