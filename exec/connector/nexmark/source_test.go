package nexmark

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

func nexmarkSchema(table string) (*arrow.Schema, []int) {
	var fields []arrow.Field
	var cols []int
	for i, c := range Columns(table) {
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type})
		cols = append(cols, i)
	}
	return arrow.NewSchema(fields, nil), cols
}

func newNexmark(table string, events, seed int64) (*Source, *arrow.Schema) {
	schema, cols := nexmarkSchema(table)
	return &Source{Table: table, Columns: cols, EventsNum: events, Rate: 1000, TimeStart: 1_700_000_000_000, Seed: seed}, schema
}

func TestNexmarkMixOverFiveThousandEvents(t *testing.T) {
	want := map[string]int{"person": 100, "auction": 300, "bid": 4600}
	for table, n := range want {
		g, schema := newNexmark(table, 5000, 0)
		require.Equal(t, int64(n), g.Rows(), table)
		require.Len(t, generatortest.Drain(t, g, schema, 4096), n, table)
	}
	// A partial cycle: events 0..53 hold persons 0, 50; auctions 1-3, 51-53.
	for table, n := range map[string]int64{"person": 2, "auction": 6, "bid": 46} {
		g, _ := newNexmark(table, 54, 0)
		require.Equal(t, n, g.Rows(), table)
	}
	// The k-th row of each table is the event the mix puts there.
	g, _ := newNexmark("bid", -1, 0)
	require.Equal(t, []int64{4, 49, 54}, []int64{g.EventID(0), g.EventID(45), g.EventID(46)})
	g, _ = newNexmark("auction", -1, 0)
	require.Equal(t, []int64{1, 3, 51}, []int64{g.EventID(0), g.EventID(2), g.EventID(3)})
	g, _ = newNexmark("person", -1, 0)
	require.Equal(t, []int64{0, 50}, []int64{g.EventID(0), g.EventID(1)})
	require.False(t, g.Bounded())
}

func TestNexmarkIsDeterministicWhateverTheBatchSize(t *testing.T) {
	for _, table := range Tables() {
		g, schema := newNexmark(table, 3000, 42)
		want := generatortest.Drain(t, g, schema, 4096)
		for _, size := range []int{1, 7} {
			require.Equal(t, want, generatortest.Drain(t, g, schema, size), "%s at batch size %d", table, size)
		}
		other, _ := newNexmark(table, 3000, 43)
		require.NotEqual(t, want, generatortest.Drain(t, other, schema, 4096))
	}
}

func TestNexmarkEventTimeFollowsTheRate(t *testing.T) {
	for _, table := range Tables() {
		g, schema := newNexmark(table, 5000, 0)
		g.Rate = 3 // 3 events per second: event i at start + i*1000/3 ms
		ts := schema.FieldIndices("dateTime")[0]
		var k int64
		last := int64(-1)
		generatortest.EachBatch(t, g, schema, 100, func(rec arrow.RecordBatch) {
			col := rec.Column(ts).(*array.Timestamp)
			for i := range col.Len() {
				v := int64(col.Value(i))
				require.Equal(t, g.TimeStart+g.EventID(k)*1000/3, v)
				require.GreaterOrEqual(t, v, last, "event time never decreases")
				last = v
				k++
			}
		})
		require.Equal(t, g.Rows(), k)
	}
}

func TestNexmarkBidsReferenceRecentAuctionsAndPersons(t *testing.T) {
	g, schema := newNexmark("bid", 20000, 0)
	var k int64
	generatortest.EachBatch(t, g, schema, 4096, func(rec arrow.RecordBatch) {
		auction := rec.Column(0).(*array.Int64)
		bidder := rec.Column(1).(*array.Int64)
		price := rec.Column(2).(*array.Int64)
		for i := range auction.Len() {
			id := g.EventID(k)
			lastAuction := nexmarkFirstAuctionID + g.mix().lastAuction(g.mix().split(id))
			require.True(t, auction.Value(i) >= nexmarkFirstAuctionID && auction.Value(i) <= lastAuction+nexmarkAuctionIDLead, "auction %d at event %d", auction.Value(i), id)
			lastPerson := nexmarkFirstPersonID + g.mix().lastPerson(g.mix().split(id))
			require.True(t, bidder.Value(i) >= nexmarkFirstPersonID && bidder.Value(i) <= lastPerson+nexmarkPersonIDLead+1)
			require.True(t, price.Value(i) >= 100 && price.Value(i) <= 100_000_000)
			k++
		}
	})
	require.Equal(t, int64(18400), k)
}

// TestNexmarkMakesThePinnedRows: the hashes of the rows the tables made
// before the generator was rewritten for speed.
func TestNexmarkMakesThePinnedRows(t *testing.T) {
	for table, want := range map[string]string{"person": "f073585cc6fd060f", "auction": "b652ca4b1cb6f8f3", "bid": "26b82aa5997aa9aa"} {
		g, schema := newNexmark(table, 20000, 42)
		got := generatortest.Hash(t, g, schema, 1000)
		if got != want {
			t.Errorf("nexmark %s: hash %s, want %s", table, got, want)
		}
	}
}
