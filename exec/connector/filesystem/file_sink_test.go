package filesystem

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/internal/arrowtest"
)

func TestFileSink(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := writerTestBatch(t, mem)
	defer rec.Release()
	dir := t.TempDir()

	// a directory gets part-0.<format>; csv has no header, as in Flink
	sink := &fileSink{Path: dir, Format: "csv", Writing: writer.CSVWriting{}, Schema: rec.Schema()}
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
	sink = &fileSink{Path: path, Format: "json", Writing: writer.JSONWriting{}, Columns: []int{2, 0},
		Schema: csvSchema("n", arrow.PrimitiveTypes.Int32, "name", arrow.BinaryTypes.String)}
	w, err = sink.Create(time.UTC)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, `{"n":-7,"name":"a\"b\\c\n\té\u0001"}`+"\n"+`{"n":null,"name":null}`+"\n", string(got))

	_, err = (&fileSink{Path: filepath.Join(dir, "missing", "x.json"), Format: "json", Writing: writer.JSONWriting{}, Schema: rec.Schema()}).Create(nil)
	require.ErrorContains(t, err, "filesystem sink: open ")
}

// TestBadRowsFile checks that a read writes every skipped line, as read,
// to the bad rows file, over splits of either format.
// writerTestBatch is a row of every type the sink writes, then a row of NULLs.
func writerTestBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	schema := csvSchema("s", arrow.BinaryTypes.String, "b", arrow.FixedWidthTypes.Boolean,
		"i", arrow.PrimitiveTypes.Int32, "l", arrow.PrimitiveTypes.Int64, "f", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "d", arrow.FixedWidthTypes.Date32,
		"ts", tsType, "ltz", ltzType)
	return arrowtest.Record(t, mem, schema,
		[]any{"a\"b\\c\n\té\x01", true, int32(-7), int64(math.MaxInt64), 0.1, decimal128.FromI64(-5), 19782, 1704164645678, 1704164645678},
		make([]any, schema.NumFields()))
}
