package joinop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/internal/cputime"
	"github.com/wsql/wsql/pipeline"
)

type discard struct{}

func (discard) ProcessBatch(pipeline.Batch) error { return nil }
func (discard) ProcessWatermark(int64) error      { return nil }
func (discard) ProcessEnd() error                 { return nil }
func (discard) Close()                            {}

var (
	benchBid = arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int64}, {Name: "bidder", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64}, {Name: "channel", Type: arrow.BinaryTypes.String},
		{Name: "url", Type: arrow.BinaryTypes.String}, {Name: "dateTime", Type: arrow.FixedWidthTypes.Timestamp_ms},
		{Name: "extra", Type: arrow.BinaryTypes.String},
	}, nil)
	benchAuction = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "itemName", Type: arrow.BinaryTypes.String},
		{Name: "description", Type: arrow.BinaryTypes.String}, {Name: "initialBid", Type: arrow.PrimitiveTypes.Int64},
		{Name: "reserve", Type: arrow.PrimitiveTypes.Int64}, {Name: "dateTime", Type: arrow.FixedWidthTypes.Timestamp_ms},
		{Name: "expires", Type: arrow.FixedWidthTypes.Timestamp_ms}, {Name: "seller", Type: arrow.PrimitiveTypes.Int64},
		{Name: "category", Type: arrow.PrimitiveTypes.Int64}, {Name: "extra", Type: arrow.BinaryTypes.String},
	}, nil)
)

// regularBenchInput is a batch of one input.
type regularBenchInput struct {
	input int
	rec   arrow.RecordBatch
}

// nexmarkBidsAuctions makes Nexmark's bids and auctions of events events
// (of every 50, 3 auctions and 46 bids; half the bids on the hot auction
// of the last hundred, the rest on one of the last hundred or the next
// ten), the bids joined on auction = id. Each 4096 events' bids are one
// batch and their auctions (those of category 10 when filtered, as q20's
// WHERE keeps) another. It returns the batches and their rows.
func nexmarkBidsAuctions(events int, filtered bool) ([]regularBenchInput, int) {
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(3, 20))
	var out []regularBenchInput
	rows := 0
	lastAuction := int64(0)
	for start := 0; start < events; start += 4096 {
		bids := array.NewRecordBuilder(mem, benchBid)
		auctions := array.NewRecordBuilder(mem, benchAuction)
		for e := start; e < min(start+4096, events); e++ {
			ts := arrow.Timestamp(1_700_000_000_000 + int64(e)/10)
			switch off := e % 50; {
			case off == 0: // a person
			case off <= 3:
				lastAuction++
				category := 10 + rnd.Int64N(5)
				if filtered && category != 10 {
					continue
				}
				f := auctions.Fields()
				f[0].(*array.Int64Builder).Append(1000 + lastAuction - 1)
				f[1].(*array.StringBuilder).Append(fmt.Sprintf("item-%d", rnd.IntN(100000)))
				f[2].(*array.StringBuilder).Append("a description of the item, some forty bytes")
				f[3].(*array.Int64Builder).Append(rnd.Int64N(1000))
				f[4].(*array.Int64Builder).Append(rnd.Int64N(2000))
				f[5].(*array.TimestampBuilder).Append(ts)
				f[6].(*array.TimestampBuilder).Append(ts + 10_000)
				f[7].(*array.Int64Builder).Append(1000 + rnd.Int64N(1000))
				f[8].(*array.Int64Builder).Append(category)
				f[9].(*array.StringBuilder).Append("")
			default:
				var auction int64
				if rnd.IntN(2) == 0 {
					auction = (lastAuction / 100) * 100
				} else {
					auction = max(lastAuction-100, 0) + rnd.Int64N(min(lastAuction, 100)+10)
				}
				f := bids.Fields()
				f[0].(*array.Int64Builder).Append(1000 + auction)
				f[1].(*array.Int64Builder).Append(1000 + rnd.Int64N(5000))
				f[2].(*array.Int64Builder).Append(rnd.Int64N(10_000_000))
				f[3].(*array.StringBuilder).Append("channel-" + fmt.Sprint(rnd.IntN(10000)))
				f[4].(*array.StringBuilder).Append("https://www.nexmark.com/abc/def/item.htm?query=1&channel_id=123456")
				f[5].(*array.TimestampBuilder).Append(ts)
				f[6].(*array.StringBuilder).Append("")
			}
		}
		for _, in := range []regularBenchInput{{0, bids.NewRecordBatch()}, {1, auctions.NewRecordBatch()}} {
			rows += int(in.rec.NumRows())
			out = append(out, in)
		}
		bids.Release()
		auctions.Release()
	}
	return out, rows
}

// benchJoin runs cfg over the batches, reporting input rows per
// CPU-second and the output rows per run.
func benchJoin(b *testing.B, cfg Config, batches []regularBenchInput, rows int) {
	defer func() {
		for _, in := range batches {
			in.rec.Release()
		}
	}()
	mem := memory.NewGoAllocator()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	var results int64
	for range b.N {
		op, err := New(cfg, mem, discard{})
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range batches {
			if err := op.ProcessInput(in.input, pipeline.Batch{Record: in.rec}); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.ProcessEnd(); err != nil {
			b.Fatal(err)
		}
		results = op.Stats().ResultRows
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/cpu.Seconds(), "rows/cpu-s")
	}
	b.ReportMetric(float64(results), "results")
}

// BenchmarkJoinNexmarkQ20 is q20's join: 2M events' bids INNER JOIN the
// auctions of category 10 on auction = id. Issue 19's target: 1M input
// rows per CPU-second.
func BenchmarkJoinNexmarkQ20(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, true)
	benchJoin(b, Config{Kind: Inner, Left: benchBid, Right: benchAuction, LeftKeys: []int{0}, RightKeys: []int{0}}, batches, rows)
}

// BenchmarkJoinBidsAuctions is the same join over every auction: about
// one output row per bid.
func BenchmarkJoinBidsAuctions(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, false)
	benchJoin(b, Config{Kind: Inner, Left: benchBid, Right: benchAuction, LeftKeys: []int{0}, RightKeys: []int{0}}, batches, rows)
}

// BenchmarkJoinBidsAuctionsLeftOuter is it as a LEFT OUTER join: every
// bid out, padded until its auction comes.
func BenchmarkJoinBidsAuctionsLeftOuter(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, false)
	benchJoin(b, Config{Kind: LeftOuter, Left: benchBid, Right: benchAuction, LeftKeys: []int{0}, RightKeys: []int{0}}, batches, rows)
}

// BenchmarkJoinNexmarkQ4 is q4's join: every auction INNER JOIN its bids
// on id = auction AND bid.dateTime BETWEEN auction.dateTime AND
// auction.expires, the residual evaluated on every pair of a key.
func BenchmarkJoinNexmarkQ4(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, false)
	ts := arrow.FixedWidthTypes.Timestamp_ms
	bidTime := &expr.ColumnExpr{Index: 5, Name: "dateTime", Type: ts}
	auctionTime := &expr.ColumnExpr{Index: 7 + 5, Name: "dateTime", Type: ts}
	expires := &expr.ColumnExpr{Index: 7 + 6, Name: "expires", Type: ts}
	residual := &expr.And{L: &expr.Compare{Op: ">=", L: bidTime, R: auctionTime}, R: &expr.Compare{Op: "<=", L: bidTime, R: expires}}
	benchJoin(b, Config{Kind: Inner, Left: benchBid, Right: benchAuction, LeftKeys: []int{0}, RightKeys: []int{0}, Residual: residual}, batches, rows)
}

// BenchmarkJoinStringKey is BenchmarkJoinBidsAuctions with the auction ids
// as STRING keys ("a1000", ...).
func BenchmarkJoinStringKey(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, false)
	mem := memory.NewGoAllocator()
	var schemas [2]*arrow.Schema
	for i, in := range batches {
		ids := in.rec.Column(0).(*array.Int64)
		sb := array.NewStringBuilder(mem)
		for r := 0; r < ids.Len(); r++ {
			sb.Append(fmt.Sprintf("a%d", ids.Value(r)))
		}
		cols := append([]arrow.Array{sb.NewArray()}, in.rec.Columns()[1:]...)
		sb.Release()
		fields := append([]arrow.Field{{Name: "key", Type: arrow.BinaryTypes.String}}, in.rec.Schema().Fields()[1:]...)
		schemas[in.input] = arrow.NewSchema(fields, nil)
		rec := array.NewRecordBatch(schemas[in.input], cols, in.rec.NumRows())
		cols[0].Release()
		in.rec.Release()
		batches[i].rec = rec
	}
	benchJoin(b, Config{Kind: Inner, Left: schemas[0], Right: schemas[1], LeftKeys: []int{0}, RightKeys: []int{0}}, batches, rows)
}

// BenchmarkJoinNexmarkQ4Pruned is BenchmarkJoinNexmarkQ4 with each side
// the columns q4 reads, as the planner prunes them: bids' auction, price
// and dateTime, auctions' id, dateTime, expires and category.
func BenchmarkJoinNexmarkQ4Pruned(b *testing.B) {
	batches, rows := nexmarkBidsAuctions(2_000_000, false)
	keep := [2][]int{{0, 2, 5}, {0, 5, 6, 8}}
	var schemas [2]*arrow.Schema
	for i, in := range batches {
		var fields []arrow.Field
		var cols []arrow.Array
		for _, c := range keep[in.input] {
			fields = append(fields, in.rec.Schema().Field(c))
			cols = append(cols, in.rec.Column(c))
		}
		schemas[in.input] = arrow.NewSchema(fields, nil)
		rec := array.NewRecordBatch(schemas[in.input], cols, in.rec.NumRows())
		in.rec.Release()
		batches[i].rec = rec
	}
	ts := arrow.FixedWidthTypes.Timestamp_ms
	bidTime := &expr.ColumnExpr{Index: 2, Name: "dateTime", Type: ts}
	auctionTime := &expr.ColumnExpr{Index: 3 + 1, Name: "dateTime", Type: ts}
	expires := &expr.ColumnExpr{Index: 3 + 2, Name: "expires", Type: ts}
	residual := &expr.And{L: &expr.Compare{Op: ">=", L: bidTime, R: auctionTime}, R: &expr.Compare{Op: "<=", L: bidTime, R: expires}}
	benchJoin(b, Config{Kind: Inner, Left: schemas[0], Right: schemas[1], LeftKeys: []int{0}, RightKeys: []int{0}, Residual: residual}, batches, rows)
}
