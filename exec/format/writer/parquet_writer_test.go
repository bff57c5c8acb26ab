package writer

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqgo "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// Every type of writerTestBatch, NULLs included, survives Parquet: the
// table read back equals the batches written, in one row group.
func TestParquetWriterRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := writerTestBatch(mem)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf, rec.Schema(), &pqgo.Snappy)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(rec))
	empty := rec.NewSlice(0, 0)
	defer empty.Release()
	require.NoError(t, w.WriteBatch(empty))
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "a second Close does nothing")
	require.ErrorIs(t, w.WriteBatch(rec), ErrWriterClosed)

	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()), file.WithReadProps(nil))
	require.NoError(t, err)
	defer pf.Close()
	require.Equal(t, 1, pf.NumRowGroups())
	require.Equal(t, int64(4), pf.NumRows())
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	want := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec, rec})
	defer want.Release()
	require.Equal(t, want.NumCols(), tbl.NumCols())
	for i := range int(want.NumCols()) {
		require.Equal(t, want.Schema().Field(i).Name, tbl.Schema().Field(i).Name)
		require.True(t, arrow.TypeEqual(want.Schema().Field(i).Type, tbl.Schema().Field(i).Type), "column %d: %s", i, tbl.Schema().Field(i).Type)
		require.True(t, array.ChunkedEqual(want.Column(i).Data(), tbl.Column(i).Data()), "column %d", i)
	}
}

func TestArrowWriterStream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := writerTestBatch(mem)
	defer rec.Release()
	var buf bytes.Buffer
	w := NewArrowWriter(&buf, rec.Schema())
	require.NoError(t, w.WriteBatch(rec))
	last := rec.NewSlice(1, 2)
	defer last.Release()
	require.NoError(t, w.WriteBatch(last))
	require.NoError(t, w.Close())
	rd, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rd.Release()
	require.True(t, rd.Next())
	require.True(t, array.RecordEqual(rec, rd.RecordBatch()))
	require.True(t, rd.Next())
	require.Equal(t, int64(1), rd.RecordBatch().NumRows())
	require.False(t, rd.Next())
	require.NoError(t, rd.Err())
}
