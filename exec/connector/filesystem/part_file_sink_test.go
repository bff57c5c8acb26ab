package filesystem

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format/writer"
)

var partFormats = []string{"csv", "json", "parquet"}

// partBatches are the query's batches (id BIGINT, name STRING, every third
// name NULL) with the given row counts, ids counting on across batches.
func partBatches(mem memory.Allocator, sizes ...int) []arrow.RecordBatch {
	schema := csvSchema("id", arrow.PrimitiveTypes.Int64, "name", arrow.BinaryTypes.String)
	var out []arrow.RecordBatch
	id := 0
	for _, n := range sizes {
		b := array.NewRecordBuilder(mem, schema)
		for range n {
			b.Field(0).(*array.Int64Builder).Append(int64(id))
			if id%3 == 2 {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append("row \"" + strings.Repeat("x", id%5) + "\"")
			}
			id++
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
}

func releasePartBatches(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// partSink writes the query's columns in the order (name, id).
func partSink(path, name string) *fileSink {
	writing := map[string]writer.Writing{
		"csv":     writer.CSVWriting{},
		"json":    writer.JSONWriting{},
		"parquet": writer.ParquetWriting{Codec: &parquet.Snappy},
	}[name]
	return &fileSink{Path: path, Format: name, Writing: writing, Columns: []int{1, 0},
		Schema: csvSchema("name", arrow.BinaryTypes.String, "id", arrow.PrimitiveTypes.Int64)}
}

// fileOutput is a sink file's content: its bytes, or for Parquet its rows
// read back, one line each.
func fileOutput(t *testing.T, path, format string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if format != "parquet" {
		return string(b)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pf, err := file.NewParquetReader(strings.NewReader(string(b)), file.WithReadProps(nil))
	require.NoError(t, err, "%s is a complete Parquet file", path)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	rd := array.NewTableReader(tbl, 0)
	defer rd.Release()
	var sb strings.Builder
	for rd.Next() {
		for _, row := range recordRows(rd.RecordBatch()) {
			sb.WriteString(strings.Join(row, "|") + "\n")
		}
	}
	return sb.String()
}

// uninterrupted is the output of one non-checkpointed write of recs.
func uninterrupted(t *testing.T, format string, recs []arrow.RecordBatch) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "all."+format)
	w, err := partSink(path, format).Create(nil)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.WriteBatch(r))
	}
	require.NoError(t, w.Close())
	return fileOutput(t, path, format)
}

// committed is the committed part files' output in name order; it checks
// that the names are part-000000, part-000001, ... and that no in-progress
// file is left when done is set.
func committed(t *testing.T, dir, format string, done bool) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out strings.Builder
	n := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".inprogress") {
			require.False(t, done, "in-progress file %s left", name)
			continue
		}
		if !strings.HasPrefix(name, "part-") || !strings.HasSuffix(name, "."+format) {
			continue
		}
		require.Equal(t, (&partFileWriter{sink: &fileSink{Format: format}}).name(uint64(n), false), name)
		n++
		out.WriteString(fileOutput(t, filepath.Join(dir, name), format))
	}
	return out.String()
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// checkpointOf runs PreCommit and State and returns the state's bytes.
func checkpointOf(t *testing.T, w *partFileWriter) []byte {
	t.Helper()
	require.NoError(t, w.PreCommit())
	var e checkpoint.Encoder
	w.State(&e)
	return e.Data()
}

func TestPartFileWriterCycles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3, 0, 5, 1, 4, 2, 7)
	defer releasePartBatches(recs)
	// the batches written before each checkpoint; an empty cycle and a
	// cycle of a 0-row batch make no file
	cycles := [][]arrow.RecordBatch{recs[:1], recs[1:3], nil, recs[3:4], recs[4:6], {recs[1]}, recs[6:]}
	for _, fileFormat := range partFormats {
		t.Run(fileFormat, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out", "sink")
			w, err := partSink(dir, fileFormat).CreateCommitting(nil, nil)
			require.NoError(t, err, "a missing directory is created")
			files := 0
			for _, cycle := range cycles {
				for _, r := range cycle {
					require.NoError(t, w.WriteBatch(r))
				}
				checkpointOf(t, w)
				names := dirNames(t, dir)
				rows := int64(0)
				for _, r := range cycle {
					rows += r.NumRows()
				}
				if rows > 0 {
					hidden := (&partFileWriter{sink: &fileSink{Format: fileFormat}}).name(uint64(files), true)
					require.Contains(t, names, hidden, "pending until Commit")
					files++
				}
				require.NoError(t, w.Commit())
				require.Len(t, dirNames(t, dir), files, "committed: no hidden files")
			}
			require.NoError(t, w.Close())
			require.NoError(t, w.Close(), "Close is idempotent")
			require.ErrorIs(t, w.WriteBatch(recs[0]), writer.ErrWriterClosed)
			require.Equal(t, 5, files)
			require.Equal(t, uninterrupted(t, fileFormat, recs), committed(t, dir, fileFormat, true))
		})
	}
}

// A crash after a checkpoint was saved but before its Commit: the restore
// commits the pending file, deletes what came after and continues the
// numbering; the output equals an uninterrupted run's.
func TestPartFileWriterCrashRestore(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3, 5, 1, 4, 2, 7)
	defer releasePartBatches(recs)
	for _, format := range partFormats {
		for _, writeMore := range []bool{false, true} {
			name := format
			if writeMore {
				name += "/write-after-checkpoint"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				sink := partSink(dir, format)
				w, err := sink.CreateCommitting(nil, nil)
				require.NoError(t, err)
				require.NoError(t, w.WriteBatch(recs[0]))
				checkpointOf(t, w)
				require.NoError(t, w.Commit())
				require.NoError(t, w.WriteBatch(recs[1]))
				require.NoError(t, w.WriteBatch(recs[2]))
				state := checkpointOf(t, w) // saved; the crash comes before Commit
				if writeMore {
					require.NoError(t, w.WriteBatch(recs[3]))
					require.NoError(t, w.WriteBatch(recs[4]))
				}
				require.NoError(t, w.Close())
				hidden := (&partFileWriter{sink: sink}).name
				names := dirNames(t, dir)
				require.Contains(t, names, hidden(1, true))
				if writeMore {
					require.Contains(t, names, hidden(2, true))
				}
				// a committed file no checkpoint we restore covers
				require.NoError(t, os.WriteFile(filepath.Join(dir, hidden(3, false)), []byte("stale"), 0o644))

				w, err = sink.CreateCommitting(nil, checkpoint.NewDecoder(state))
				require.NoError(t, err)
				require.Equal(t, []string{hidden(0, false), hidden(1, false)}, dirNames(t, dir))
				for _, r := range recs[3:] {
					require.NoError(t, w.WriteBatch(r))
				}
				checkpointOf(t, w)
				require.NoError(t, w.Commit())
				require.NoError(t, w.Close())
				require.Equal(t, []string{hidden(0, false), hidden(1, false), hidden(2, false)}, dirNames(t, dir))
				require.Equal(t, uninterrupted(t, format, recs), committed(t, dir, format, true))
			})
		}
	}
}

func TestPartFileWriterRestoreCommitted(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3, 5)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "csv")
	w, err := sink.CreateCommitting(nil, nil)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(recs[0]))
	state := checkpointOf(t, w)
	require.NoError(t, w.Commit()) // the crash came after Commit
	require.NoError(t, w.Close())

	w, err = sink.CreateCommitting(nil, checkpoint.NewDecoder(state))
	require.NoError(t, err, "a pending file already committed is fine")
	require.NoError(t, w.WriteBatch(recs[1]))
	checkpointOf(t, w)
	require.NoError(t, w.Commit())
	require.NoError(t, w.Close())
	require.Equal(t, []string{"part-000000.csv", "part-000001.csv"}, dirNames(t, dir))
	require.Equal(t, uninterrupted(t, "csv", recs), committed(t, dir, "csv", true))

	// the pending file is gone in either form
	require.NoError(t, os.Remove(filepath.Join(dir, "part-000000.csv")))
	_, err = sink.CreateCommitting(nil, checkpoint.NewDecoder(state))
	require.ErrorContains(t, err, "filesystem sink: the checkpoint being restored covers part file part-000000.csv of "+dir+", but neither it nor .part-000000.csv.inprogress exists: the output the checkpoint covers is gone")
}

func TestPartFileWriterFreshStart(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 2)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	old := []string{"part-000000.csv", "part-000007.csv", ".part-000003.csv.inprogress", "part-1000000.csv"}
	kept := []string{"part-000000.json", ".part-000001.json.inprogress", "notes.txt", "part-0.csv",
		"part-00001.csv", "part-0000001.csv", ".part-000001.csv", "part-000001.csv.bak", "part-00000x.csv"}
	for _, name := range append(append([]string{}, old...), kept...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("old\n"), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "part-000002.csv"), 0o755), "a directory is no part file")
	w, err := partSink(dir, "csv").CreateCommitting(nil, nil)
	require.NoError(t, err)
	names := dirNames(t, dir)
	for _, name := range old {
		require.NotContains(t, names, name)
	}
	for _, name := range append(kept, "part-000002.csv") {
		require.Contains(t, names, name)
	}
	require.NoError(t, w.WriteBatch(recs[0]))
	checkpointOf(t, w)
	require.NoError(t, w.Commit())
	require.NoError(t, w.Close())
	got, err := os.ReadFile(filepath.Join(dir, "part-000000.csv"))
	require.NoError(t, err)
	require.Equal(t, uninterrupted(t, "csv", recs), string(got), "numbering starts at 0")

	path := filepath.Join(dir, "notes.txt")
	_, err = partSink(path, "csv").CreateCommitting(nil, nil)
	require.EqualError(t, err, "filesystem sink: with checkpoints the filesystem sink writes part files into a directory; "+path+" is a file")
	_, err = partSink(dir, "xml").CreateCommitting(nil, nil)
	require.ErrorContains(t, err, `filesystem sink: unknown format "xml"`)
}

func TestPartFileWriterCorruptState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 2, 3)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "json")
	w, err := sink.CreateCommitting(nil, nil)
	require.NoError(t, err)
	for _, r := range recs {
		require.NoError(t, w.WriteBatch(r))
		checkpointOf(t, w)
	}
	state := checkpointOf(t, w) // pending 0 and 1, next 2
	require.NoError(t, w.Close())
	before := dirNames(t, dir)
	for n := range len(state) {
		_, err := sink.CreateCommitting(nil, checkpoint.NewDecoder(state[:n]))
		require.ErrorIs(t, err, checkpoint.ErrCorrupt, "truncated to %d bytes", n)
		require.ErrorContains(t, err, "filesystem sink: state of ")
	}
	// a pending part at or past the next number, parts out of order
	for _, bad := range [][]uint64{{2}, {1, 0}, {0, 0}} {
		var e checkpoint.Encoder
		e.Uint(2)
		checkpoint.Uints(&e, bad)
		_, err := sink.CreateCommitting(nil, checkpoint.NewDecoder(e.Data()))
		require.ErrorIs(t, err, checkpoint.ErrCorrupt, "pending %v", bad)
	}
	require.Equal(t, before, dirNames(t, dir), "a refused state touches no file")

	w, err = sink.CreateCommitting(nil, checkpoint.NewDecoder(state))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, uninterrupted(t, "json", recs), committed(t, dir, "json", true))
}
