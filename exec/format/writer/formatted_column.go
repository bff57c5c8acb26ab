package writer

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
)

// formattedColumn holds the text of one column of a batch: cell i is
// data[ends[i-1]:ends[i]]. Its slices are reused from batch to batch.
type formattedColumn struct {
	data  []byte
	ends  []int
	nulls []bool
	csv   bool // BYTES as base64, as Flink's csv format writes them, not x'..'

	elements string // csv_elements.go
	// precision is a TIMESTAMP's or TIME's between Arrow's units
	// (timeprecision), -1 for other columns
	precision int
}

// formattedColumns are the columns of schema, ready to format.
func formattedColumns(schema *arrow.Schema) []formattedColumn {
	cols := make([]formattedColumn, schema.NumFields())
	for j, f := range schema.Fields() {
		cols[j].precision = timeprecision.Of(f)
	}
	return cols
}

// format renders every value of arr, choosing the formatter once per column.
func (fc *formattedColumn) format(arr arrow.Array, loc *time.Location) {
	fc.data, fc.ends, fc.nulls = fc.data[:0], fc.ends[:0], fc.nulls[:0]
	app := format.ValueAppender(arr, loc)
	if fc.csv {
		app = format.CSVValueAppender(arr, loc)
	}
	if fc.elements != "" {
		app = csvElementAppender(arr, loc, fc.elements, app)
	}
	app = timeprecision.Trim(app, fc.precision)
	for i := 0; i < arr.Len(); i++ {
		null := arr.IsNull(i)
		if !null {
			fc.data = app(fc.data, i)
		}
		fc.nulls = append(fc.nulls, null)
		fc.ends = append(fc.ends, len(fc.data))
	}
}

func (fc *formattedColumn) cell(i int) []byte {
	start := 0
	if i > 0 {
		start = fc.ends[i-1]
	}
	return fc.data[start:fc.ends[i]]
}

// naturalTextWidth is the text width every value of a fixed-width type has (0 if
// it varies), so a table can size such columns before seeing data.
func naturalTextWidth(dt arrow.DataType) int {
	switch t := dt.(type) {
	case *arrow.TimestampType:
		return 19 + fractionTextWidth(t.Unit)
	case *arrow.Date32Type, *arrow.Date64Type:
		return 10
	case *arrow.Time32Type:
		return 8 + fractionTextWidth(t.Unit)
	case *arrow.Time64Type:
		return 8 + fractionTextWidth(t.Unit)
	case *arrow.BooleanType:
		return 5
	}
	return 0
}

// rightAligned tells which columns read best right-aligned.
func rightAligned(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16,
		arrow.UINT32, arrow.UINT64, arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

func fractionTextWidth(u arrow.TimeUnit) int {
	if d := format.TimeUnitDigits(u); d > 0 {
		return d + 1
	}
	return 0
}
