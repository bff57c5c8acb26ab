package exec

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
)

func TestFileSink(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := writerTestBatch(mem)
	defer rec.Release()
	dir := t.TempDir()

	// a directory gets part-0.<format>; csv has no header, as in Flink
	sink := &FileSink{Path: dir, Format: "csv", Writing: format.CSVWriting{}, Schema: rec.Schema()}
	w, err := sink.Create(nil)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "Close is idempotent")
	got, err := os.ReadFile(filepath.Join(dir, "part-0.csv"))
	require.NoError(t, err)
	require.Equal(t, "\"a\"\"b\\c\n\té\x01\",true,-7,9223372036854775807,0.1,-0.05,2024-02-29,2024-01-02 03:04:05.678,2024-01-02 03:04:05.678\n,,,,,,,,\n", string(got))

	// a file path is created or truncated; Columns puts the query's columns
	// in the table's order under the table's names
	path := filepath.Join(dir, "out.json")
	require.NoError(t, os.WriteFile(path, []byte("old content\n"), 0o644))
	sink = &FileSink{Path: path, Format: "json", Writing: format.JSONWriting{}, Columns: []int{2, 0},
		Schema: csvSchema("n", arrow.PrimitiveTypes.Int32, "name", arrow.BinaryTypes.String)}
	w, err = sink.Create(time.UTC)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, `{"n":-7,"name":"a\"b\\c\n\té\u0001"}`+"\n"+`{"n":null,"name":null}`+"\n", string(got))

	_, err = (&FileSink{Path: filepath.Join(dir, "missing", "x.json"), Format: "json", Writing: format.JSONWriting{}, Schema: rec.Schema()}).Create(nil)
	require.ErrorContains(t, err, "filesystem sink: open ")
}

// TestBadRowsFile checks that a read writes every skipped line, as read,
// to the bad rows file, over splits of either format.
func TestBadRowsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: tsType}, {Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	csvPath := write("a.csv", "2024-01-01 00:00:00,1\nnope,2\r\n2024-01-01 00:00:01,x\n2024-01-01 00:00:02,3\n")
	jsonPath := write("b.json", "{\"ts\": \"2024-01-01 00:00:00\", \"n\": 1}\n{\"n\": 2}\r\n\n{\"ts\": \"2024-01-01 00:00:02\"")
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("from an earlier run\n"), 0o644))

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		src  FileSource
		want string
	}{
		{FileSource{Path: csvPath, Format: "csv", Decoding: format.CSVDecoding{Options: format.CSVOptions{IgnoreParseErrors: true}}}, "nope,2\n2024-01-01 00:00:01,x\n"},
		{FileSource{Path: jsonPath, Format: "json", Decoding: format.JSONDecoding{Options: format.JSONOptions{IgnoreParseErrors: true}}}, "{\"n\": 2}\n{\"ts\": \"2024-01-01 00:00:02\"\n"},
	} {
		var seen int
		c.src.Schema, c.src.BadRowsPath, c.src.BatchSize = schema, bad, 1
		if d, ok := c.src.Decoding.(format.CSVDecoding); ok {
			d.Options.OnBadRow = func(*format.ParseError, []byte) { seen++ } // the caller's hook still runs
			c.src.Decoding = d
		}
		r, err := c.src.Open(mem, nil)
		require.NoError(t, err)
		rows := 0
		for {
			b, err := r.Next()
			if err != nil {
				require.Equal(t, "EOF", err.Error())
				break
			}
			if b.Record != nil {
				rows += int(b.Record.NumRows())
				b.Record.Release()
			}
		}
		require.EqualValues(t, 2, r.Stats().Skipped)
		require.NoError(t, r.Close())
		got, err := os.ReadFile(bad)
		require.NoError(t, err)
		require.Equal(t, c.want, string(got), c.src.Format)
		if c.src.Format == "csv" {
			require.Equal(t, 2, seen)
		}
	}

	// no bad rows: the file is still created, empty, for this run
	src := FileSource{Path: jsonPath, Format: "json", Decoding: format.JSONDecoding{Options: format.JSONOptions{IgnoreParseErrors: true}}, SourceSpec: SourceSpec{Schema: schema, BadRowsPath: bad}}
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	got, err := os.ReadFile(bad)
	require.NoError(t, err)
	require.Empty(t, got)

	src.BadRowsPath = filepath.Join(dir, "missing", "bad.txt")
	_, err = src.Open(mem, nil)
	require.ErrorIs(t, err, ErrSource)
	require.ErrorContains(t, err, "bad rows file: open ")
}

func writerTestBatch(mem memory.Allocator) arrow.RecordBatch {
	schema := csvSchema("s", arrow.BinaryTypes.String, "b", arrow.FixedWidthTypes.Boolean,
		"i", arrow.PrimitiveTypes.Int32, "l", arrow.PrimitiveTypes.Int64, "f", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "d", arrow.FixedWidthTypes.Date32,
		"ts", tsType, "ltz", ltzType)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a\"b\\c\n\té\x01"}, nil)
	b.Field(1).(*array.BooleanBuilder).Append(true)
	b.Field(2).(*array.Int32Builder).Append(-7)
	b.Field(3).(*array.Int64Builder).Append(math.MaxInt64)
	b.Field(4).(*array.Float64Builder).Append(0.1)
	b.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(-5))
	b.Field(6).(*array.Date32Builder).Append(19782)
	b.Field(7).(*array.TimestampBuilder).Append(1704164645678)
	b.Field(8).(*array.TimestampBuilder).Append(1704164645678)
	for _, f := range b.Fields() {
		f.AppendNull()
	}
	return b.NewRecordBatch()
}
