package writer

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
)

var (
	tsType  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

// testSchema is a schema of nullable columns given as name, type pairs.
func testSchema(fields ...any) *arrow.Schema {
	var fs []arrow.Field
	for i := 0; i < len(fields); i += 2 {
		fs = append(fs, arrow.Field{Name: fields[i].(string), Type: fields[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// recordRows is rec's rows as value text, NULL as "NULL".
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
