package textsource

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
)

// signalWriter sends every result row, as CSV without the header, on rows.
type signalWriter struct {
	buf    bytes.Buffer
	w      writer.ResultWriter
	header bool
	rows   chan string
}

func newSignalWriter(schema *arrow.Schema) *signalWriter {
	s := &signalWriter{rows: make(chan string, 100)}
	s.w = writer.NewCSVWriter(&s.buf, schema, time.UTC)
	return s
}

func (s *signalWriter) WriteBatch(rec arrow.RecordBatch) error {
	if err := s.w.WriteBatch(rec); err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(s.buf.String()), "\n") {
		if !s.header {
			s.header = true // the first line written is the header
			continue
		}
		s.rows <- line
	}
	s.buf.Reset()
	return nil
}

func (s *signalWriter) Close() error { return s.w.Close() }

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func expectRow(t *testing.T, rows <-chan string, want string) {
	t.Helper()
	select {
	case got := <-rows:
		require.Equal(t, want, got)
	case <-time.After(5 * time.Second):
		t.Fatalf("no result row, want %s", want)
	}
}

type followRun struct {
	cancel context.CancelFunc
	done   chan error
	rows   atomic.Int64
	stats  exec.Stats // set before done is sent
}

func startFollow(t *testing.T, j *exec.Job, mem memory.Allocator, w writer.ResultWriter) *followRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &followRun{cancel: cancel, done: make(chan error, 1)}
	j.ProgressEvery = time.Nanosecond
	j.Progress = func(p exec.Progress) { r.rows.Store(p.RowsRead) }
	go func() {
		st, err := j.Run(ctx, mem, w)
		r.stats = st
		r.done <- err
	}()
	t.Cleanup(cancel)
	return r
}

// stop cancels the run and checks it ends promptly with context.Canceled.
func (r *followRun) stop(t *testing.T) {
	t.Helper()
	start := time.Now()
	r.cancel()
	select {
	case err := <-r.done:
		require.ErrorIs(t, err, context.Canceled)
		require.Less(t, time.Since(start), 2*time.Second)
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not end after cancellation")
	}
}

const minute = 60_000

func TestFollowAppendedLinesAndNewFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: 20_000, K: "x", V: 2}, {TS: 30_000, K: "x", V: 3}})})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, dir, 0)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)

	// A line appended to a.csv moves the watermark past the first minute;
	// the rest of a line arrives later (the line is read once complete).
	appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: minute + 10_000, K: "x", V: 4}})[:10])
	time.Sleep(30 * time.Millisecond)
	appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: minute + 10_000, K: "x", V: 4}})[10:])
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,3,6")

	// A new file joins as a split (written under a hidden name first).
	b := filepath.Join(dir, "b.csv")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".b.csv"), []byte(exectest.EventsCSV([]exectest.Event{{TS: 2*minute + 10_000, K: "y", V: 5}, {TS: 2*minute + 20_000, K: "y", V: 6}})), 0o644))
	time.Sleep(30 * time.Millisecond)
	require.Equal(t, int64(4), run.rows.Load(), "hidden files are not read")
	require.NoError(t, os.Rename(filepath.Join(dir, ".b.csv"), b))
	require.Eventually(t, func() bool { return run.rows.Load() == 6 }, 5*time.Second, 5*time.Millisecond)

	// b now holds the watermark back at 00:02:20.
	appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: 3*minute + 30_000, K: "x", V: 7}}))
	expectRow(t, w.rows, "x,1970-01-01 00:01:00.000,1970-01-01 00:02:00.000,1970-01-01 00:01:59.999,1,4")
	appendFile(t, b, exectest.EventsCSV([]exectest.Event{{TS: 3*minute + 40_000, K: "y", V: 8}}))
	expectRow(t, w.rows, "y,1970-01-01 00:02:00.000,1970-01-01 00:03:00.000,1970-01-01 00:02:59.999,2,11")
	select {
	case row := <-w.rows:
		t.Fatalf("unexpected row %s", row)
	case <-time.After(50 * time.Millisecond):
	}
	run.stop(t)
}

func TestFollowIdleSplitsWhileWaiting(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: minute + 10_000, K: "x", V: 2}}),
		"b.csv": exectest.EventsCSV([]exectest.Event{{TS: 5000, K: "x", V: 10}}),
	})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, dir, 0)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	j.Source.(*Source).IdleTimeout = 50 * time.Millisecond
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	// b holds the watermark at 00:00:05 until both go idle: then the
	// maximum, 00:01:10, fires the first minute with no new row arriving.
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,2,11")
	run.stop(t)
}

func TestFollowCancelWakesALongPoll(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.json": `{"ts":"1970-01-01 00:00:01","k":"x","v":1}` + "\n"})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, dir, 0)
	j.Source.(*Source).Format = "json"
	j.Source.(*Source).Decoding = format.JSONDecoding{}
	j.Source.(*Source).MonitorInterval = time.Hour
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	require.Eventually(t, func() bool { return run.rows.Load() == 1 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(20 * time.Millisecond) // asleep in the hour-long poll
	run.stop(t)
}

func TestFollowEmptyDirectoryAndSingleFile(t *testing.T) {
	dir := t.TempDir()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// A directory with no files yet: the first file is the first split.
	j := splitJob(t, dir, 0)
	require.Empty(t, j.Source.(*Source).Splits)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	time.Sleep(30 * time.Millisecond)
	writeFiles(t, dir, map[string]string{"_SUCCESS": "", "a.csv": exectest.EventsCSV([]exectest.Event{{TS: 1000, K: "x", V: 1}, {TS: minute, K: "x", V: 2}})})
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,1,1")
	run.stop(t)

	// A single file path is followed as it grows.
	file := filepath.Join(dir, "a.csv")
	j = splitJob(t, file, 0)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	w = newSignalWriter(j.Schema())
	run = startFollow(t, j, mem, w)
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,1,1")
	appendFile(t, file, exectest.EventsCSV([]exectest.Event{{TS: 2 * minute, K: "x", V: 3}}))
	expectRow(t, w.rows, "x,1970-01-01 00:01:00.000,1970-01-01 00:02:00.000,1970-01-01 00:01:59.999,1,2")
	run.stop(t)
}

// A followed file truncated and rewritten (shorter than what was read) is
// read again from its start; the truncation is counted.
func TestFollowTruncatedFileIsReadFromItsStart(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: 20_000, K: "x", V: 2}, {TS: 30_000, K: "x", V: 3}})})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, a, 0)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	require.Eventually(t, func() bool { return run.rows.Load() == 3 }, 5*time.Second, 5*time.Millisecond)
	require.NoError(t, os.WriteFile(a, []byte(exectest.EventsCSV([]exectest.Event{{TS: minute + 10_000, K: "x", V: 4}})), 0o644))
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,3,6")
	appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: 2*minute + 10_000, K: "x", V: 5}}))
	expectRow(t, w.rows, "x,1970-01-01 00:01:00.000,1970-01-01 00:02:00.000,1970-01-01 00:01:59.999,1,4")
	run.stop(t)
	require.Equal(t, int64(5), run.stats.RowsRead)
	require.Equal(t, int64(1), run.stats.FilesTruncated)
	require.Zero(t, run.stats.FilesRotated)
}

// Rotation (mv f f.1, a new f): the old file, still open, is read to its
// end, its last line without a line end as a row, then the new file from
// its start. In a followed directory the rotated file's new name is not
// read as a new file.
func TestFollowRotatedFileIsFinishedThenTheNewOneRead(t *testing.T) {
	for _, followDir := range []bool{false, true} {
		dir := t.TempDir()
		a := filepath.Join(dir, "a.csv")
		writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: 20_000, K: "x", V: 2}})})
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		path := a
		if followDir {
			path = dir
		}
		j := splitJob(t, path, 0)
		j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
		j.Source.(*Source).Decoding = format.CSVDecoding{Options: format.CSVOptions{IgnoreParseErrors: true}}
		w := newSignalWriter(j.Schema())
		run := startFollow(t, j, mem, w)
		require.Eventually(t, func() bool { return run.rows.Load() == 2 }, 5*time.Second, 5*time.Millisecond)
		last := exectest.EventsCSV([]exectest.Event{{TS: 40_000, K: "x", V: 4}})
		appendFile(t, a, "a bad row\n"+exectest.EventsCSV([]exectest.Event{{TS: 30_000, K: "x", V: 3}})+last[:len(last)-1]) // the last line has no line end
		require.NoError(t, os.Rename(a, a+".1"))
		writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: minute + 10_000, K: "x", V: 5}})})
		expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,4,10")
		appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: 2*minute + 10_000, K: "x", V: 6}}))
		expectRow(t, w.rows, "x,1970-01-01 00:01:00.000,1970-01-01 00:02:00.000,1970-01-01 00:01:59.999,1,5")
		time.Sleep(30 * time.Millisecond) // a few polls: a.csv.1 is not read again
		run.stop(t)
		require.Equal(t, int64(6), run.stats.RowsRead, "directory %v", followDir)
		require.Equal(t, int64(1), run.stats.FilesRotated, "directory %v", followDir)
		require.Equal(t, int64(1), run.stats.BadRowsSkipped, "the old file's bad row still counts")
		require.Zero(t, run.stats.FilesTruncated)
		mem.AssertSize(t, 0)
	}
}

// At a clean stop a last line without a line end is read as a row, as at
// the end of input.
func TestFollowCleanStopReadsTheLastLine(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	last := exectest.EventsCSV([]exectest.Event{{TS: 30_000, K: "x", V: 3}})
	writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: 20_000, K: "x", V: 2}}) + last[:len(last)-1]})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, a, 0)
	j.Source.(*Source).MonitorInterval = 10 * time.Millisecond
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	require.Eventually(t, func() bool { return run.rows.Load() == 2 }, 5*time.Second, 5*time.Millisecond)
	time.Sleep(30 * time.Millisecond) // waiting for the line end
	run.stop(t)
	require.Equal(t, int64(3), run.stats.RowsRead)
}
