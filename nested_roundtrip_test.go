package wsql

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format"
)

// nestedColumns are the columns of testdata/e2e/clicks_nested.jsonl.
const nestedColumns = "ts TIMESTAMP(3), `user` ROW<id BIGINT NOT NULL, name STRING, country STRING>, " +
	"items ARRAY<ROW<sku STRING, qty INT>>, tags ARRAY<STRING>, attrs MAP<STRING, INT>, seen MULTISET<STRING>"

const nestedDDL = "CREATE TABLE clicks (" + nestedColumns + ") WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');\n"

// The rows of clicks_nested.jsonl in Flink's text, as every round trip
// must give them back.
const nestedCSV = `ts,user,items,tags,attrs,seen
2024-03-01 09:00:01.000,"(1, ann, NL)","[(a1, 2), (b7, null)]","[new, mobile]","{ref=3, ab=1}","{home=2, cart=1}"
2024-03-01 09:00:02.000,"(2, null, DE)",[],,{},
2024-03-01 09:00:03.000,,"[null, (null, 1)]","[x, null, a ""quoted"" tag]",{ref=null},
2024-03-01 09:00:04.000,"(3, bo, NL)",,,,
2024-03-01 09:01:05.000,"(1, ann, NL)","[(c3, 5)]",[mobile],,
`

// Nested values round-trip JSON → query → JSON, Arrow IPC and Parquet:
// each read back gives the same rows, NULLs at every depth included.
func TestNestedTypesRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	query := nestedDDL + "SELECT * FROM clicks;"
	require.Equal(t, nestedCSV, string(runWith(t, query, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter {
		return NewCSVWriter(w, r.Schema, time.UTC)
	})))

	// JSON: the writer's lines are nested JSON, and read back as the table
	jsonOut := runWith(t, query, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewJSONWriter(w, r.Schema, time.UTC) })
	require.Equal(t, `{"ts":"2024-03-01 09:00:01.000","user":{"id":1,"name":"ann","country":"NL"},"items":[{"sku":"a1","qty":2},{"sku":"b7","qty":null}],"tags":["new","mobile"],"attrs":{"ref":3,"ab":1},"seen":{"home":2,"cart":1}}`,
		strings.SplitN(string(jsonOut), "\n", 2)[0])
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "out.jsonl")
	require.NoError(t, os.WriteFile(jsonPath, jsonOut, 0o644))
	back := "CREATE TABLE back (" + nestedColumns + ") WITH ('connector' = 'filesystem', 'path' = '" + filepath.ToSlash(jsonPath) + "', 'format' = 'json');\nSELECT * FROM back;"
	require.Equal(t, nestedCSV, string(runWith(t, back, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter {
		return NewCSVWriter(w, r.Schema, time.UTC)
	})))

	// Arrow IPC: struct, list and map arrays as they are
	arrowOut := runWith(t, query, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewArrowWriter(w, r.Schema) })
	rd, err := ipc.NewReader(bytes.NewReader(arrowOut), ipc.WithAllocator(mem))
	require.NoError(t, err)
	var recs []arrow.RecordBatch
	for rd.Next() {
		rec := rd.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, rd.Err())
	require.Equal(t, "ROW<`id` BIGINT NOT NULL, `name` STRING, `country` STRING>", format.SQLTypeName(rd.Schema().Field(1).Type))
	require.Equal(t, "MULTISET<STRING>", format.SQLTypeName(rd.Schema().Field(5).Type), "the multiset mark survives IPC")
	require.Equal(t, nestedCSV, csvOf(t, rd.Schema(), time.UTC, recs))
	for _, r := range recs {
		r.Release()
	}
	rd.Release()

	// Parquet: the sink writes nested columns natively
	pq := filepath.Join(dir, "out.parquet")
	out := runScript(t, nestedDDL+"CREATE TABLE pq ("+nestedColumns+") WITH ('connector' = 'filesystem', 'path' = '"+filepath.ToSlash(pq)+"', 'format' = 'parquet');\nINSERT INTO pq SELECT * FROM clicks;\n", 2)
	require.Equal(t, "-- 5 rows read, 0 late rows dropped, 0 bad rows skipped, 5 result rows\n", out)
	schema, rows := readParquet(t, pq)
	require.Equal(t, arrow.STRUCT, schema.Field(1).Type.ID())
	require.Equal(t, arrow.LIST, schema.Field(2).Type.ID())
	require.Equal(t, arrow.MAP, schema.Field(4).Type.ID())
	require.Equal(t, nestedCSV, rows)
}

// catalog and format name the MULTISET mark alike: catalog makes the
// type, format prints and reads it.
func TestMultisetMarkIsShared(t *testing.T) {
	require.Equal(t, catalog.MultisetMetadataKey, format.MultisetMetadataKey)
}
