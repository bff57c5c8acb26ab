package expr

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

// CURRENT_WATERMARK(rowtime) is the watermark each row arrived under (a
// pipeline batch's Watermarks). An expression sees only a record, so a
// stage whose expressions read the watermark (ReadsWatermark) evaluates
// them over the record with one more column at its end, WatermarkColumn,
// holding each row's watermark (WithWatermarks). A subset of the rows
// (CASE evaluating a branch) takes that column along.

// WatermarkColumn names the column WithWatermarks appends.
const WatermarkColumn = "$watermark"

// CurrentWatermark is CURRENT_WATERMARK(Of): the row's watermark as Type,
// the rowtime's type at precision 3; NULL before the first watermark.
type CurrentWatermark struct {
	Of   Expr
	Type arrow.DataType
}

func (e *CurrentWatermark) DataType() arrow.DataType { return e.Type }
func (e *CurrentWatermark) String() string           { return "CURRENT_WATERMARK(" + e.Of.String() + ")" }

func (e *CurrentWatermark) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	last := int(rec.NumCols()) - 1
	if last < 0 || rec.Schema().Field(last).Name != WatermarkColumn {
		return nil, errors.New("CURRENT_WATERMARK: the watermark does not reach this expression")
	}
	wms := valuesOf[int64](rec.Column(last))
	n := len(wms)
	vb, out := NewValues[int64](mem, n)
	nb, valid := NewBits(mem, n)
	nulls := 0
	for i, w := range wms {
		if w == rowtime.MinWatermark {
			nulls++
			continue
		}
		out[i] = w
		bitutil.SetBit(valid, i)
	}
	if nulls == 0 {
		nb.Release()
		nb = nil
	}
	return NewArray(e.Type, n, nb, nulls, vb), nil
}

// ReadsWatermark reports whether e calls CURRENT_WATERMARK.
func ReadsWatermark(e Expr) bool {
	return anyExpr(e, func(x Expr) bool {
		_, ok := x.(*CurrentWatermark)
		return ok
	})
}

var watermarkField = arrow.Field{Name: WatermarkColumn, Type: arrow.PrimitiveTypes.Int64}

// WithWatermarks is rec with WatermarkColumn appended: wms[i] for row i,
// or last for every row when wms is nil (the rows arrived under the
// watermark last forwarded). The caller releases the record.
func WithWatermarks(rec arrow.RecordBatch, wms []int64, last int64, mem memory.Allocator) arrow.RecordBatch {
	n := int(rec.NumRows())
	vb, out := NewValues[int64](mem, n)
	if wms != nil {
		copy(out, wms)
	} else {
		for i := range out {
			out[i] = last
		}
	}
	col := NewArray(arrow.PrimitiveTypes.Int64, n, nil, 0, vb)
	defer col.Release()
	fields := append(append([]arrow.Field(nil), rec.Schema().Fields()...), watermarkField)
	cols := append(append([]arrow.Array(nil), rec.Columns()...), col)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
}
