package filesystem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/windowop"
)

var (
	tsType  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

// csvSchema builds a schema of nullable fields from name, type pairs.
func csvSchema(fields ...any) *arrow.Schema {
	var fs []arrow.Field
	for i := 0; i < len(fields); i += 2 {
		fs = append(fs, arrow.Field{Name: fields[i].(string), Type: fields[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

type eventRow struct {
	ts int64
	k  string
	v  int64
}

func eventsCSV(rows []eventRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%d\n", time.UnixMilli(r.ts).UTC().Format("2006-01-02 15:04:05.000"), r.k, r.v)
	}
	return b.String()
}

// splitJob counts rows and sums v per key over one-minute tumbling windows
// of the files at path.
func splitJob(t *testing.T, path string, delay int64) *exec.Job {
	t.Helper()
	schema := csvSchema("ts", tsType, "k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Int64)
	splits, err := textsource.ListSplits(path)
	require.NoError(t, err)
	tumble, err := windowop.NewTumble(60_000, 0)
	require.NoError(t, err)
	cfg := windowop.Config{
		Input: schema, RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: tumble, GapIndex: -1,
		Aggs: []windowop.AggSpec{{Kind: windowop.CountStar, Name: "n"}, {Kind: windowop.Sum, Input: 2, Name: "sv"}},
	}
	out, err := cfg.OutputSchema()
	require.NoError(t, err)
	cols := make([]int, out.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return &exec.Job{
		Source:       &textsource.Source{Path: path, Splits: splits, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: schema}},
		RowtimeIndex: 0,
		DelayMillis:  delay,
		Window:       &cfg,
		Project:      exec.ProjectSpec{Columns: cols, Schema: out},
	}
}

// recordRows is rec as text, a row at a time; NULL for a null.
func recordRows(rec arrow.RecordBatch) [][]string {
	var rows [][]string
	for i := 0; i < int(rec.NumRows()); i++ {
		row := make([]string, rec.NumCols())
		for j, col := range rec.Columns() {
			if col.IsNull(i) {
				row[j] = "NULL"
			} else {
				row[j] = string(format.AppendValue(nil, col, i, nil))
			}
		}
		rows = append(rows, row)
	}
	return rows
}
