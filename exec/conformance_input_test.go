package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

// The sample input the exec stages' conformance tests share: event time,
// a key, a value and the event time as text. Rows arrive out of order by
// less than the watermark delay (1 s), so no row is late.
var conformanceSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

type conformanceRow struct {
	ts int64
	k  string
	v  int64
	s  string // "" is NULL
}

func conformanceBatch(mem memory.Allocator, rows []conformanceRow) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, conformanceSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		b.Field(1).(*array.StringBuilder).Append(r.k)
		b.Field(2).(*array.Int64Builder).Append(r.v)
		if r.s == "" {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(r.s)
		}
	}
	return b.NewRecordBatch()
}

// conformanceSteps are the batches and the watermarks after each, with
// the per-row watermarks the assigner would attach (delay 1 s).
var conformanceSteps = []struct {
	rows []conformanceRow
	wms  []int64
	wm   int64
}{
	{rows: []conformanceRow{
		{1000, "a", 1, "1970-01-01 00:00:01"}, {2500, "b", 5, "1970-01-01 00:00:02"}, {1800, "a", 3, "bad"},
	}, wms: []int64{rowtime.MinWatermark, 0, 1500}, wm: 1500},
	{rows: []conformanceRow{
		{4200, "a", 2, ""}, {3900, "c", 4, "1970-01-01 00:00:03"}, {2100, "b", 6, "1970-01-01 00:00:02"},
	}, wms: []int64{1500, 3200, 3200}, wm: 3200},
	{rows: []conformanceRow{
		{6100, "b", 7, "1970-01-01 00:00:06"}, {5000, "a", 8, "1970-01-01 00:00:05"},
	}, wms: []int64{3200, 5100}, wm: 5100},
}

// conformanceInput is the sample input: with the per-row watermarks (a
// stage after the assigner), or without (a stage before it).
func conformanceInput(rowWatermarks bool) func(memory.Allocator) []pipelinetest.Step {
	return func(mem memory.Allocator) []pipelinetest.Step {
		var steps []pipelinetest.Step
		for _, s := range conformanceSteps {
			var wms []int64
			if rowWatermarks {
				wms = append([]int64(nil), s.wms...) // the test overwrites it after the call
			}
			steps = append(steps, pipelinetest.BatchStep(conformanceBatch(mem, s.rows), wms), pipelinetest.WatermarkStep(s.wm))
		}
		return steps
	}
}

func conformanceColumn(i int) *expr.ColumnExpr {
	f := conformanceSchema.Field(i)
	return &expr.ColumnExpr{Index: i, Name: f.Name, Type: f.Type}
}
