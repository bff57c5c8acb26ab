package filesystem

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format/writer"
)

// runCheckpointed runs j into the part files of dir/out, with a checkpoint
// every step, from the checkpoint in dir if there is one; stopAfter > 0
// cancels the run once that many rows were read. Every Arrow buffer is
// released by the end, also on the stopped and restored runs.
func runCheckpointed(t *testing.T, j *exec.Job, dir string, stopAfter int64) error {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(dir, "checkpoint")
	snap, err := checkpoint.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		snap, err = nil, nil
	}
	require.NoError(t, err)
	var state *checkpoint.Decoder
	if snap != nil {
		state = exec.SinkState(snap)
	}
	sink := &fileSink{Path: filepath.Join(dir, "out"), Format: "csv", Writing: writer.CSVWriting{}, Schema: j.Schema()}
	w, err := sink.CreateCommitting(time.UTC, state)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jj := *j
	jj.Checkpoint = &exec.Checkpointing{Path: path, Interval: time.Nanosecond, Query: "q", Restore: snap}
	if stopAfter > 0 {
		jj.ProgressEvery = time.Nanosecond
		jj.Progress = func(p exec.Progress) {
			if p.RowsRead >= stopAfter {
				cancel()
			}
		}
	}
	_, err = jj.Run(ctx, mem, w)
	require.NoError(t, w.Close())
	return err
}

func committedParts(t *testing.T, dir string) string {
	names, err := filepath.Glob(filepath.Join(dir, "out", "part-*.csv"))
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

// A job stopped part way and run again from its checkpoint commits the
// output of an uninterrupted run: one window operator, two parallel ones,
// and with a late-data file, over two splits, at several batch sizes.
func TestJobResumesFromCheckpoint(t *testing.T) {
	in := t.TempDir()
	var a, b []exectest.Event
	for i := range 300 {
		a = append(a, exectest.Event{TS: int64(i)*1000 - int64(i%7)*900, K: string(rune('a' + i%5)), V: int64(i)})
		b = append(b, exectest.Event{TS: int64(i)*1100 - int64(i%3)*25000, K: string(rune('c' + i%4)), V: int64(i)})
	}
	require.NoError(t, os.WriteFile(filepath.Join(in, "a.csv"), []byte(exectest.EventsCSV(a)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "b.csv"), []byte(exectest.EventsCSV(b)), 0o644))

	for _, c := range []struct {
		name        string
		parallelism int
		late        bool
	}{{"one", 1, false}, {"parallel", 2, false}, {"late file", 1, true}} {
		for _, size := range []int{1, 16, 4096} {
			j := splitJob(t, in, 2000)
			src := *j.Source.(*textsource.Source)
			src.BatchSize = size
			j.Source, j.Parallelism = &src, c.parallelism

			ref := t.TempDir()
			if c.late {
				j.LateDataPath = filepath.Join(ref, "late.csv")
			}
			require.NoError(t, runCheckpointed(t, j, ref, 0))
			want := committedParts(t, ref)
			require.NotEmpty(t, want)

			dir := t.TempDir()
			if c.late {
				j.LateDataPath = filepath.Join(dir, "late.csv")
			}
			for _, stop := range []int64{100, 350} {
				err := runCheckpointed(t, j, dir, stop)
				require.ErrorIs(t, err, context.Canceled)
				require.True(t, strings.HasPrefix(want, committedParts(t, dir)), "%s, batch size %d: stopped after %d rows", c.name, size, stop)
			}
			require.NoError(t, runCheckpointed(t, j, dir, 0))
			require.Equal(t, want, committedParts(t, dir), "%s, batch size %d", c.name, size)
			if c.late {
				wantLate, err := os.ReadFile(filepath.Join(ref, "late.csv"))
				require.NoError(t, err)
				gotLate, err := os.ReadFile(filepath.Join(dir, "late.csv"))
				require.NoError(t, err)
				require.Greater(t, strings.Count(string(wantLate), "\n"), 1)
				require.Equal(t, string(wantLate), string(gotLate))
			}
		}
	}
}
