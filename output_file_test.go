package wsql

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

// outputFileScript sends EXPLAIN's text and the results of two queries
// over datagen to the output file.
const outputFileScript = `
CREATE TABLE g (k INT, v DOUBLE, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = '0', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '5', 'fields.v.min' = '0', 'fields.v.max' = '10',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
EXPLAIN SELECT k FROM g WHERE v > 9;
SELECT k, TUMBLE_END(ts, INTERVAL '1' SECOND) AS wend, COUNT(*) AS n, SUM(v) AS sv
FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND);
SELECT k, ms, v FROM g WHERE v > 9;
`

// runToOutputFile runs script with checkpoints in dir/checkpoints, its
// results as CSV in dir/out.csv (an OutputFile kept for a restart),
// stopped as by Ctrl-C once query stop.query read stop.rows rows (the
// zero stopAt: to the end). It returns the summaries' result rows, the
// notices and the error.
func runToOutputFile(t *testing.T, dir, script string, stop stopAt) ([]int64, []string, error) {
	t.Helper()
	return runToOutputFileAs(t, dir, script, stop, NewCSVWriter)
}

// runToOutputFileAs is runToOutputFile writing with newWriter.
func runToOutputFileAs(t *testing.T, dir, script string, stop stopAt, newWriter func(io.Writer, *Schema, *time.Location) ResultWriter) ([]int64, []string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := OpenOutputFile(filepath.Join(dir, "out.csv"))
	require.NoError(t, err)
	e := New(WithCheckpointDir(filepath.Join(dir, "checkpoints")), WithBatchSize(64))
	defer e.Close()
	var rows []int64
	var notices []string
	out := Output{
		File:      f,
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return newWriter(f, r.Schema, r.Location), nil },
		OnText:    func(s string) { f.Write([]byte(s)) },
		OnSummary: func(s Summary) { rows = append(rows, s.ResultRows) },
		OnNotice:  func(s string) { notices = append(notices, s) },
	}
	if stop.rows > 0 {
		out.ProgressEvery = time.Nanosecond
		out.OnProgress = func(p Progress) {
			if len(rows) == stop.query-1 && p.RowsRead >= stop.rows {
				cancel()
			}
		}
	}
	err = e.Run(ctx, script, out)
	require.NoError(t, f.Close())
	return rows, notices, err
}

type stopAt struct {
	query int // from 1, counting the queries this run runs
	rows  int64
}

var toTheEnd stopAt

func readOut(t *testing.T, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "out.csv"))
	require.NoError(t, err)
	return string(b)
}

// uninterrupted is the file a run without checkpoints writes.
func uninterrupted(t *testing.T, script string) (string, []int64) {
	path := filepath.Join(t.TempDir(), "out.csv")
	f, err := CreateOutputFile(path)
	require.NoError(t, err)
	var rows []int64
	err = New(WithBatchSize(64)).Run(context.Background(), script, Output{
		File:      f,
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(f, r.Schema, r.Location), nil },
		OnText:    func(s string) { f.Write([]byte(s)) },
		OnSummary: func(s Summary) { rows = append(rows, s.ResultRows) },
	})
	require.NoError(t, err)
	require.NoError(t, f.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b), rows
}

// Stopped in each query and run again, the output file ends as an
// uninterrupted run's: each stop leaves a prefix of it (what the
// checkpoints committed), and the resumed query's summary counts the
// rows the file holds.
func TestOutputFileResumesExactlyOnce(t *testing.T) {
	want, wantRows := uninterrupted(t, outputFileScript)
	require.Len(t, wantRows, 2)
	require.True(t, strings.HasPrefix(want, "Project(k)"), "EXPLAIN first")
	for _, stop := range []stopAt{{1, 3000}, {2, 5000}} {
		dir := t.TempDir()
		_, _, err := runToOutputFile(t, dir, outputFileScript, stop)
		require.ErrorIs(t, err, context.Canceled)
		got := readOut(t, dir)
		require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "stopped at %v: a prefix of the output", stop)
		rows, notices, err := runToOutputFile(t, dir, outputFileScript, toTheEnd)
		require.NoError(t, err)
		require.Contains(t, strings.Join(notices, "\n"), "resuming query")
		require.True(t, want == readOut(t, dir), "stopped at %v, resumed: the output of an uninterrupted run", stop)
		require.Equal(t, wantRows[len(wantRows)-len(rows):], rows, "the summaries count the rows in the file")
		_, err = os.Stat(filepath.Join(dir, ".out.csv.inprogress"))
		require.ErrorIs(t, err, os.ErrNotExist, "the in-progress file is removed")

		// run again: every query finished, the file is left as it is
		_, notices, err = runToOutputFile(t, dir, outputFileScript, toTheEnd)
		require.NoError(t, err)
		require.Contains(t, strings.Join(notices, "\n"), "query 2 already finished")
		require.True(t, want == readOut(t, dir))
	}
}

// lastOutputState reads the output file's state in query n's checkpoint.
func lastOutputState(t *testing.T, dir string, n int) outputState {
	names, err := filepath.Glob(filepath.Join(dir, "checkpoints", "query-"+string(rune('0'+n))+"-*.ckpt"))
	require.NoError(t, err)
	require.Len(t, names, 1)
	snap, err := checkpoint.Load(names[0])
	require.NoError(t, err)
	d := exec.SinkState(snap)
	require.NotNil(t, d)
	s := readOutputState(d)
	require.NoError(t, d.Err())
	return s
}

// A crash while a commit appends to the file leaves part of the bytes in
// it and all of them in the in-progress file: the restart completes the
// append.
func TestOutputFileCompletesAnInterruptedCommit(t *testing.T) {
	want, _ := uninterrupted(t, outputFileScript)
	dir := t.TempDir()
	_, _, err := runToOutputFile(t, dir, outputFileScript, toTheEnd)
	require.NoError(t, err)
	s := lastOutputState(t, dir, 2) // the last query's final commit
	require.Positive(t, s.pending)
	// the state of a crash half way through that commit
	path := filepath.Join(dir, "out.csv")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".out.csv.inprogress"), []byte(want[s.committed:s.committed+s.pending]), 0o644))
	require.NoError(t, os.Truncate(path, s.committed+s.pending/2))

	_, notices, err := runToOutputFile(t, dir, outputFileScript, toTheEnd)
	require.NoError(t, err)
	require.Contains(t, strings.Join(notices, "\n"), "query 2 already finished")
	require.True(t, want == readOut(t, dir), "the append is completed")
	_, err = os.Stat(filepath.Join(dir, ".out.csv.inprogress"))
	require.ErrorIs(t, err, os.ErrNotExist, "the in-progress file is removed")
}

// A file that no longer holds what the checkpoint committed is refused,
// saying why, and left as it is.
func TestOutputFileRefusesAFileThatChanged(t *testing.T) {
	dir := t.TempDir()
	// stopped twice, so that the last checkpoint's commit follows another
	_, _, err := runToOutputFile(t, dir, outputFileScript, stopAt{1, 3000})
	require.ErrorIs(t, err, context.Canceled)
	_, _, err = runToOutputFile(t, dir, outputFileScript, stopAt{1, 6000})
	require.ErrorIs(t, err, context.Canceled)
	stopped := readOut(t, dir)
	s := lastOutputState(t, dir, 1)
	require.Greater(t, s.committed, s.start)
	require.Positive(t, s.pending)

	for _, c := range []struct {
		name   string
		change func(string) string // of the file's content
		script string
		want   string
	}{
		{"cut", func(b string) string { return b[:s.committed-1] }, outputFileScript, "but the checkpoint committed"},
		{"cut within the last commit", func(b string) string { return b[:s.committed+s.pending/2] }, outputFileScript, "but neither the file nor"},
		{"rewritten", func(b string) string {
			at := s.committed - 3
			return b[:at] + "#" + b[at+1:]
		}, outputFileScript, "changed since the checkpoint"},
		{"other text before", func(b string) string { return b }, strings.Replace(outputFileScript, "WHERE v > 9;", "WHERE v > 8;", 1), "the results before this query differ"},
		{"longer text before", func(b string) string { return b }, strings.Replace(outputFileScript, "WHERE v > 9;", "WHERE v > 10.5;", 1), "the results before this query are"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "out.csv"), []byte(c.change(stopped)), 0o644))
			before := readOut(t, dir)
			_, _, err := runToOutputFile(t, dir, c.script, toTheEnd)
			require.ErrorIs(t, err, checkpoint.ErrIncompatible)
			require.ErrorContains(t, err, c.want)
			require.ErrorContains(t, err, "remove the checkpoint to run the query afresh")
			require.True(t, before == readOut(t, dir), "the file is left as it was")
			_, err = os.Stat(filepath.Join(dir, ".out.csv.partial"))
			require.ErrorIs(t, err, os.ErrNotExist, "the copy of the file the restore checked is removed")
		})
	}
	t.Run("other format", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "out.csv"), []byte(stopped), 0o644))
		_, _, err := runToOutputFileAs(t, dir, outputFileScript, toTheEnd, NewJSONWriter)
		require.ErrorIs(t, err, checkpoint.ErrIncompatible)
		require.ErrorContains(t, err, "are csv, but this run writes json: use the same format")
		require.True(t, stopped == readOut(t, dir), "the file is left as it was")
	})
	t.Run("removed", func(t *testing.T) {
		require.NoError(t, os.Remove(filepath.Join(dir, "out.csv")))
		_, _, err := runToOutputFile(t, dir, outputFileScript, toTheEnd)
		require.ErrorIs(t, err, checkpoint.ErrIncompatible)
		require.ErrorContains(t, err, "it is missing, but the checkpoint committed")
		_, err = os.Stat(filepath.Join(dir, "out.csv"))
		require.ErrorIs(t, err, os.ErrNotExist, "the file is not created")
	})
}

// An output file is opened at its first use: created (or truncated) by a
// run's first output, or by the end of a successful run without output,
// and not at all by a run that fails first. A path that can never be a
// file is refused when the OutputFile is made.
func TestOutputFileOpensAtItsFirstUse(t *testing.T) {
	script := `CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'rows-per-second' = '0', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '3');
SELECT k FROM g;`
	for name, open := range map[string]func(string) (*OutputFile, error){"created": CreateOutputFile, "kept": OpenOutputFile} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			run := func(path, script string, opts ...Option) error {
				f, err := open(path)
				require.NoError(t, err)
				err = New(opts...).Run(context.Background(), script, Output{
					File:      f,
					NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(f, r.Schema, r.Location), nil },
					OnText:    func(s string) { f.Write([]byte(s)) },
				})
				require.NoError(t, f.Close())
				return err
			}
			out := filepath.Join(dir, "out.csv")
			require.Error(t, run(out, "SELECT nope FROM g;"))
			_, err := os.Stat(out)
			require.ErrorIs(t, err, os.ErrNotExist, "a failed run creates nothing")

			require.NoError(t, run(out, "SET 'parallelism.default' = '2';"))
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Empty(t, b, "a run without output leaves an empty file")

			require.NoError(t, run(out, script, WithCheckpointDir(filepath.Join(dir, "ck"))))
			require.Equal(t, "k\n1\n2\n3\n", readOut(t, dir))

			_, err = open(dir)
			require.ErrorContains(t, err, "is a directory: name a file")
			_, err = open(filepath.Join(dir, "no-such-dir", "out.csv"))
			require.ErrorContains(t, err, "no-such-dir does not exist: create it first")
		})
	}
}

// The output file cannot commit what it cannot cut back: a format whose
// writer cannot resume, or a file that is not a regular one, is refused
// before the query runs.
func TestOutputFileRefusesWhatCannotResume(t *testing.T) {
	script := `CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'rows-per-second' = '0');
SELECT k FROM g;`
	dir := t.TempDir()
	f, err := OpenOutputFile(filepath.Join(dir, "out.arrow"))
	require.NoError(t, err)
	defer f.Close()
	err = New(WithCheckpointDir(filepath.Join(dir, "ck"))).Run(context.Background(), script, Output{
		File:      f,
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewArrowWriter(f, r.Schema), nil },
	})
	require.ErrorContains(t, err, "this result format cannot resume after a restart (an Arrow IPC stream cannot be cut back and continued): use csv, json or table")

	null, err := OpenOutputFile(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	err = New(WithCheckpointDir(filepath.Join(dir, "ck2"))).Run(context.Background(), script, Output{
		File:      null,
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(null, r.Schema, r.Location), nil },
	})
	require.ErrorContains(t, err, "is not a regular file")
}

// Without checkpoints, a Run stopped by its context (Ctrl-C ends a
// streaming query) keeps the results written so far: its temporary file
// replaces the file.
func TestOutputFileOfAStoppedRunIsKept(t *testing.T) {
	want, _ := uninterrupted(t, outputFileScript)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	f, err := CreateOutputFile(path)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err = New(WithBatchSize(64)).Run(ctx, outputFileScript, Output{
		File:          f,
		NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(f, r.Schema, r.Location), nil },
		OnText:        func(s string) { f.Write([]byte(s)) },
		ProgressEvery: time.Nanosecond,
		OnProgress: func(p Progress) {
			if p.RowsRead >= 3000 {
				cancel()
			}
		},
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, "old\n", readOut(t, dir), "written to the temporary file until the end")
	require.NoError(t, f.Close())
	got := readOut(t, dir)
	require.True(t, strings.HasPrefix(got, "Project(k)") && len(got) < len(want), "the results up to the stop:\n%s", got)
	_, err = os.Stat(filepath.Join(dir, ".out.csv.tmp"))
	require.ErrorIs(t, err, os.ErrNotExist)
}
