package nexmark

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

// BenchmarkNexmarkBid is the bid table's reader alone: all 7 columns of
// 1M events (920,000 bids) per iteration.
func BenchmarkNexmarkBid(b *testing.B) {
	g, schema := newNexmark("bid", 1_000_000, 0)
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkNexmarkEvents is the event stream's reader alone, as Flink's
// nexmark declares it: all four columns of 1M events per iteration.
func BenchmarkNexmarkEvents(b *testing.B) {
	g, schema := newEvents(1_000_000, 0, [3]int64{})
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkNexmarkEventsBidView is the event stream as a windowed query
// over the bid view reads it: event_type and bid whole, the person and
// auction ROWs only for their dateTime.
func BenchmarkNexmarkEventsBidView(b *testing.B) {
	g, schema := newEvents(1_000_000, 0, [3]int64{})
	g.Read = []bool{true, true, true, true}
	g.Fields = [][]string{nil, {"dateTime"}, {"dateTime"}, nil}
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkNexmarkEventsBidPrice is the event stream as a query reading
// only bids' auction and price reads it (q2): a bid drawn no further than
// its price, its channel, url and extra left empty.
func BenchmarkNexmarkEventsBidPrice(b *testing.B) {
	g, schema := newEvents(1_000_000, 0, [3]int64{})
	g.Read = []bool{true, true, true, true}
	g.Fields = [][]string{nil, {"dateTime"}, {"dateTime"}, {"auction", "price", "dateTime"}}
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkNexmarkPrice is one bid's price draw alone.
func BenchmarkNexmarkPrice(b *testing.B) {
	r := generator.NewPCG(1, 2)
	var sum int64
	for range b.N {
		sum += nexmarkPrice(&r)
	}
	if sum == 0 {
		b.Fatal("no prices")
	}
}

// BenchmarkNexmarkLetters is an auction's extra: about 400 random letters.
func BenchmarkNexmarkLetters(b *testing.B) {
	r := generator.NewPCG(1, 2)
	buf := make([]byte, 0, 1024)
	for range b.N {
		buf = appendLetters(buf[:0], &r, 400)
	}
}

// BenchmarkNexmarkEventsBidQ7 is the event stream as q7 reads it: a bid's
// auction, bidder, price, dateTime and extra, not its channel and url.
func BenchmarkNexmarkEventsBidQ7(b *testing.B) {
	g, schema := newEvents(1_000_000, 0, [3]int64{})
	g.Read = []bool{true, true, true, true}
	g.Fields = [][]string{nil, {"dateTime"}, {"dateTime"}, {"auction", "bidder", "price", "dateTime", "extra"}}
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}

// BenchmarkNexmarkBidPrices is the prices of a batch of bids made from
// their draws (bidPrices).
func BenchmarkNexmarkBidPrices(b *testing.B) {
	r := generator.NewPCG(1, 2)
	draws, rows := make([]int64, 4096), make([]int32, 4096)
	for i := range draws {
		draws[i], rows[i] = int64(r.Uint64()), int32(i)
	}
	price := make([]int64, len(draws))
	for range b.N {
		copy(price, draws)
		bidPrices(price, rows)
	}
}

// BenchmarkNexmarkBidKeys is the bid table as Nexmark q11 reads it: its
// bidder and dateTime, no draw past the bidder, 1M events an iteration.
func BenchmarkNexmarkBidKeys(b *testing.B) {
	g, schema := newNexmark("bid", 1_000_000, 0)
	g.Read = []bool{false, true, false, false, false, true, false}
	generatortest.Bench(b, func() (exec.BatchReader, error) {
		return g.Open(memory.NewGoAllocator(), schema, exec.DefaultBatchSize)
	})
}
