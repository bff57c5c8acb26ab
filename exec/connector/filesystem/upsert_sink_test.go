package filesystem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/windowop"
)

// upsertInput is an update stream of (k, v): a key deleted and put again
// keeps its first place; -U is skipped; v holds a quoted line end.
func upsertInput(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{windowop.RowKindField(),
		{Name: "k", Type: arrow.BinaryTypes.String}, {Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	return arrowtest.Record(t, mem, schema,
		[]any{"+I", "a", "1"},
		[]any{"+I", "b", "two\nlines"},
		[]any{"-U", "a", "1"},
		[]any{"+U", "a", "3"},
		[]any{"-D", "b", "two\nlines"},
		[]any{"+I", "c", nil},
		[]any{"+I", "b", "back"},
	)
}

func upsertSink(path, format string, w writer.Writing) *fileSink {
	return &fileSink{Path: path, Format: format, Writing: w, Key: []int{0},
		Schema: arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String}, {Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)}
}

// The upsert file holds each key's last row, in the order keys first
// appeared, whatever the batches.
func TestUpsertSinkMaterialisesByKey(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := upsertInput(t, mem)
	defer rec.Release()
	for _, c := range []struct {
		format string
		w      writer.Writing
		want   string
	}{
		{"csv", writer.CSVWriting{}, "a,3\nb,back\nc,\n"},
		{"json", writer.JSONWriting{}, `{"k":"a","v":"3"}` + "\n" + `{"k":"b","v":"back"}` + "\n" + `{"k":"c","v":null}` + "\n"},
	} {
		for _, size := range []int64{1, 2, 7} {
			path := filepath.Join(t.TempDir(), "out."+c.format)
			sink := upsertSink(path, c.format, c.w)
			require.False(t, sink.AppendOnly())
			w, err := sink.Create(nil)
			require.NoError(t, err)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Empty(t, got, "the file is there, empty, from the start")
			for at := int64(0); at < rec.NumRows(); at += size {
				part := rec.NewSlice(at, min(at+size, rec.NumRows()))
				require.NoError(t, w.WriteBatch(part))
				part.Release()
			}
			require.NoError(t, w.Close())
			got, err = os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, c.want, string(got), "%s, batches of %d", c.format, size)
			hidden, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
			require.Empty(t, hidden)
		}
	}
}

// With checkpoints the file changes only at a commit, and a restore
// rewrites it from the checkpoint's rows.
func TestUpsertSinkCommitsAtCheckpoints(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := upsertInput(t, mem)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "out.csv")
	sink := upsertSink(path, "csv", writer.CSVWriting{})
	w, err := sink.CreateUpsertCommitting(nil, nil, 0)
	require.NoError(t, err)
	first := rec.NewSlice(0, 2)
	defer first.Release()
	require.NoError(t, w.WriteBatch(first))
	require.NoError(t, w.PreCommit())
	var e checkpoint.Encoder
	w.State(&e)
	got, _ := os.ReadFile(path)
	require.Empty(t, got, "nothing visible before the commit")
	require.NoError(t, w.Commit())
	got, _ = os.ReadFile(path)
	require.Equal(t, "a,1\nb,\"two\nlines\"\n", string(got))

	rest := rec.NewSlice(2, rec.NumRows())
	defer rest.Release()
	require.NoError(t, w.WriteBatch(rest))
	require.NoError(t, w.PreCommit()) // the crash comes before the commit
	require.NoError(t, w.Close())

	// the restore's file is the checkpoint's, and the run goes on from it
	r, err := sink.createUpsert(nil, path, checkpoint.NewDecoder(e.Data()))
	require.NoError(t, err)
	got, _ = os.ReadFile(path)
	require.Equal(t, "a,1\nb,\"two\nlines\"\n", string(got))
	require.NoError(t, r.WriteBatch(rest))
	require.NoError(t, r.Close())
	got, _ = os.ReadFile(path)
	require.Equal(t, "a,3\nb,back\nc,\n", string(got))
}
