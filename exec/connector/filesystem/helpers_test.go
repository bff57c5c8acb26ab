package filesystem

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format"
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

// splitJob counts rows and sums v per key over one-minute tumbling windows
// of the files at path.
func splitJob(t *testing.T, path string, delay int64) *exec.Job {
	t.Helper()
	splits, err := textsource.ListSplits(path)
	require.NoError(t, err)
	src := &textsource.Source{Path: path, Splits: splits, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: exectest.EventSchema()}}
	return exectest.CountJob(t, src, delay)
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
