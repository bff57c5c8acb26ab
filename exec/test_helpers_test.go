package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
)

var (
	tsType  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

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

func col(rec arrow.RecordBatch, i int) *expr.ColumnExpr {
	return &expr.ColumnExpr{Index: i, Name: rec.Schema().Field(i).Name, Type: rec.Column(i).DataType()}
}

func lit(dt arrow.DataType, v any) *expr.Literal {
	l := &expr.Literal{Type: dt}
	switch v := v.(type) {
	case nil:
		l.Null = true
	case int:
		l.Int = int64(v)
	case bool:
		if v {
			l.Int = 1
		}
	case float64:
		l.Float = v
	case string:
		l.Str = v
	}
	return l
}

var (
	i32 = arrow.PrimitiveTypes.Int32
	i64 = arrow.PrimitiveTypes.Int64
	f64 = arrow.PrimitiveTypes.Float64
	str = arrow.BinaryTypes.String
	boo = arrow.FixedWidthTypes.Boolean
)
