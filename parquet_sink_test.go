package wsql

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"
)

// readParquet reads a Parquet file back: its Arrow schema and its rows as
// CSV text.
func readParquet(t *testing.T, path string) (*arrow.Schema, string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	tr := array.NewTableReader(tbl, -1)
	defer tr.Release()
	var recs []arrow.RecordBatch
	for tr.Next() {
		recs = append(recs, tr.RecordBatch())
	}
	return tbl.Schema(), csvOf(t, tbl.Schema(), time.UTC, recs)
}

// An ordinary INSERT (no column list, COUNT(*) and expressions named
// EXPR$n by the query) writes the sink's declared schema: the sink's
// names, NOT NULL where the table says so, nullable elsewhere.
func TestParquetSinkWritesDeclaredSchema(t *testing.T) {
	for _, checkpointed := range []bool{false, true} {
		dir := t.TempDir()
		set := ""
		path := filepath.Join(dir, "out.parquet")
		if checkpointed {
			set = "SET 'execution.checkpointing.dir' = '" + filepath.ToSlash(filepath.Join(dir, "cp")) + "';\n"
			path = filepath.Join(dir, "parts")
		}
		src := sinkEventsDDL + set + `CREATE TABLE results (k STRING NOT NULL, n BIGINT NOT NULL, total BIGINT, wend TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '` + filepath.ToSlash(path) + `', 'format' = 'parquet');
INSERT INTO results SELECT k, COUNT(*), SUM(w), TUMBLE_END(ts, INTERVAL '5' SECOND) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`
		out := runScript(t, src, 3)
		require.Equal(t, "-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 6 result rows\n", out, "checkpointed %v", checkpointed)
		if checkpointed {
			path = filepath.Join(path, "part-000000.parquet")
		}
		schema, rows := readParquet(t, path)
		var fields []string
		for _, f := range schema.Fields() {
			fields = append(fields, f.Name+" "+f.Type.String()+map[bool]string{true: " NULL", false: " NOT NULL"}[f.Nullable])
		}
		require.Equal(t, []string{"k utf8 NOT NULL", "n int64 NOT NULL", "total int64 NULL", "wend timestamp[ms] NULL"}, fields)
		require.Equal(t, `k,n,total,wend
a,1,10,1970-01-01 00:00:00.000
b,1,,1970-01-01 00:00:00.000
a,2,70,1970-01-01 00:00:05.000
b,1,50,1970-01-01 00:00:05.000
b,1,60,1970-01-01 00:00:15.000
c,1,90,1970-01-01 00:00:35.000
`, rows)
	}
}

// A NULL written to a NOT NULL column of a filesystem sink is an error
// naming the column, the table and the row, and the run leaves no partial
// file behind (a Parquet file would lack its footer).
func TestFileSinkNotNullColumnRefusesNull(t *testing.T) {
	for _, format := range []string{"parquet", "csv"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out."+format)
		src := sinkEventsDDL + `CREATE TABLE results (k STRING, total BIGINT NOT NULL)
WITH ('connector' = 'filesystem', 'path' = '` + filepath.ToSlash(path) + `', 'format' = '` + format + `');
INSERT INTO results SELECT k, SUM(w) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`
		out := runScript(t, src, 1)
		require.Contains(t, out, `error: filesystem sink: column total of sink table results is NOT NULL, but the query writes NULL into it, in the row (k="b", total=NULL); `+
			"filter such rows out (WHERE ... IS NOT NULL), replace the NULL (COALESCE), or declare the column without NOT NULL\n", format)
		require.False(t, strings.Contains(out, "panic"))
		_, err := os.Stat(path)
		require.ErrorIs(t, err, os.ErrNotExist, "%s: no partial file", format)
	}
}
