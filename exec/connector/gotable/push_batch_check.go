package gotable

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
)

// checkPushedValues refuses a pushed Arrow batch holding what the file
// decoders never produce: a STRING that is not valid UTF-8, or a DECIMAL
// with more digits than its precision. The error names the column and the
// row (1-based within the batch). Both checks are one pass over the
// column's buffers.
func checkPushedValues(rec arrow.RecordBatch) error {
	for c, f := range rec.Schema().Fields() {
		row := 0
		switch a := rec.Column(c).(type) {
		case *array.String:
			row = invalidUTF8Row(a, a.ValueOffsets(), a.ValueBytes())
		case *array.LargeString:
			row = invalidUTF8Row(a, a.ValueOffsets(), a.ValueBytes())
		case *array.Decimal128:
			dt := a.DataType().(*arrow.Decimal128Type)
			for i, v := range a.Values() {
				if !v.FitsInPrecision(dt.Precision) && a.IsValid(i) {
					row = i + 1
					break
				}
			}
			if row > 0 {
				return fmt.Errorf("column %s is %s and row %d of the batch holds %s, more digits than its precision", f.Name, format.SQLTypeName(f.Type), row, a.Value(row-1).ToString(dt.Scale))
			}
			continue
		default:
			continue
		}
		if row > 0 {
			return fmt.Errorf("column %s is STRING and row %d of the batch is not valid UTF-8", f.Name, row)
		}
	}
	return nil
}

// invalidUTF8Row is the 1-based row of the first non-NULL value that is
// not valid UTF-8, or 0. data holds the values' bytes from offsets[0] on.
// The common case is one check of the whole range: when it is valid and
// every value starts at a rune boundary, every value is valid.
func invalidUTF8Row[O int32 | int64](a arrow.Array, offsets []O, data []byte) int {
	n := a.Len()
	if n == 0 {
		return 0
	}
	base := offsets[0]
	if utf8.Valid(data) {
		aligned := true
		for _, off := range offsets[1:n] {
			if int(off-base) < len(data) && !utf8.RuneStart(data[off-base]) {
				aligned = false
				break
			}
		}
		if aligned {
			return 0
		}
	}
	for i := range n {
		if a.IsValid(i) && !utf8.Valid(data[offsets[i]-base:offsets[i+1]-base]) {
			return i + 1
		}
	}
	return 0 // the invalid bytes lie under NULLs only
}
