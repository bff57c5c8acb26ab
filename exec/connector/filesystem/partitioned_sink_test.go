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

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format/writer"
)

func TestAppendEscapedAsFlink(t *testing.T) {
	for in, want := range map[string]string{
		"2024-01-01":         "2024-01-01",
		"00:00":              "00%3A00",
		"a/b=c":              "a%2Fb%3Dc",
		"50% *off* #1?":      "50%25 %2Aoff%2A %231%3F",
		"q\"'\\{[]^":         "q%22%27%5C%7B%5B%5D%5E",
		"tab\there\x7f":      "tab%09here%7F",
		"été, ok (1) ~!@$&+": "été, ok (1) ~!@$&+",
	} {
		got := string(appendEscaped(nil, []byte(in)))
		require.Equal(t, want, got, in)
	}
}

// partitionedSink is a csv sink of schema partitioned by the columns keys,
// with the success-file policy.
func partitionedSink(path string, schema *arrow.Schema, keys ...int) *fileSink {
	s := &fileSink{Path: path, Format: "csv", Writing: writer.CSVWriting{}, Schema: schema, Table: "t"}
	s.Partition = newPartitioning(s, keys)
	s.Partition.SuccessFile = DefaultSuccessFileName
	return s
}

// Rows go to their partition's directory, in input order, whatever the
// batches: the files hold the other columns; NULL and empty values are the
// default name; the partitions written are committed with _SUCCESS.
func TestPartitionedSinkSplitsRows(t *testing.T) {
	schema := csvSchema("dt", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64, "k", arrow.BinaryTypes.String)
	dts := []string{"d1", "d1", "d2", "", "d1", "d2", "x/y", "d1"}
	ks := []string{"a", "b", "a", "a", "a", "", "c", "a"}
	var want map[string]string
	for _, size := range []int{1, 3, 8} {
		dir := t.TempDir()
		s := partitionedSink(dir, schema, 0, 2)
		w, err := s.CreateNth(time.UTC, 0)
		require.NoError(t, err)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		for lo := 0; lo < len(dts); lo += size {
			hi := min(lo+size, len(dts))
			rec := eventBatch(mem, schema, dts[lo:hi], ks[lo:hi], lo)
			require.NoError(t, w.WriteBatch(rec))
			rec.Release()
		}
		require.NoError(t, w.Close())
		mem.AssertSize(t, 0)
		got := readTree(t, dir)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got, "batch size %d", size)
	}
	require.Equal(t, map[string]string{
		"dt=d1/k=a/part-0.csv":                     "0\n4\n7\n",
		"dt=d1/k=a/_SUCCESS":                       "",
		"dt=d1/k=b/part-0.csv":                     "1\n",
		"dt=d1/k=b/_SUCCESS":                       "",
		"dt=d2/k=a/part-0.csv":                     "2\n",
		"dt=d2/k=a/_SUCCESS":                       "",
		"dt=__DEFAULT_PARTITION__/k=a/part-0.csv":  "3\n",
		"dt=__DEFAULT_PARTITION__/k=a/_SUCCESS":    "",
		"dt=d2/k=__DEFAULT_PARTITION__/part-0.csv": "5\n",
		"dt=d2/k=__DEFAULT_PARTITION__/_SUCCESS":   "",
		"dt=x%2Fy/k=c/part-0.csv":                  "6\n",
		"dt=x%2Fy/k=c/_SUCCESS":                    "",
	}, want)
}

// eventBatch is rows of (dt, n, k), n counting from first; "" is NULL for k.
func eventBatch(mem memory.Allocator, schema *arrow.Schema, dts, ks []string, first int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range dts {
		b.Field(0).(*array.StringBuilder).Append(dts[i])
		b.Field(1).(*array.Int64Builder).Append(int64(first + i))
		if ks[i] == "" {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(ks[i])
		}
	}
	return b.NewRecordBatch()
}

// readTree is the files below dir, hidden ones included, by path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return files
}

// committedPartitions is, per partition directory of dir/out, its committed
// part files' rows in part order, and whether it has _SUCCESS.
func committedPartitions(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := readTree(t, filepath.Join(dir, "out"))
	var names []string
	for n := range tree {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]string{}
	for _, n := range names {
		d, base := filepath.Split(n)
		switch {
		case strings.HasPrefix(base, "part-"):
			out[d] += tree[n]
		case base == DefaultSuccessFileName:
			out[d+base] = "committed"
		}
	}
	return out
}

// runPartitionedCheckpointed is runCheckpointed into a sink partitioned by
// the key, rolling part files at rollSize bytes.
func runPartitionedCheckpointed(t *testing.T, j *exec.Job, dir string, stopAfter, rollSize int64) error {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(dir, "checkpoint")
	snap, err := checkpoint.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		snap, err = nil, nil
	}
	require.NoError(t, err)
	sink := partitionedSink(filepath.Join(dir, "out"), j.Schema(), 0)
	sink.RollSize = rollSize
	w, err := sink.CreateOwned(time.UTC, snap, sinkOwner{Query: "q", Checkpoint: path}, 0)
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

// A partitioned job stopped part way and run again from its checkpoint
// commits, in every partition, the rows of an uninterrupted run, and
// commits each partition (_SUCCESS); also with part files rolled by size
// between checkpoints, which end out of part order across partitions.
func TestPartitionedSinkResumesFromCheckpoint(t *testing.T) {
	in := t.TempDir()
	var a, b []exectest.Event
	for i := range 300 {
		a = append(a, exectest.Event{TS: int64(i)*1000 - int64(i%7)*900, K: string(rune('a' + i%5)), V: int64(i)})
		b = append(b, exectest.Event{TS: int64(i)*1100 - int64(i%3)*25000, K: string(rune('c' + i%4)), V: int64(i)})
	}
	require.NoError(t, os.WriteFile(filepath.Join(in, "a.csv"), []byte(exectest.EventsCSV(a)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "b.csv"), []byte(exectest.EventsCSV(b)), 0o644))
	for _, roll := range []int64{0, 40} {
		for _, size := range []int{1, 16, 4096} {
			j := splitJob(t, in, 2000)
			src := *j.Source.(*textsource.Source)
			src.BatchSize = size
			j.Source = &src

			ref := t.TempDir()
			require.NoError(t, runPartitionedCheckpointed(t, j, ref, 0, roll))
			want := committedPartitions(t, ref)
			require.Len(t, want, 12, "6 keys, each with _SUCCESS")
			require.Equal(t, "committed", want["k=c/_SUCCESS"])
			require.Greater(t, strings.Count(want["k=c/"], "\n"), 3, "its windows")
			dir := t.TempDir()
			for _, stop := range []int64{100, 350} {
				err := runPartitionedCheckpointed(t, j, dir, stop, roll)
				require.ErrorIs(t, err, context.Canceled)
				for part, rows := range committedPartitions(t, dir) {
					require.True(t, strings.HasPrefix(want[part], rows), "roll %d, batch size %d, stopped after %d rows: %s", roll, size, stop, part)
				}
			}
			require.NoError(t, runPartitionedCheckpointed(t, j, dir, 0, roll))
			require.Equal(t, want, committedPartitions(t, dir), "roll %d, batch size %d", roll, size)
		}
	}
}

// A part file rolled by 'sink.rolling-policy.file-size' is pending until
// the next checkpoint commits it; parts of one partition roll while
// another's stays open, so parts end out of number order: the pending
// list stays ascending and each part's size is recorded at its number.
func TestPartitionedSinkRollsBySize(t *testing.T) {
	dir := t.TempDir()
	schema := csvSchema("dt", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64, "k", arrow.BinaryTypes.String)
	s := partitionedSink(filepath.Join(dir, "out"), schema, 0)
	s.RollSize = 2 // a row of "n,k\n" is more: every write to a part ends it
	w, err := s.CreateOwned(time.UTC, nil, sinkOwner{Query: "q", Checkpoint: filepath.Join(dir, "ckpt")}, 0)
	require.NoError(t, err)
	defer w.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := eventBatch(mem, schema, []string{"A", "B"}, []string{"x", "y"}, 0)
	w.sink.RollSize = 0 // A's part stays open ...
	require.NoError(t, w.WriteBatch(rec))
	rec.Release()
	w.sink.RollSize = 2 // ... while B's, opened after it, rolls
	rec = eventBatch(mem, schema, []string{"B"}, []string{"z"}, 2)
	require.NoError(t, w.WriteBatch(rec))
	rec.Release()
	require.Equal(t, []uint64{1}, w.pending, "B's part rolled, A's is open")
	require.NoError(t, w.PreCommit())
	require.Equal(t, []uint64{0, 1}, w.pending)
	require.Len(t, w.own.sizes, 2)
	for n, size := range w.own.sizes {
		require.Positive(t, size, "part %d", n)
	}
	require.NoError(t, w.Commit())
	tree := readTree(t, filepath.Join(dir, "out"))
	delete(tree, ".wsql-owner.csv")
	require.Equal(t, map[string]string{
		"dt=A/part-000000.csv": "0,x\n",
		"dt=B/part-000001.csv": "1,y\n2,z\n",
		"dt=A/_SUCCESS":        "",
		"dt=B/_SUCCESS":        "",
	}, tree)
}

// A run that failed (Abort before Close) keeps what it wrote but commits
// no partition: no success file.
func TestPartitionedSinkAbortCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	schema := csvSchema("dt", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64, "k", arrow.BinaryTypes.String)
	w, err := partitionedSink(dir, schema, 0).CreateNth(time.UTC, 0)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := eventBatch(mem, schema, []string{"d1"}, []string{"a"}, 0)
	require.NoError(t, w.WriteBatch(rec))
	rec.Release()
	w.(interface{ Abort() }).Abort()
	require.NoError(t, w.Close())
	require.Equal(t, map[string]string{"dt=d1/part-0.csv": "0,a\n"}, readTree(t, dir))
}

// A checkpoint's partition directories are checked before they are joined
// to the sink's path.
func TestIsPartitionDir(t *testing.T) {
	for dir, ok := range map[string]bool{
		"dt=2024-01-01/hm=10%3A05": true, "k=__DEFAULT_PARTITION__": true, "k=..": true,
		"..": false, "dt=1/../x": false, "/etc": false, "": false, "=v": false, `k=a\..\b`: false,
	} {
		require.Equal(t, ok, isPartitionDir(dir), dir)
	}
}
