package wsql

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"
)

const epochsDDL = `CREATE TABLE by_epoch (epoch BIGINT, txt STRING, usr STRING, n INT, ts AS TO_TIMESTAMP_LTZ(epoch, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Shanghai';
`

const outputSelect = `SELECT usr AS k, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt,
  COUNT(*) AS n, SUM(CASE WHEN n > 4 THEN n END) AS total
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`

const outputQuery = epochsDDL + outputSelect

// runWith runs src with every tabular result written by newWriter into out.
func runWith(t *testing.T, src string, mem memory.Allocator, newWriter func(w *bytes.Buffer, r ResultInfo) ResultWriter) []byte {
	t.Helper()
	var out bytes.Buffer
	err := New(WithAllocator(mem), WithBatchSize(3)).Run(context.Background(), src, Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return newWriter(&out, r), nil },
	})
	require.NoError(t, err)
	return out.Bytes()
}

// csvOf renders record batches as CSV, to compare them with the CSV result.
func csvOf(t *testing.T, schema *arrow.Schema, loc *time.Location, recs []arrow.RecordBatch) string {
	var b bytes.Buffer
	w := NewCSVWriter(&b, schema, loc)
	for _, r := range recs {
		require.NoError(t, w.WriteBatch(r))
	}
	require.NoError(t, w.Close())
	return b.String()
}

func TestJSONResultWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	got := runWith(t, outputQuery, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewJSONWriter(w, r.Schema, r.Location) })
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	require.Len(t, lines, 5)
	require.Equal(t, `{"k":"alice","wend":"2024-03-01 17:01:00.000","rt":"2024-03-01 17:00:59.999+08:00","n":1,"total":null}`, lines[0])
}

// The Arrow stream reads back with ipc.NewReader: one record batch per
// result batch, the same rows as the CSV result.
func TestArrowResultWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var schema *arrow.Schema
	got := runWith(t, outputQuery, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter {
		schema = r.Schema
		return NewArrowWriter(w, r.Schema)
	})
	wantCSV := runWith(t, outputQuery, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewCSVWriter(w, r.Schema, time.UTC) })

	rd, err := ipc.NewReader(bytes.NewReader(got), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rd.Release()
	require.True(t, rd.Schema().Equal(schema), rd.Schema().String())
	require.Equal(t, "k,wend,rt,n,total", strings.Join(fieldNames(rd.Schema()), ","))
	require.Equal(t, arrow.FixedWidthTypes.Timestamp_ms.(*arrow.TimestampType).Unit, rd.Schema().Field(2).Type.(*arrow.TimestampType).Unit)
	require.NotEmpty(t, rd.Schema().Field(2).Type.(*arrow.TimestampType).TimeZone, "LTZ stays zoned")
	var recs []arrow.RecordBatch
	for rd.Next() {
		rec := rd.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, rd.Err())
	require.Greater(t, len(recs), 1, "windows are written as they fire")
	require.Equal(t, string(wantCSV), csvOf(t, rd.Schema(), time.UTC, recs))
	for _, r := range recs {
		r.Release()
	}

	// an empty result is a stream with the schema and no batches
	empty := runWith(t, sinkEventsDDL+"SELECT k FROM events WHERE v > 100 GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);", mem,
		func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewArrowWriter(w, r.Schema) })
	rd2, err := ipc.NewReader(bytes.NewReader(empty), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rd2.Release()
	require.Equal(t, []string{"k"}, fieldNames(rd2.Schema()))
	require.False(t, rd2.Next())
	require.NoError(t, rd2.Err())
}

func fieldNames(s *arrow.Schema) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return names
}

// TestFilesystemSinkWritesParquet writes a parquet file (an LTZ column,
// NULLs, the table's column order) and reads it back with pqarrow.
func TestFilesystemSinkWritesParquet(t *testing.T) {
	dir := t.TempDir()
	src := strings.ReplaceAll(epochsDDL+`
CREATE TABLE results (k STRING, wend TIMESTAMP(3), rt TIMESTAMP_LTZ(3), n BIGINT, total INT)
WITH ('connector' = 'filesystem', 'path' = 'DIR', 'format' = 'parquet', 'parquet.compression' = 'zstd');
INSERT INTO results (k, n, wend, rt, total) SELECT usr, COUNT(*), TUMBLE_END(ts, INTERVAL '1' MINUTE), TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE),
  SUM(CASE WHEN n > 4 THEN n END)
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
`, "DIR", filepath.ToSlash(dir))
	want := runScript(t, outputQuery, 4096)
	want = want[strings.Index(want, "k,wend"):strings.Index(want, "-- ")]
	for _, size := range []int{1, 4096} {
		out := runScript(t, src, size)
		require.Equal(t, "-- 5 rows read, 0 late rows dropped, 0 bad rows skipped, 5 result rows\n", out)

		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		f, err := os.Open(filepath.Join(dir, "part-0.parquet"))
		require.NoError(t, err)
		pf, err := file.NewParquetReader(f)
		require.NoError(t, err)
		require.Equal(t, int64(5), pf.NumRows())
		require.Equal(t, 1, pf.NumRowGroups())
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		require.NoError(t, err)
		tbl, err := fr.ReadTable(context.Background())
		require.NoError(t, err)
		tr := array.NewTableReader(tbl, -1)
		var recs []arrow.RecordBatch
		for tr.Next() {
			r := tr.RecordBatch()
			r.Retain()
			recs = append(recs, r)
		}
		shanghai, err := time.LoadLocation("Asia/Shanghai")
		require.NoError(t, err)
		require.Equal(t, want, csvOf(t, tbl.Schema(), shanghai, recs))
		require.NotEmpty(t, tbl.Schema().Field(2).Type.(*arrow.TimestampType).TimeZone)
		for _, r := range recs {
			r.Release()
		}
		tr.Release()
		tbl.Release()
		require.NoError(t, pf.Close())
		mem.AssertSize(t, 0)
	}
}

func TestParquetSinkErrors(t *testing.T) {
	insert := "\nINSERT INTO t SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);"
	for _, c := range []struct{ with, at, want string }{
		{`'format' = 'parquet', 'json.ignore-parse-errors' = 'true'`, "'json.",
			"option 'json.ignore-parse-errors' belongs to format 'json', but table t has format 'parquet'"},
		{`'format' = 'parquet', 'parquet.compresion' = 'gzip'`, "'parquet.compresion'",
			"unsupported option 'parquet.compresion' for connector 'filesystem' with format 'parquet'; did you mean parquet.compression?"},
		{`'format' = 'parquet', 'parquet.compression' = 'lzo'`, "'parquet.compression'",
			"option 'parquet.compression' must be one of UNCOMPRESSED, SNAPPY, GZIP, ZSTD, got 'lzo'"},
		{`'format' = 'orc'`, "'format'",
			"format 'orc' is not supported yet (supported: csv, json, debezium-json; parquet for writing only)"},
	} {
		with := "WITH ('connector' = 'filesystem', 'path' = 'x.parquet', " + c.with + ");"
		src := sinkEventsDDL + "CREATE TABLE t (k STRING, n BIGINT)\n" + with + insert
		out := runScript(t, src, 4096)
		want := "error: 4:" + itoa(strings.Index(with, c.at)+1) + ": " + c.want
		require.Equal(t, want, strings.SplitN(out, "\n", 2)[0], src)
	}

	// an update stream is refused as for csv and json
	dir := t.TempDir()
	out := runScript(t, sinkEventsDDL+`SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE results (k STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(dir)+`/o.parquet', 'format' = 'parquet');
INSERT INTO results SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);`, 4096)
	require.Contains(t, out, "doesn't support consuming update changes which is produced by node WindowAggregate")
	_, err := os.Stat(filepath.Join(dir, "o.parquet"))
	require.True(t, os.IsNotExist(err))

	// reading parquet is not supported yet
	out = runScript(t, `CREATE TABLE p (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'x.parquet', 'format' = 'parquet');
SELECT k FROM p GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND);`, 4096)
	require.True(t, strings.HasPrefix(out, "error: 2:57: format 'parquet' is not supported yet (supported: csv, json, debezium-json)"), out)
}

func itoa(n int) string { return strconv.Itoa(n) }
