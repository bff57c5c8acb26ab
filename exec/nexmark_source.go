package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The Nexmark generator's constants (as in Beam's and Flink's
// GeneratorConfig): of every 50 events the first is a person, the next 3
// auctions and the other 46 bids.
const (
	nexmarkPersonProportion  = 1
	nexmarkAuctionProportion = 3
	nexmarkBidProportion     = 46
	nexmarkDenominator       = nexmarkPersonProportion + nexmarkAuctionProportion + nexmarkBidProportion

	nexmarkFirstPersonID   = 1000
	nexmarkFirstAuctionID  = 1000
	nexmarkFirstCategoryID = 10
	nexmarkNumCategories   = 5
	nexmarkActivePeople    = 1000 // persons a new auction or bid picks from
	nexmarkPersonIDLead    = 10   // ids a little ahead of the last person
	nexmarkInFlightAuction = 100  // auctions a bid picks from
	nexmarkAuctionIDLead   = 10
	nexmarkHotAuctionRatio = 100 // hot auction ids are multiples of this
	nexmarkHotSellerRatio  = 100
	nexmarkHotBidderRatio  = 100
	nexmarkHotChannels     = 4

	nexmarkAvgPersonSize  = 200
	nexmarkAvgAuctionSize = 500
	nexmarkAvgBidSize     = 100
)

// NexmarkColumn is a column of a Nexmark table.
type NexmarkColumn struct {
	Name string
	Type arrow.DataType
}

var (
	nexmarkString = arrow.BinaryTypes.String
	nexmarkBigint = arrow.PrimitiveTypes.Int64
	nexmarkTime   = &arrow.TimestampType{Unit: arrow.Millisecond}

	nexmarkTables = map[string][]NexmarkColumn{
		"person": {{"id", nexmarkBigint}, {"name", nexmarkString}, {"emailAddress", nexmarkString},
			{"creditCard", nexmarkString}, {"city", nexmarkString}, {"state", nexmarkString},
			{"dateTime", nexmarkTime}, {"extra", nexmarkString}},
		"auction": {{"id", nexmarkBigint}, {"itemName", nexmarkString}, {"description", nexmarkString},
			{"initialBid", nexmarkBigint}, {"reserve", nexmarkBigint}, {"dateTime", nexmarkTime},
			{"expires", nexmarkTime}, {"seller", nexmarkBigint}, {"category", nexmarkBigint}, {"extra", nexmarkString}},
		"bid": {{"auction", nexmarkBigint}, {"bidder", nexmarkBigint}, {"price", nexmarkBigint},
			{"channel", nexmarkString}, {"url", nexmarkString}, {"dateTime", nexmarkTime}, {"extra", nexmarkString}},
	}
	nexmarkTableNames = []string{"person", "auction", "bid"}
)

// NexmarkTables names the tables of the 'nexmark' connector.
func NexmarkTables() []string { return append([]string(nil), nexmarkTableNames...) }

// NexmarkColumns returns the columns of a Nexmark table, nil for an
// unknown one; dateTime is the event time.
func NexmarkColumns(table string) []NexmarkColumn { return nexmarkTables[table] }

// NexmarkSource is the 'nexmark' connector: one table (person, auction or
// bid) of the Nexmark benchmark's event stream. Event i (from 0) is a
// person, an auction or a bid by i mod 50, its time is TimeStart +
// i*1000/Rate ms, and its values come from a PCG seeded with (Seed, i): the
// stream is the same whatever the batch size. The source is not paced:
// Rate only spaces the event times.
type NexmarkSource struct {
	Table string
	// Columns gives, for each schema field, the index of its column in
	// NexmarkColumns(Table).
	Columns   []int
	EventsNum int64 // events of all three kinds; -1 unbounded
	Rate      int64 // events per second of event time
	TimeStart int64 // event time of event 0, epoch ms of a TIMESTAMP
	Seed      int64
}

// kindRange is where a table's events fall within each 50 events.
func (s *NexmarkSource) kindRange() (offset, count int64) {
	switch s.Table {
	case "person":
		return 0, nexmarkPersonProportion
	case "auction":
		return nexmarkPersonProportion, nexmarkAuctionProportion
	}
	return nexmarkPersonProportion + nexmarkAuctionProportion, nexmarkBidProportion
}

// Rows is how many rows of the table the first EventsNum events hold, or
// -1 when unbounded.
func (s *NexmarkSource) Rows() int64 {
	if s.EventsNum < 0 {
		return -1
	}
	off, cnt := s.kindRange()
	rest := s.EventsNum % nexmarkDenominator
	return s.EventsNum/nexmarkDenominator*cnt + min(max(rest-off, 0), cnt)
}

// EventID is the event number of the table's k-th row.
func (s *NexmarkSource) EventID(k int64) int64 {
	off, cnt := s.kindRange()
	return k/cnt*nexmarkDenominator + off + k%cnt
}

// Bounded reports whether the source ends by itself.
func (s *NexmarkSource) Bounded() bool { return s.EventsNum >= 0 }

// Explain lists the connector's key options for EXPLAIN.
func (s *NexmarkSource) Explain() string {
	num := "unbounded"
	if s.EventsNum >= 0 {
		num = "events.num=[" + strconv.FormatInt(s.EventsNum, 10) + "]"
	}
	return fmt.Sprintf("connector=[nexmark], nexmark.table=[%s], %s, events.rate=[%d], event.time.start=[%s], seed=[%d]",
		s.Table, num, s.Rate, formatMillisTimestamp(s.TimeStart), s.Seed)
}

func formatMillisTimestamp(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
}

// Open starts a read.
func (s *NexmarkSource) Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (BatchReader, error) {
	cols := NexmarkColumns(s.Table)
	if cols == nil || len(s.Columns) != schema.NumFields() || s.Rate <= 0 {
		return nil, fmt.Errorf("%w: nexmark table %q is misconfigured", ErrSource, s.Table)
	}
	f := &nexmarkFiller{src: s, pcg: rand.NewPCG(0, 0)}
	f.rng = rand.New(f.pcg)
	return newGeneratorReader(mem, schema, batchSize, s.Rows(), 0, f), nil
}

type nexmarkFiller struct {
	src  *NexmarkSource
	pcg  *rand.PCG
	rng  *rand.Rand
	rows [][]any // per generated row, the table's values (int64, string)
}

// eventTime is the event time of event id.
func (s *NexmarkSource) eventTime(id int64) int64 {
	return s.TimeStart + id*1000/s.Rate
}

func (f *nexmarkFiller) fill(b *array.RecordBuilder, from int64, n int) {
	s := f.src
	width := len(NexmarkColumns(s.Table))
	if cap(f.rows) < n {
		f.rows = make([][]any, n)
	}
	f.rows = f.rows[:n]
	for k := range n {
		if len(f.rows[k]) != width {
			f.rows[k] = make([]any, width)
		}
		id := s.EventID(from + int64(k))
		f.pcg.Seed(uint64(s.Seed), uint64(id))
		switch s.Table {
		case "person":
			f.person(id, f.rows[k])
		case "auction":
			f.auction(id, f.rows[k])
		default:
			f.bid(id, f.rows[k])
		}
	}
	for i, c := range s.Columns {
		switch bld := b.Field(i).(type) {
		case *array.Int64Builder:
			for _, r := range f.rows {
				bld.Append(r[c].(int64))
			}
		case *array.TimestampBuilder:
			for _, r := range f.rows {
				bld.Append(arrow.Timestamp(r[c].(int64)))
			}
		case *array.StringBuilder:
			for _, r := range f.rows {
				bld.Append(r[c].(string))
			}
		}
	}
}

// lastBase0PersonID is the 0-based id of the last person at or before
// event id.
func lastBase0PersonID(id int64) int64 {
	epoch, off := id/nexmarkDenominator, id%nexmarkDenominator
	if off >= nexmarkPersonProportion {
		off = nexmarkPersonProportion - 1
	}
	return epoch*nexmarkPersonProportion + off
}

// lastBase0AuctionID is the 0-based id of the last auction at or before
// event id (-1 before the first).
func lastBase0AuctionID(id int64) int64 {
	epoch, off := id/nexmarkDenominator, id%nexmarkDenominator
	switch {
	case off < nexmarkPersonProportion:
		epoch--
		off = nexmarkAuctionProportion - 1
	case off >= nexmarkPersonProportion+nexmarkAuctionProportion:
		off = nexmarkAuctionProportion - 1
	default:
		off -= nexmarkPersonProportion
	}
	return epoch*nexmarkAuctionProportion + off
}

// nextPersonID picks a recent person (or one a little ahead, as Nexmark).
func (f *nexmarkFiller) nextPersonID(id int64) int64 {
	people := lastBase0PersonID(id) + 1
	active := min(people, nexmarkActivePeople)
	return nexmarkFirstPersonID + people - active + f.rng.Int64N(active+nexmarkPersonIDLead)
}

// nextAuctionID picks one of the auctions in flight.
func (f *nexmarkFiller) nextAuctionID(id int64) int64 {
	last := max(lastBase0AuctionID(id), 0)
	lo := max(last-nexmarkInFlightAuction, 0)
	return nexmarkFirstAuctionID + lo + f.rng.Int64N(last-lo+1+nexmarkAuctionIDLead)
}

// price is Nexmark's log-uniform price in cents, 100 to 100,000,000.
func (f *nexmarkFiller) price() int64 {
	return int64(math.Round(math.Pow(10, f.rng.Float64()*6) * 100))
}

// word is a random lowercase string of 3 to maxLen letters.
func (f *nexmarkFiller) word(maxLen int) string {
	n := 3 + f.rng.IntN(maxLen-2)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + f.rng.IntN(26))
	}
	return string(b)
}

// extra pads a row towards an average size, as Nexmark's nextExtra.
func (f *nexmarkFiller) extra(size, avg int) string {
	if size >= avg {
		return ""
	}
	want := avg - size
	delta := int(math.Round(float64(want) * 0.2))
	n := want - delta
	if delta > 0 {
		n += f.rng.IntN(2 * delta)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + f.rng.IntN(26))
	}
	return string(b)
}

var (
	nexmarkFirstNames = []string{"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"}
	nexmarkLastNames  = []string{"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"}
	nexmarkCities     = []string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	nexmarkStates     = []string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	nexmarkChannels   = []string{"Google", "Facebook", "Baidu", "Apple"}
)

// person fills: id, name, emailAddress, creditCard, city, state, dateTime, extra.
func (f *nexmarkFiller) person(id int64, row []any) {
	r := f.rng
	name := nexmarkFirstNames[r.IntN(len(nexmarkFirstNames))] + " " + nexmarkLastNames[r.IntN(len(nexmarkLastNames))]
	email := f.word(7) + "@" + f.word(5) + ".com"
	card := fmt.Sprintf("%04d %04d %04d %04d", r.IntN(10000), r.IntN(10000), r.IntN(10000), r.IntN(10000))
	city := nexmarkCities[r.IntN(len(nexmarkCities))]
	state := nexmarkStates[r.IntN(len(nexmarkStates))]
	size := 8 + len(name) + len(email) + len(card) + len(city) + len(state) + 8
	row[0], row[1], row[2], row[3] = nexmarkFirstPersonID+lastBase0PersonID(id), name, email, card
	row[4], row[5], row[6], row[7] = city, state, f.src.eventTime(id), f.extra(size, nexmarkAvgPersonSize)
}

// auction fills: id, itemName, description, initialBid, reserve, dateTime,
// expires, seller, category, extra.
func (f *nexmarkFiller) auction(id int64, row []any) {
	r := f.rng
	at := f.src.eventTime(id)
	seller := f.nextPersonID(id)
	if r.IntN(4) > 0 { // most auctions come from hot sellers
		seller = nexmarkFirstPersonID + lastBase0PersonID(id)/nexmarkHotSellerRatio*nexmarkHotSellerRatio
	}
	item, desc := f.word(20), f.word(100)
	initial := f.price()
	reserve := initial + f.price()
	// An auction lasts about as long as the events of the auctions in
	// flight take: up to twice the average.
	avgMs := max(nexmarkInFlightAuction*nexmarkDenominator/nexmarkAuctionProportion*1000/f.src.Rate, 1)
	expires := at + 1 + r.Int64N(2*avgMs)
	category := int64(nexmarkFirstCategoryID + r.IntN(nexmarkNumCategories))
	size := 8 + len(item) + len(desc) + 8 + 8 + 8 + 8 + 8 + 8
	row[0], row[1], row[2], row[3], row[4] = nexmarkFirstAuctionID+lastBase0AuctionID(id), item, desc, initial, reserve
	row[5], row[6], row[7], row[8], row[9] = at, expires, seller, category, f.extra(size, nexmarkAvgAuctionSize)
}

// bid fills: auction, bidder, price, channel, url, dateTime, extra.
func (f *nexmarkFiller) bid(id int64, row []any) {
	r := f.rng
	var auction, bidder int64
	if r.IntN(2) > 0 { // half the bids go to hot auctions
		auction = nexmarkFirstAuctionID + max(lastBase0AuctionID(id), 0)/nexmarkHotAuctionRatio*nexmarkHotAuctionRatio
	} else {
		auction = f.nextAuctionID(id)
	}
	if r.IntN(4) > 0 { // most bids come from hot bidders
		bidder = nexmarkFirstPersonID + lastBase0PersonID(id)/nexmarkHotBidderRatio*nexmarkHotBidderRatio + 1
	} else {
		bidder = f.nextPersonID(id)
	}
	price := f.price()
	var channel, url string
	if r.IntN(2) > 0 {
		i := r.IntN(nexmarkHotChannels)
		channel = nexmarkChannels[i]
		url = "https://www.nexmark.com/" + channel + "/item.htm?query=1&channel_id=" + strconv.Itoa(i)
	} else {
		c := r.IntN(10000)
		channel = "channel-" + strconv.Itoa(c)
		url = "https://www.nexmark.com/" + f.word(5) + "/" + f.word(5) + "/item.htm?query=1&channel_id=" + strconv.Itoa(c)
	}
	size := 8 + 8 + 8 + len(channel) + len(url) + 8
	row[0], row[1], row[2], row[3] = auction, bidder, price, channel
	row[4], row[5], row[6] = url, f.src.eventTime(id), f.extra(size, nexmarkAvgBidSize)
}

var _ Connector = (*NexmarkSource)(nil)
