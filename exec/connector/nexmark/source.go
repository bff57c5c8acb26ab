package nexmark

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator"
	"github.com/wsql/wsql/exec/expr"
)

// The Nexmark generator's constants (as in Beam's and Flink's
// GeneratorConfig). By default, of every 50 events the first is a person,
// the next 3 auctions and the other 46 bids (see mix).
const (
	nexmarkPersonProportion  = 1
	nexmarkAuctionProportion = 3
	nexmarkBidProportion     = 46

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

// Column is a column of a Nexmark table.
type Column struct {
	Name string
	Type arrow.DataType
}

var (
	nexmarkString = arrow.BinaryTypes.String
	nexmarkBigint = arrow.PrimitiveTypes.Int64
	nexmarkTime   = &arrow.TimestampType{Unit: arrow.Millisecond}

	nexmarkTables = map[string][]Column{
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

// Tables names the tables of the 'nexmark' connector.
func Tables() []string { return append([]string(nil), nexmarkTableNames...) }

// Columns returns the columns of a Nexmark table, nil for an
// unknown one; dateTime is the event time.
func Columns(table string) []Column { return nexmarkTables[table] }

// Source is the reader side of the 'nexmark' connector: one table (person, auction or
// bid) of the Nexmark benchmark's event stream, or the stream itself.
// Event i (from 0) is a person, an auction or a bid by its offset in its
// cycle of Proportions (i mod 50 by default), its time is TimeStart +
// i*1000/Rate ms, and its values come from a PCG seeded with (Seed, i): the
// stream is the same whatever the batch size. The source is not paced:
// Rate only spaces the event times.
type Source struct {
	// Table is person, auction or bid; empty for the whole event stream
	// as Flink's nexmark declares it (see EventColumns).
	Table string
	// Columns gives, for each schema field, the index of its column in
	// Columns(Table), or in EventColumns() for the event stream.
	Columns   []int
	EventsNum int64 // events of all three kinds; -1 unbounded
	Rate      int64 // events per second of event time
	TimeStart int64 // event time of event 0, epoch ms of a TIMESTAMP
	Seed      int64
	// Proportions of persons, auctions and bids in each cycle of events;
	// all zero means Nexmark's 1, 3 and 46.
	Proportions [3]int64
	// Read marks the schema fields a query reads (nil: all). A bid's
	// price, channel, url and extra are its event's last draws, so when
	// none of them is read they are not drawn: those columns hold zeros
	// and empty strings, which nothing reads.
	Read []bool
	// Fields names, for each schema field, the fields of a ROW column the
	// query reads, or is nil when it reads it whole (or not at all). An
	// event ROW read only for its dateTime, as the event table's computed
	// dateTime reads the ROWs of the kinds a query does not select, is
	// made of its validity and times alone.
	Fields [][]string
	// Only, for the event stream, is the one kind of event it makes
	// (person, auction or bid), from a WHERE event_type = k it took
	// (PushEquals); empty for all. Its rows are then that kind's events
	// alone, as the kind's table numbers them.
	Only string
}

// ReadOnly marks the fields a query reads (see Read).
func (s *Source) ReadOnly(read []bool) { s.Read = read }

// ReadFieldsOnly names the fields of ROW columns a query reads (see
// Fields).
func (s *Source) ReadFieldsOnly(fields [][]string) { s.Fields = fields }

// mix is the Source's proportions.
func (s *Source) mix() mix {
	p := s.Proportions
	if p == [3]int64{} {
		p = [3]int64{nexmarkPersonProportion, nexmarkAuctionProportion, nexmarkBidProportion}
	}
	return mix{person: p[0], auction: p[1], total: p[0] + p[1] + p[2]}
}

// Rows is how many rows of the table the first EventsNum events hold, or
// -1 when unbounded.
func (s *Source) Rows() int64 {
	table := s.kindTable()
	if s.EventsNum < 0 || table == "" {
		return s.EventsNum
	}
	m := s.mix()
	off, cnt := m.kindRange(table)
	rest := s.EventsNum % m.total
	return s.EventsNum/m.total*cnt + min(max(rest-off, 0), cnt)
}

// EventID is the event number of the table's k-th row.
func (s *Source) EventID(k int64) int64 {
	table := s.kindTable()
	if table == "" {
		return k
	}
	m := s.mix()
	off, cnt := m.kindRange(table)
	return k/cnt*m.total + off + k%cnt
}

// Bounded reports whether the source ends by itself.
func (s *Source) Bounded() bool { return s.EventsNum >= 0 }

// Explain lists the connector's key options for EXPLAIN.
func (s *Source) Explain() string {
	num := "unbounded"
	if s.EventsNum >= 0 {
		num = "events.num=[" + strconv.FormatInt(s.EventsNum, 10) + "]"
	}
	if s.Table == "" {
		m := s.mix()
		return fmt.Sprintf("connector=[nexmark], %s, first-event.rate=[%d], person.proportion=[%d], auction.proportion=[%d], bid.proportion=[%d], event.time.start=[%s], seed=[%d]%s",
			num, s.Rate, m.person, m.auction, m.total-m.person-m.auction, formatMillisTimestamp(s.TimeStart), s.Seed, s.explainOnly())
	}
	return fmt.Sprintf("connector=[nexmark], nexmark.table=[%s], %s, events.rate=[%d], event.time.start=[%s], seed=[%d]",
		s.Table, num, s.Rate, formatMillisTimestamp(s.TimeStart), s.Seed)
}

func formatMillisTimestamp(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
}

// Open starts a read.
func (s *Source) Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (exec.BatchReader, error) {
	return s.open(mem, schema, batchSize, nil)
}

// OpenAt continues a read from the state its reader's SaveState wrote.
// Each event draws from its own PCG, seeded with (Seed, event), so the
// rows delivered are the whole of the position.
func (s *Source) OpenAt(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (exec.BatchReader, error) {
	return s.open(mem, schema, batchSize, at)
}

func (s *Source) open(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (exec.BatchReader, error) {
	cols := Columns(s.Table)
	if s.Table == "" {
		cols = EventColumns()
	}
	m := s.mix()
	if cols == nil || len(s.Columns) != schema.NumFields() || s.Rate <= 0 || m.person <= 0 || m.auction <= 0 || m.total <= m.person+m.auction {
		return nil, fmt.Errorf("%w: nexmark table %q is misconfigured", exec.ErrSource, s.Table)
	}
	for _, c := range s.Columns {
		if c < 0 || c >= len(cols) {
			return nil, fmt.Errorf("%w: nexmark table %q has no column %d", exec.ErrSource, s.Table, c)
		}
	}
	var f generator.Filler = newTableFiller(s, m, s.Table)
	if s.Table == "" {
		f = newEventFiller(s, m, schema)
	}
	return generator.Open(mem, schema, batchSize, s.Rows(), 0, shareBatches(f, s, schema, mem), at) // shared_batches.go
}

// newTableFiller makes the filler of one Nexmark table.
func newTableFiller(s *Source, m mix, table string) *nexmarkFiller {
	cols := Columns(table)
	f := &nexmarkFiller{src: s, mix: m, table: table, ints: make([][]int64, len(cols)), intBufs: make([]*memory.Buffer, len(cols)),
		strs: make([]generator.StringColumn, len(cols)), types: make([]arrow.DataType, len(cols))}
	for c, col := range cols {
		f.types[c] = col.Type
		f.strs[c].PerRow = 16
	}
	return f
}

// nexmarkFiller makes the rows of a Nexmark table: every column of the
// table (a row's values are the draws of its event's PCG, in the order
// Nexmark makes them), written a row at a time straight into the Arrow
// buffers of the batch; the columns the schema leaves out are then
// dropped.
type nexmarkFiller struct {
	src     *Source
	mix     mix
	table   string
	types   []arrow.DataType // by table column
	ints    [][]int64        // by table column: a BIGINT or TIMESTAMP column's values, over intBufs
	intBufs []*memory.Buffer
	strs    []generator.StringColumn // by table column: a STRING column's values
	bidRows []int32                  // bids: the rows of the batch that are bids, for bidPrices

	// A bid table read through Fill makes the columns its query does not
	// read (unread, by table column) without Arrow buffers: their values
	// go to scratch, the strings are left unmade, and the query gets a
	// column of zeros (zeros) in their place. Nexmark q11 and q12 read a
	// bid's bidder and time alone: the generator's share of q12 went from
	// 0.18 to 0.14 CPU-s a run.
	unread  []bool
	scratch []int64
	zeros   *memory.Buffer
}

func (f *nexmarkFiller) Kind() string { return "nexmark" }

// SaveState writes the table and its columns read, to check a resume
// reads the same: the rows are drawn from per-event PCGs, so the reader's
// row count is all the position there is.
func (f *nexmarkFiller) SaveState(e *checkpoint.Encoder) { saveNexmarkState(e, f.src) }

func (f *nexmarkFiller) RestoreState(d *checkpoint.Decoder, _ int64) { restoreNexmarkState(d, f.src) }

// stateName names the source in its state: the table, or for the event
// stream its proportions, which decide what each event is.
func (s *Source) stateName() string {
	if s.Table != "" {
		return s.Table
	}
	m := s.mix()
	name := fmt.Sprintf("events %d:%d:%d", m.person, m.auction, m.total-m.person-m.auction)
	if s.Only != "" {
		name += " of kind " + s.Only // its rows are numbered as the kind's
	}
	return name
}

func saveNexmarkState(e *checkpoint.Encoder, s *Source) {
	e.String(s.stateName())
	checkpoint.Ints(e, s.Columns)
}

func restoreNexmarkState(d *checkpoint.Decoder, s *Source) {
	table := d.String()
	cols := checkpoint.ReadInts[int](d)
	if d.Err() == nil && (table != s.stateName() || !slices.Equal(cols, s.Columns)) {
		d.Fail("nexmark state of table %q columns %v for table %q columns %v", table, cols, s.stateName(), s.Columns)
	}
}

// eventTime is the event time of event id.
func (s *Source) eventTime(id int64) int64 {
	return s.TimeStart + id*1000/s.Rate
}

func (f *nexmarkFiller) Fill(mem memory.Allocator, cols []arrow.Array, from int64, n int) {
	s := f.src
	if f.unread == nil && f.table == "bid" && s.Read != nil {
		f.unread = make([]bool, len(f.types))
		for c := range f.unread {
			f.unread[c] = true
		}
		for i, c := range s.Columns {
			if s.Read[i] {
				f.unread[c] = false
			}
		}
	}
	all := f.rows(mem, from, n, false, f.depth())
	for i, c := range s.Columns {
		if all[c] == nil {
			cols[i] = f.emptyColumn(mem, f.types[c], n)
			continue
		}
		all[c].Retain()
		cols[i] = all[c]
	}
	for _, a := range all {
		if a != nil {
			a.Release()
		}
	}
}

// emptyColumn is n zeros or empty strings of type dt over the read's one
// buffer of zeros (Arrow buffers are not written once made).
func (f *nexmarkFiller) emptyColumn(mem memory.Allocator, dt arrow.DataType, n int) arrow.Array {
	if size := max(8*n, 4*(n+1)); f.zeros == nil || f.zeros.Len() < size {
		if f.zeros != nil {
			f.zeros.Release()
		}
		f.zeros = memory.NewResizableBuffer(mem)
		f.zeros.Resize(size)
		clear(f.zeros.Bytes())
	}
	f.zeros.Retain()
	if dt.ID() == arrow.STRING {
		return expr.NewArray(dt, n, nil, 0, f.zeros, memory.NewResizableBuffer(mem))
	}
	return expr.NewArray(dt, n, nil, 0, f.zeros)
}

// Close releases the zeros the read kept.
func (f *nexmarkFiller) Close() error {
	if f.zeros != nil {
		f.zeros.Release()
		f.zeros = nil
	}
	return nil
}

// grow is s with length n, reallocated only when too short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// skips tells whether rows leaves table column c of a bid batch drawn to
// depth unmade: a column the query does not read, and for a string one
// that bids does not write either (a channel and url drawn for the size
// of an extra read, or an extra drawn with them, are written).
func (f *nexmarkFiller) skips(c int, depth drawDepth) bool {
	if f.unread == nil || !f.unread[c] {
		return false
	}
	switch c {
	case 3, 4: // channel, url
		return depth < depthStrings
	case 6: // extra
		return depth < depthBidExtra
	}
	return true
}

// rows makes every column of the table for n rows: the table's rows
// from row from on, or, with events, the rows of events [from, from+n)
// with zeros and empty strings at the events of the other kinds.
func (f *nexmarkFiller) rows(mem memory.Allocator, from int64, n int, events bool, depth drawDepth) []arrow.Array {
	s := f.src
	if f.unread != nil {
		f.scratch = grow(f.scratch, n)
	}
	for c, t := range f.types {
		switch {
		case f.skips(c, depth):
			if t.ID() != arrow.STRING {
				f.ints[c] = f.scratch // written, never read
			}
		case t.ID() == arrow.STRING:
			f.strs[c].Start(mem, n)
		case f.table == "bid": // bids writes every row of each
			f.intBufs[c], f.ints[c] = generator.NewValues[int64](mem, n)
		default: // a person or an auction drawn not to depthAll leaves zeros
			f.intBufs[c], f.ints[c] = expr.NewValues[int64](mem, n)
		}
	}
	kind := kindOf(f.table)
	switch f.table {
	case "bid":
		f.bids(from, n, depth, events)
	default:
		for k := range n {
			var id int64
			if events {
				if id = from + int64(k); f.mix.kind(id) != kind {
					f.skip(k)
					continue
				}
			} else {
				id = s.EventID(from + int64(k))
			}
			r := generator.NewPCG(uint64(s.Seed), uint64(id))
			if kind == kindPerson {
				f.person(&r, id, k, depth)
			} else {
				f.auction(&r, id, k, depth)
			}
		}
	}
	all := make([]arrow.Array, len(f.types))
	for c, t := range f.types {
		if f.skips(c, depth) {
			f.ints[c] = nil
			continue
		}
		if t.ID() == arrow.STRING {
			all[c] = f.strs[c].Array(mem)
		} else {
			all[c] = expr.NewArray(t, n, nil, 0, f.intBufs[c])
			f.intBufs[c], f.ints[c] = nil, nil
		}
	}
	return all
}

// skip makes row k empty: an event of another kind.
func (f *nexmarkFiller) skip(k int) {
	for c, t := range f.types {
		if t.ID() == arrow.STRING {
			f.strs[c].End()
		} else {
			f.ints[c][k] = 0
		}
	}
}

// nextPersonID picks a recent person (or one a little ahead, as
// Nexmark); last is lastPerson of the event.
func nextPersonID(r *generator.PCG, last int64) int64 {
	people := last + 1
	active := min(people, nexmarkActivePeople)
	return nexmarkFirstPersonID + people - active + int64(r.Uint64N(uint64(active+nexmarkPersonIDLead)))
}

// appendLetters appends n random lowercase letters (IntN(26) each).
func appendLetters(b []byte, r *generator.PCG, n int) []byte {
	return appendDrawnLetters(b, r, n, 0)
}

// appendDrawnLetters appends base+IntN(span) random lowercase letters
// (base when span is 0): the count drawn and the letters in one call, the
// generator in a local throughout (a word's separate IntN and letters cost
// two calls and a trip of the state through memory: BenchmarkNexmarkBid
// about 6% faster this way).
func appendDrawnLetters(b []byte, r *generator.PCG, base, span int) []byte {
	g := *r // a local, stepped by value, stays in registers
	n := base
	if span > 0 {
		next, v := g.Step()
		pow2 := span&(span-1) == 0 // IntN masks the draw
		hi, lo := bits.Mul64(v, uint64(span))
		if pow2 { // picked without a branch: words and extras alternate
			hi, lo = v&uint64(span-1), uint64(span)
		}
		if lo < uint64(span) { // a rejection: draw again (rare)
			next, hi = g.StepN(uint64(span))
		}
		g, n = next, base+int(hi)
	}
	b = slices.Grow(b, n)
	out := b[len(b) : len(b)+n]
	var v uint64
	for i := range out {
		g, v = g.Step()
		v, lo := bits.Mul64(v, 26)
		if lo < 26 {
			g, v = g.Reject(v, lo, 26)
		}
		out[i] = byte('a' + v)
	}
	*r = g
	return b[:len(b)+n]
}

// appendSmallInt appends v in [0, 9999] in decimal, as strconv does.
func appendSmallInt(b []byte, v int) []byte {
	switch {
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	case v < 1000:
		return append(b, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	}
	return append4Digits(b, v)
}

// appendWord appends a random lowercase word of 3 to maxLen letters.
func appendWord(b []byte, r *generator.PCG, maxLen int) []byte {
	return appendDrawnLetters(b, r, 3, maxLen-2)
}

// appendExtra pads a row towards an average size, as Nexmark's nextExtra.
func appendExtra(b []byte, r *generator.PCG, size, avg int) []byte {
	if size >= avg {
		return b
	}
	base, span := extraLengths(size, avg)
	return appendDrawnLetters(b, r, base, span)
}

// extraLengths are the lengths nextExtra draws an extra's from for a row
// of size below avg: base plus IntN(span) when span > 0.
func extraLengths(size, avg int) (base, span int) {
	want := avg - size
	delta := int(math.Round(float64(want) * 0.2))
	return want - delta, 2 * delta
}

// append4Digits appends v in [0, 9999] as 4 digits, zero-padded.
func append4Digits(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

var (
	nexmarkFirstNames = []string{"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"}
	nexmarkLastNames  = []string{"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"}
	nexmarkCities     = []string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	nexmarkStates     = []string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	nexmarkChannels   = []string{"Google", "Facebook", "Baidu", "Apple"}
)

// The rows below draw their values in the order of the original
// generator (and Nexmark's), which built each string separately: the
// draws, and so the rows, are the same.

// person makes row k: id, name, emailAddress, creditCard, city, state,
// dateTime, extra, drawn to depth.
func (f *nexmarkFiller) person(r *generator.PCG, id int64, k int, depth drawDepth) {
	f.ints[0][k] = nexmarkFirstPersonID + f.mix.lastPerson(f.mix.split(id))
	f.ints[6][k] = f.src.eventTime(id)
	name, email, card, city, state := &f.strs[1], &f.strs[2], &f.strs[3], &f.strs[4], &f.strs[5]
	start := len(name.Data) + len(email.Data) + len(card.Data) + len(city.Data) + len(state.Data)
	name.Data = append(name.Data, nexmarkFirstNames[r.IntN(len(nexmarkFirstNames))]...)
	name.Data = append(name.Data, ' ')
	name.Data = append(name.Data, nexmarkLastNames[r.IntN(len(nexmarkLastNames))]...)
	if depth == depthKeys {
		for _, c := range []*generator.StringColumn{name, email, card, city, state, &f.strs[7]} {
			c.End()
		}
		return
	}
	email.Data = appendWord(email.Data, r, 7)
	email.Data = append(email.Data, '@')
	email.Data = appendWord(email.Data, r, 5)
	email.Data = append(email.Data, ".com"...)
	for k := range 4 {
		if k > 0 {
			card.Data = append(card.Data, ' ')
		}
		card.Data = append4Digits(card.Data, r.IntN(10000))
	}
	city.Data = append(city.Data, nexmarkCities[r.IntN(len(nexmarkCities))]...)
	state.Data = append(state.Data, nexmarkStates[r.IntN(len(nexmarkStates))]...)
	size := 8 + len(name.Data) + len(email.Data) + len(card.Data) + len(city.Data) + len(state.Data) - start + 8
	for _, c := range []*generator.StringColumn{name, email, card, city, state} {
		c.End()
	}
	if depth == depthAll {
		f.strs[7].Data = appendExtra(f.strs[7].Data, r, size, nexmarkAvgPersonSize)
	}
	f.strs[7].End()
}

// auction makes row k: id, itemName, description, initialBid, reserve,
// dateTime, expires, seller, category, extra, drawn to depth.
func (f *nexmarkFiller) auction(r *generator.PCG, id int64, k int, depth drawDepth) {
	at := f.src.eventTime(id)
	m := f.mix
	epoch, off := m.split(id)
	lastPerson := m.lastPerson(epoch, off)
	seller := nextPersonID(r, lastPerson)
	if r.IntN(4) > 0 { // most auctions come from hot sellers
		seller = nexmarkFirstPersonID + lastPerson/nexmarkHotSellerRatio*nexmarkHotSellerRatio
	}
	f.ints[0][k] = nexmarkFirstAuctionID + m.lastAuction(epoch, off)
	f.ints[5][k], f.ints[7][k] = at, seller
	item, desc, extra := &f.strs[1], &f.strs[2], &f.strs[9]
	if depth == depthKeys {
		f.ints[3][k], f.ints[4][k], f.ints[6][k], f.ints[8][k] = 0, 0, 0, 0
		item.End()
		desc.End()
		extra.End()
		return
	}
	start := len(item.Data) + len(desc.Data)
	item.Data = appendWord(item.Data, r, 20)
	desc.Data = appendWord(desc.Data, r, 100)
	size := 8 + len(item.Data) + len(desc.Data) - start + 8 + 8 + 8 + 8 + 8 + 8
	item.End()
	desc.End()
	initial := nexmarkPrice(r)
	reserve := initial + nexmarkPrice(r)
	// An auction lasts about as long as the events of the auctions in
	// flight take: up to twice the average.
	avgMs := max(nexmarkInFlightAuction*m.total/m.auction*1000/f.src.Rate, 1)
	expires := at + 1 + int64(r.Uint64N(uint64(2*avgMs)))
	category := int64(nexmarkFirstCategoryID + r.IntN(nexmarkNumCategories))
	f.ints[3][k], f.ints[4][k], f.ints[6][k], f.ints[8][k] = initial, reserve, expires, category
	if depth == depthAll {
		extra.Data = appendExtra(extra.Data, r, size, nexmarkAvgAuctionSize)
	}
	extra.End()
}

const (
	nexmarkURLPrefix = "https://www.nexmark.com/"
	nexmarkURLQuery  = "/item.htm?query=1&channel_id="
)

// nexmarkHotURLs are the URLs of the hot channels, whole.
var nexmarkHotURLs = func() []string {
	urls := make([]string, len(nexmarkChannels))
	for i, c := range nexmarkChannels {
		urls[i] = nexmarkURLPrefix + c + nexmarkURLQuery + strconv.Itoa(i)
	}
	return urls
}()

// bids makes the bids of rows [from, from+n): auction, bidder, price,
// channel, url, dateTime, extra, drawn to depth. The loop works on local
// slices, stored back once: appending through the filler's fields stored a
// slice header in the heap per value, a write barrier each while the
// collector runs, which it does often at the rate the batches are made
// (11% of the time). With events, the bids of events [from, from+n) with
// zeros and empty strings at the other events.
func (f *nexmarkFiller) bids(from int64, n int, depth drawDepth, events bool) {
	s, m := f.src, f.mix
	auction, bidder, price, at := f.ints[0][:n], f.ints[1][:n], f.ints[2][:n], f.ints[5][:n]
	channel, url, extra := f.strs[3], f.strs[4], f.strs[6]
	rows := f.bidRows[:0]
	// the string columns not made are closed empty all at once, after
	strs, extras := depth >= depthStrings, depth >= depthBidExtra
	// Event ids as EventID has them, stepped as (epoch, offset in the
	// cycle) instead of divided per row. Bids are the last kind of a
	// cycle: the bid table steps over [off, total) and the event stream
	// over [0, total), with the other kinds left empty.
	off, cnt := m.kindRange("bid")
	epoch, pos, wrap := from/cnt, off+from%cnt, off
	if events {
		epoch, pos, wrap = from/m.total, from%m.total, 0
	}
	// Each bid's generator is seeded with (Seed, id), and its first step
	// walked from the id before rather than multiplied out: 46 ids in 50
	// follow the one before.
	seeds, seedsID := generator.Seeds{}, int64(-2)
	for k := range n {
		e, o := epoch, pos
		if pos++; pos == m.total {
			epoch, pos = epoch+1, wrap
		}
		if o < off { // an event of another kind
			auction[k], bidder[k], price[k], at[k] = 0, 0, 0, 0
			if strs {
				channel.End()
				url.End()
			}
			if extras {
				extra.End()
			}
			continue
		}
		id := e*m.total + o
		lastAuction, lastPerson := m.lastAuction(e, o), m.lastPerson(e, o)
		// Hot or not goes either way at random, so each id is drawn both
		// ways and picked without a branch: the draw not kept costs less
		// than the mispredicted branch (BenchmarkNexmarkBid: about 6%
		// faster). An auction not hot is one of those in flight, a bidder
		// not hot as nextPersonID picks one.
		if id != seedsID+1 {
			seeds = generator.SeedsFrom(uint64(s.Seed), uint64(id))
		} else {
			seeds = seeds.Next()
		}
		seedsID = id
		g, v := seeds.Step() // NewPCG(Seed, id).Step()
		lastAuction = max(lastAuction, 0)
		inFlight := max(lastAuction-nexmarkInFlightAuction, 0)
		n := uint64(lastAuction - inFlight + 1 + nexmarkAuctionIDLead) // the auctions in flight, and a few ahead
		next, pick := g.Step()
		pick, lo := bits.Mul64(pick, n)
		if lo < n || n&(n-1) == 0 { // a rejection or a power of two (rare): Uint64N's other ways
			next, pick = g.StepN(n)
		}
		a := nexmarkFirstAuctionID + lastAuction/nexmarkHotAuctionRatio*nexmarkHotAuctionRatio
		notHot := nexmarkFirstAuctionID + inFlight + int64(pick)
		if v&1 == 0 { // IntN(2): half the bids go to hot auctions
			g, a = next, notHot
		}
		auction[k] = a
		g, v = g.Step()
		people := lastPerson + 1
		active := min(people, nexmarkActivePeople)
		n = uint64(active + nexmarkPersonIDLead) // nextPersonID's bound
		next, pick = g.Step()
		pick, lo = bits.Mul64(pick, n)
		if lo < n || n&(n-1) == 0 {
			next, pick = g.StepN(n)
		}
		b := nexmarkFirstPersonID + lastPerson/nexmarkHotBidderRatio*nexmarkHotBidderRatio + 1
		notHot = nexmarkFirstPersonID + people - active + int64(pick)
		if v&3 == 0 { // IntN(4): most bids come from hot bidders
			g, b = next, notHot
		}
		bidder[k] = b
		rng := g // g, never addressed, stays in registers for the picks above
		r := &rng
		at[k] = s.eventTime(id)
		price[k] = 0
		if depth >= depthPrice {
			price[k] = int64(r.Uint64()) // the draw, made a price by bidPrices
			rows = append(rows, int32(k))
		}
		if depth == depthBidExtra {
			extra.Data = appendBidExtra(extra.Data, r)
			extra.End()
		}
		if !strs {
			continue
		}
		start := len(channel.Data) + len(url.Data)
		if r.Mask(1) > 0 { // IntN(2)
			i := r.Mask(nexmarkHotChannels - 1)
			channel.Data = append(channel.Data, nexmarkChannels[i]...)
			url.Data = append(url.Data, nexmarkHotURLs[i]...)
		} else {
			c := r.IntN(10000)
			channel.Data = appendSmallInt(append(channel.Data, "channel-"...), c)
			url.Data = append(url.Data, nexmarkURLPrefix...)
			url.Data = appendWord(url.Data, r, 5)
			url.Data = append(url.Data, '/')
			url.Data = appendWord(url.Data, r, 5)
			url.Data = append(url.Data, nexmarkURLQuery...)
			url.Data = appendSmallInt(url.Data, c)
		}
		size := bidSize(len(channel.Data) + len(url.Data) - start)
		channel.End()
		url.End()
		if depth == depthAll {
			extra.Data = appendExtra(extra.Data, r, size, nexmarkAvgBidSize)
		}
		extra.End()
	}
	if !strs && !f.skips(3, depth) {
		channel.EndEmpty(n)
	}
	if !strs && !f.skips(4, depth) {
		url.EndEmpty(n)
	}
	if !extras && !f.skips(6, depth) {
		extra.EndEmpty(n)
	}
	f.strs[3], f.strs[4], f.strs[6] = channel, url, extra
	bidPrices(price, rows)
	f.bidRows = rows
}

var _ exec.Resumable = (*Source)(nil)
