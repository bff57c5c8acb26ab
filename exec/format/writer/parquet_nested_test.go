package writer

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqgo "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// list is a list type whose element is named as Parquet names it, so that
// the type read back is equal to it.
func list(elem arrow.DataType, nullable bool) arrow.DataType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: elem, Nullable: nullable})
}

// nestedTestBatch has every way a nested value can be absent, at every
// depth: a NULL list and an empty one, NULL elements, a NULL struct and
// one of NULL fields, lists in structs in lists, maps of lists.
func nestedTestBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	point := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: false},
		arrow.Field{Name: "tags", Type: list(arrow.BinaryTypes.String, true), Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ints", Type: list(arrow.PrimitiveTypes.Int32, true), Nullable: true},
		{Name: "grid", Type: list(list(arrow.PrimitiveTypes.Int64, false), true), Nullable: true},
		{Name: "points", Type: list(point, true), Nullable: true},
		{Name: "owner", Type: arrow.StructOf(
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "at", Type: arrow.StructOf(arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true}), Nullable: true}),
			Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, list(arrow.PrimitiveTypes.Float64, true)), Nullable: true},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 30, Scale: 4}, Nullable: true},
		{Name: "big", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	}, nil)
	rows := []string{
		`{"id": 1, "ints": [1, null, 3], "grid": [[1, 2], [], [3]], "points": [{"x": 1, "tags": ["a", null]}, null, {"x": 2, "tags": []}],
		  "owner": {"name": "ann", "at": {"d": 19782}}, "attrs": [{"key": "k", "value": [1.5, null]}, {"key": "e", "value": []}, {"key": "n", "value": null}],
		  "amount": "-12345678901234567890.1234", "big": "héllo"}`,
		`{"id": 2, "ints": [], "grid": [], "points": [], "owner": {"name": null, "at": null}, "attrs": [], "amount": "0.0001", "big": ""}`,
		`{"id": 3, "ints": null, "grid": null, "points": null, "owner": null, "attrs": null, "amount": null, "big": null}`,
		`{"id": 4, "ints": [null], "grid": [[7]], "points": [{"x": 3, "tags": null}], "owner": {"name": "bo", "at": {"d": null}},
		  "attrs": [{"key": "z", "value": [null]}], "amount": "99999999999999999999999999.9999", "big": "x"}`,
	}
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader("["+strings.Join(rows, ",")+"]"))
	require.NoError(t, err)
	return rec
}

// readParquetTable reads a Parquet file back with arrow-go's reader.
func readParquetTable(t *testing.T, b []byte, mem memory.Allocator) (arrow.Table, *file.Reader) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	require.NoError(t, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	return tbl, pf
}

// Nested values come back from Parquet as they were written, at every
// batch size: the definition and repetition levels of each absent or
// empty value, at each depth, are the ones readers expect.
func TestParquetWriterNestedRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := nestedTestBatch(t, mem)
	defer rec.Release()
	for _, size := range []int64{1, 3, 4} {
		var buf bytes.Buffer
		w, err := NewParquetWriter(&buf, rec.Schema(), &pqgo.Zstd)
		require.NoError(t, err)
		for at := int64(0); at < rec.NumRows(); at += size {
			part := rec.NewSlice(at, min(at+size, rec.NumRows()))
			require.NoError(t, w.WriteBatch(part))
			part.Release()
		}
		require.NoError(t, w.Close())

		tbl, pf := readParquetTable(t, buf.Bytes(), mem)
		require.Equal(t, rec.NumRows(), tbl.NumRows())
		for i := range int(rec.NumCols()) {
			f := tbl.Schema().Field(i)
			require.Equal(t, rec.Schema().Field(i).Name, f.Name)
			require.True(t, arrow.TypeEqual(rec.Schema().Field(i).Type, f.Type), "column %s: %s", f.Name, f.Type)
			require.Equal(t, rec.Schema().Field(i).Nullable, f.Nullable, "column %s", f.Name)
			want := arrow.NewChunked(rec.Column(i).DataType(), []arrow.Array{rec.Column(i)})
			require.True(t, array.ChunkedEqual(want, tbl.Column(i).Data()), "batches of %d: column %s: %s", size, f.Name, tbl.Column(i).Data())
			want.Release()
		}
		tbl.Release()
		require.NoError(t, pf.Close())
	}
}

// A file holds row groups of ParquetRowGroupRows rows at most, however
// the rows came in batches.
func TestParquetWriterRowGroups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf, schema, &pqgo.Snappy)
	require.NoError(t, err)
	const rows, batch = 2*ParquetRowGroupRows + 10, 50_000
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for at := 0; at < rows; at += batch {
		for n := at; n < min(at+batch, rows); n++ {
			b.Append(int64(n))
		}
		col := b.NewArray()
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
		require.NoError(t, w.WriteBatch(rec))
		rec.Release()
		col.Release()
	}
	require.NoError(t, w.Close())

	tbl, pf := readParquetTable(t, buf.Bytes(), mem)
	defer pf.Close()
	defer tbl.Release()
	require.Equal(t, 3, pf.NumRowGroups())
	require.Equal(t, int64(ParquetRowGroupRows), pf.RowGroup(0).NumRows())
	require.Equal(t, int64(rows), tbl.NumRows())
	n := int64(0)
	for _, c := range tbl.Column(0).Data().Chunks() {
		for _, v := range c.(*array.Int64).Int64Values() {
			require.Equal(t, n, v)
			n++
		}
	}
}

// A column without a Parquet form is refused when the writer is made,
// with its name.
func TestParquetWriterRefusesTypes(t *testing.T) {
	nested := arrow.NewSchema([]arrow.Field{{Name: "spans", Type: list(arrow.FixedWidthTypes.Duration_ms, true), Nullable: true}}, nil)
	_, err := NewParquetWriter(&bytes.Buffer{}, nested, &pqgo.Snappy)
	require.EqualError(t, err, "parquet: column spans: an INTERVAL inside a ROW, ARRAY or MAP has no Parquet form")
	empty := arrow.NewSchema([]arrow.Field{{Name: "r", Type: arrow.StructOf(), Nullable: true}}, nil)
	_, err = NewParquetWriter(&bytes.Buffer{}, empty, &pqgo.Snappy)
	require.EqualError(t, err, "parquet: column r: a ROW without fields has no Parquet form")
	null := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.Null, Nullable: true}}, nil)
	_, err = NewParquetWriter(&bytes.Buffer{}, null, &pqgo.Snappy)
	require.EqualError(t, err, "parquet: column n: a column of type NULL has no Parquet form")
}
