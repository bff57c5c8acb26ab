package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

// The sample input the window operators' conformance tests share: event
// time, a key and a value. Rows arrive out of order by less than the
// watermark delay (1 s) and no row is late, so every result reaches the
// downstream before the watermark that completes its window.
var confSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
}, nil)

type confRow struct {
	ts int64
	k  string
	v  int64
}

func confBatch(mem memory.Allocator, rows []confRow) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, confSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		b.Field(1).(*array.StringBuilder).Append(r.k)
		b.Field(2).(*array.Int64Builder).Append(r.v)
	}
	return b.NewRecordBatch()
}

// confSteps are the batches, each with its per-row watermarks and the
// watermark after it.
var confSteps = []struct {
	rows []confRow
	wms  []int64
	wm   int64
}{
	{[]confRow{{1000, "a", 1}, {2500, "b", 5}, {1800, "a", 3}}, []int64{rowtime.MinWatermark, 0, 1500}, 1500},
	{[]confRow{{4200, "a", 2}, {3900, "c", 4}, {3700, "b", 6}}, []int64{1500, 3200, 3200}, 3200},
	{[]confRow{{6100, "b", 7}, {5300, "a", 8}}, []int64{3200, 5100}, 5100},
}

// confInput is the sample input.
func confInput(mem memory.Allocator) []pipelinetest.Step {
	var steps []pipelinetest.Step
	for _, s := range confSteps {
		wms := append([]int64(nil), s.wms...) // the test overwrites it after the call
		steps = append(steps, pipelinetest.BatchStep(confBatch(mem, s.rows), wms), pipelinetest.WatermarkStep(s.wm))
	}
	return steps
}

// confFailingInput has a row whose event time is too far from the epoch
// for its windows to be computed, after a batch of good rows.
func confFailingInput(mem memory.Allocator) []pipelinetest.Step {
	return []pipelinetest.Step{
		pipelinetest.BatchStep(confBatch(mem, confSteps[0].rows), nil),
		pipelinetest.WatermarkStep(confSteps[0].wm),
		pipelinetest.BatchStep(confBatch(mem, []confRow{{2000, "a", 1}, {maxRowTime + 1, "b", 2}}), nil),
	}
}

// confAggs covers the kinds of accumulator state: counts, sums, strings
// kept from the input (MAX, LISTAGG) and distinct sets.
var confAggs = []AggSpec{
	{Kind: CountStar, Name: "n"},
	{Kind: Sum, Input: 2, Name: "total"},
	{Kind: Max, Input: 1, Name: "top"},
	{Kind: ListAgg, Input: 1, Name: "keys", Separator: ","},
	{Kind: Count, Input: 2, Name: "values", Distinct: true},
}
