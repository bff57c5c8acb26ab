package joinop

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/internal/cputime"
	"github.com/wsql/wsql/pipeline"
)

type discardSink struct{}

func (discardSink) ProcessBatch(pipeline.Batch) error { return nil }
func (discardSink) ProcessWatermark(int64) error      { return nil }
func (discardSink) ProcessEnd() error                 { return nil }
func (discardSink) Close()                            {}

// benchInput is one ProcessInput call of a benchmark, or (rec nil) a
// ProcessWatermark.
type benchInput struct {
	input int
	rec   arrow.RecordBatch
	wms   []int64
	wm    int64
}

// runBench feeds the inputs to a new join of cfg b.N times and reports
// input rows per CPU-second.
func runBench(b *testing.B, cfg Config, mem memory.Allocator, inputs []benchInput) {
	rows := 0
	for _, in := range inputs {
		if in.rec != nil {
			rows += int(in.rec.NumRows())
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for range b.N {
		op, err := New(cfg, mem, discardSink{})
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range inputs {
			if in.rec == nil {
				err = op.ProcessWatermark(in.wm)
			} else {
				err = op.ProcessInput(in.input, pipeline.Batch{Record: in.rec, Watermarks: in.wms})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := op.ProcessEnd(); err != nil {
			b.Fatal(err)
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/cpu.Seconds(), "rows/cpu-s")
	}
}

var (
	benchBids = arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64},
		{Name: "dateTime", Type: tsType},
	}, nil)
	benchAuctions = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "reserve", Type: arrow.PrimitiveTypes.Int64},
		{Name: "dateTime", Type: tsType},
	}, nil)
)

// BenchmarkIntervalJoin joins 1M events, Nexmark's bids and auctions (46
// to 3), a bid with its auction when it came within 10 s after it: bids
// name one of the last 200 auctions, a millisecond an event, batches of
// 4096 bids and the auctions of their time, the watermark 100 ms behind.
// The residual price >= reserve holds for half the pairs.
func BenchmarkIntervalJoin(b *testing.B) {
	mem := memory.NewGoAllocator()
	const events, slice = 1 << 20, 4096
	rnd := rand.New(rand.NewPCG(1, 2))
	var inputs []benchInput
	auctions := int64(0)
	bids := array.NewRecordBuilder(mem, benchBids)
	aucs := array.NewRecordBuilder(mem, benchAuctions)
	defer bids.Release()
	defer aucs.Release()
	flush := func(t int64) {
		wm := t - 100
		for side, bld := range []*array.RecordBuilder{bids, aucs} {
			rec := bld.NewRecordBatch()
			wms := make([]int64, rec.NumRows())
			for i := range wms {
				wms[i] = wm
			}
			inputs = append(inputs, benchInput{input: side, rec: rec, wms: wms})
		}
		inputs = append(inputs, benchInput{wm: wm})
	}
	n := 0
	for t := int64(0); t < events; t++ {
		if rnd.IntN(49) < 3 {
			aucs.Field(0).(*array.Int64Builder).Append(auctions)
			aucs.Field(1).(*array.Int64Builder).Append(rnd.Int64N(1000))
			aucs.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(t))
			auctions++
			continue
		}
		bids.Field(0).(*array.Int64Builder).Append(max(0, auctions-1-rnd.Int64N(200)))
		bids.Field(1).(*array.Int64Builder).Append(rnd.Int64N(2000))
		bids.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(t))
		if n++; n%slice == 0 {
			flush(t)
		}
	}
	flush(events)
	defer func() {
		for _, in := range inputs {
			if in.rec != nil {
				in.rec.Release()
			}
		}
	}()
	cfg := Config{Kind: Inner, Left: benchBids, Right: benchAuctions, LeftKeys: []int{0}, RightKeys: []int{0},
		Residual: residualPriceOverReserve(),
		Interval: &Interval{LeftTime: 2, RightTime: 2, Lower: 0, Upper: 10_000}}
	b.Run("inner", func(b *testing.B) { runBench(b, cfg, mem, inputs) })
	cfg.Kind = FullOuter
	b.Run("full", func(b *testing.B) { runBench(b, cfg, mem, inputs) })
	// each row under its own watermark, its time - 100 ms, as a source's
	// watermark generator gives them: the state expires row by row
	perRow := make([]benchInput, len(inputs))
	for i, in := range inputs {
		perRow[i] = in
		if in.rec != nil {
			perRow[i].wms = make([]int64, in.rec.NumRows())
			for r, t := range in.rec.Column(2).(*array.Timestamp).TimestampValues() {
				perRow[i].wms[r] = int64(t) - 100
			}
		}
	}
	cfg.Kind = Inner
	b.Run("inner-row-watermarks", func(b *testing.B) { runBench(b, cfg, mem, perRow) })
	// the rows of both sides in order of time, a batch per run of one
	// side's rows: probes and keeps alternate
	b.Run("inner-interleaved", func(b *testing.B) {
		batches := interleaved(inputs)
		defer func() {
			for _, in := range batches {
				in.rec.Release()
			}
		}()
		runBench(b, cfg, mem, batches)
	})
}

// interleaved is the rows of inputs in order of time (bids before
// auctions at a tie), a batch per run of one side's rows, each row under
// its time - 100 ms; the batches are slices of inputs' records.
func interleaved(inputs []benchInput) []benchInput {
	type at struct {
		in, row int
		t       int64
	}
	var rows []at
	for i, in := range inputs {
		if in.rec != nil {
			for r, t := range in.rec.Column(2).(*array.Timestamp).TimestampValues() {
				rows = append(rows, at{in: i, row: r, t: int64(t)})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b at) int { return cmp.Compare(a.t, b.t) })
	var out []benchInput
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].in == rows[i].in && rows[j].row == rows[j-1].row+1 {
			j++
		}
		in := inputs[rows[i].in]
		rec := in.rec.NewSlice(int64(rows[i].row), int64(rows[j-1].row+1))
		wms := make([]int64, 0, j-i)
		for _, r := range rows[i:j] {
			wms = append(wms, r.t-100)
		}
		out = append(out, benchInput{input: in.input, rec: rec, wms: wms})
		i = j
	}
	return out
}

func residualPriceOverReserve() *expr.Compare {
	return &expr.Compare{Op: ">=",
		L: &expr.ColumnExpr{Index: 1, Name: "price", Type: arrow.PrimitiveTypes.Int64},
		R: &expr.ColumnExpr{Index: 4, Name: "reserve", Type: arrow.PrimitiveTypes.Int64}}
}

var (
	benchPersons = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "window_start", Type: tsType},
		{Name: "window_end", Type: tsType},
	}, nil)
	benchSellers = arrow.NewSchema([]arrow.Field{
		{Name: "seller", Type: arrow.PrimitiveTypes.Int64},
		{Name: "window_start", Type: tsType},
		{Name: "window_end", Type: tsType},
	}, nil)
)

// BenchmarkWindowJoin is Nexmark q8's join: the persons new in a 10 s
// tumbling window with the sellers of auctions in the same window, 1M
// rows of windows of 10000 persons and 10000 sellers, half of the sellers
// new persons of the window, in batches of 4096 per side, each window
// fired by the watermark after its rows.
func BenchmarkWindowJoin(b *testing.B) {
	mem := memory.NewGoAllocator()
	const rows, perWindow, size = 1 << 20, 10_000, 4096
	rnd := rand.New(rand.NewPCG(3, 4))
	var inputs []benchInput
	persons := array.NewRecordBuilder(mem, benchPersons)
	sellers := array.NewRecordBuilder(mem, benchSellers)
	defer persons.Release()
	defer sellers.Release()
	flush := func(side int, bld *array.RecordBuilder, wm int64) {
		rec := bld.NewRecordBatch()
		wms := make([]int64, rec.NumRows())
		for i := range wms {
			wms[i] = wm
		}
		inputs = append(inputs, benchInput{input: side, rec: rec, wms: wms})
	}
	id := int64(0)
	for w := int64(0); w*2*perWindow < rows; w++ {
		start, end := w*10_000, (w+1)*10_000
		wm := start - 1
		first := id
		for i := range perWindow {
			persons.Field(0).(*array.Int64Builder).Append(id)
			persons.Field(1).(*array.StringBuilder).Append("person")
			persons.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(start))
			persons.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(end))
			id++
			if (i+1)%size == 0 {
				flush(0, persons, wm)
			}
		}
		flush(0, persons, wm)
		for i := range perWindow {
			seller := first + rnd.Int64N(perWindow)
			if i%2 == 1 {
				seller = rnd.Int64N(max(1, first))
			}
			sellers.Field(0).(*array.Int64Builder).Append(seller)
			sellers.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(start))
			sellers.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(end))
			if (i+1)%size == 0 {
				flush(1, sellers, wm)
			}
		}
		flush(1, sellers, wm)
		inputs = append(inputs, benchInput{wm: end - 1})
	}
	defer func() {
		for _, in := range inputs {
			if in.rec != nil {
				in.rec.Release()
			}
		}
	}()
	cfg := Config{Kind: Inner, Left: benchPersons, Right: benchSellers, LeftKeys: []int{0}, RightKeys: []int{0},
		Window: &Window{LeftStart: 2, LeftEnd: 3, RightStart: 1, RightEnd: 2}}
	b.Run("inner", func(b *testing.B) { runBench(b, cfg, mem, inputs) })
	cfg.Kind = FullOuter
	b.Run("full", func(b *testing.B) { runBench(b, cfg, mem, inputs) })
	cfg.Kind = Semi
	b.Run("semi", func(b *testing.B) { runBench(b, cfg, mem, inputs) })
}
