package joinop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// intervalJoin is Flink's event-time interval join (TimeIntervalJoin with
// RowTimeIntervalJoin's times): a left row l and a right row r of equal
// keys join when r.time + Lower <= l.time <= r.time + Upper and the
// Residual is TRUE. With leftRelativeSize = -Lower and rightRelativeSize
// = Upper, a left row at t joins the right rows of [t-Upper, t-Lower] and
// a right row at t the left rows of [t+Lower, t+Upper].
//
// Each row joins the other side's kept rows of its key as it comes, then
// is kept while the other side can still send a row it joins: while the
// watermark it arrived under is below t + its side's relative size. A row
// of an outer side that is not kept and joined nothing is padded at once;
// a kept one is padded when it expires unjoined. A kept row expires once
// the operator's time (the highest watermark a row arrived under or the
// combined watermark brought) reaches t + relative size + 1 (Flink's
// expiration time, allowedLateness 0), and rows that expired no longer
// join. Flink drops no late row here: a row behind the watermark joins
// what is still kept (and is padded at once, being never kept), so
// LateRows stays 0.
//
// Output order depends only on the rows' order: a row's joined rows in
// the order of the other side's kept rows (by time, then arrival), then
// its padding; rows expired by a rise of the operator's time come out
// where it rose, before the row that raised it, ordered by the time they
// expired at, the right side first, then by arrival. So a watermark
// raised by a row or by ProcessWatermark expires the same rows at the
// same place in the output.
//
// Before any watermark every row is kept: Flink takes a watermark
// below 0 as 0, which only rows before 1970 would tell apart.
//
// The output watermark is held back by max(-Lower, Upper) (Flink's
// getMaxOutputDelay, KeyedCoProcessOperatorWithWatermarkDelay), as joined
// rows keep both inputs' times; ProcessEnd pads every kept unjoined row of
// an outer side, then forwards the end.
type intervalJoin struct {
	cfg       Config
	mem       memory.Allocator
	out       pipeline.Operator
	keys      *keyIndex
	chains    keyChains // by key id: each side's kept rows
	hits      []probeHit
	gone      [2][]int32 // per side: store ids of the rows expire took out
	sides     [2]*intervalSide
	cand      *pairs // per batch: the rows a batch's rows may join
	output    *pairs // per batch: what it emits
	candEnd   []int32
	pops      []expiredRow // rows expired while a batch is read
	merge     [2][]expiredRow
	wms       []int64
	outWms    outWatermarks // per batch: the output rows' watermarks
	now       int64         // the operator's time
	next      int64         // when the first kept row expires
	delay     int64         // output watermark held back by
	forwarded int64         // the last watermark forwarded
	stats     Stats
	closed    bool
}

// intervalSide is one input's state.
type intervalSide struct {
	store  *rowstore.Store
	keys   keyColumns
	time   int
	outer  bool
	lo, hi int64 // a row at t joins the other side's rows of [t+lo, t+hi]
	rel    int64 // the side's relative size
	rows   sideRows
	expiry expiryQueue // outer: the kept rows, to pad as they expire
	seq    int64       // arrivals so far, the expiry order's tie-break
	joined []bool      // outer, by row id: the kept row joined some row
	kept   []int32     // per batch: rows kept
	ids    []int32     // per batch: their ids
}

// expiredRow is a kept row that expired before row pos of the batch
// being read (0 outside a batch).
type expiredRow struct {
	pos  int32
	side uint8
	id   int32
	exp  int64 // when it expired
	seq  int64
}

// maxBound keeps every time sum of the interval join within int64.
const maxBound = int64(1) << 60

func newIntervalJoin(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	if err := appendOnly(cfg, "an interval"); err != nil {
		return nil, err
	}
	iv := cfg.Interval
	switch cfg.Kind {
	case Inner, LeftOuter, RightOuter, FullOuter:
	default:
		return nil, fmt.Errorf("an interval join is INNER, LEFT, RIGHT or FULL, not %s", cfg.Kind)
	}
	if iv.Lower <= -maxBound || iv.Lower >= maxBound || iv.Upper <= -maxBound || iv.Upper >= maxBound {
		return nil, fmt.Errorf("interval join bounds %d and %d are out of range", iv.Lower, iv.Upper)
	}
	for _, c := range []struct {
		s *arrow.Schema
		i int
	}{{cfg.Left, iv.LeftTime}, {cfg.Right, iv.RightTime}} {
		if c.i < 0 || c.i >= c.s.NumFields() || !rowtime.IsRowtimeType(c.s.Field(c.i).Type) {
			return nil, fmt.Errorf("interval join time column %d is not a TIMESTAMP(3) of its input", c.i)
		}
	}
	j := &intervalJoin{cfg: cfg, mem: mem, out: out,
		now: rowtime.MinWatermark, next: math.MaxInt64, forwarded: rowtime.MinWatermark,
		delay: max(-iv.Lower, iv.Upper, 0)}
	var err error
	if j.sides[0], err = newIntervalSide(cfg.Left, iv.LeftTime, cfg.LeftKeys, cfg.NullSafe, mem); err != nil {
		return nil, err
	}
	if j.sides[1], err = newIntervalSide(cfg.Right, iv.RightTime, cfg.RightKeys, cfg.NullSafe, mem); err != nil {
		j.Close()
		return nil, err
	}
	l, r := j.sides[0], j.sides[1]
	j.keys = newKeyIndex(l.keys.intKey)
	j.chains.ensure(0)
	l.outer, r.outer = cfg.Kind.leftOuter(), cfg.Kind.rightOuter()
	l.lo, l.hi, l.rel = -iv.Upper, -iv.Lower, -iv.Lower
	r.lo, r.hi, r.rel = iv.Lower, iv.Upper, iv.Upper
	if j.cand, err = newPairs(cfg, mem, l.store, r.store); err != nil {
		j.Close()
		return nil, err
	}
	j.output = &pairs{mem: mem, left: l.store, right: r.store, joined: j.cand.joined, out: j.cand.out}
	return j, nil
}

func newIntervalSide(schema *arrow.Schema, time int, keys []int, nullSafe []bool, mem memory.Allocator) (*intervalSide, error) {
	kc, err := newKeyColumns(schema, keys, nullSafe)
	if err != nil {
		return nil, err
	}
	st, err := newSideStore(schema, mem)
	if err != nil {
		return nil, err
	}
	return &intervalSide{store: st, keys: kc, time: time, joined: []bool{false}, rows: sideRows{lazy: kc.intKey}}, nil
}

func (j *intervalJoin) Schema() *arrow.Schema { return j.cand.out }
func (j *intervalJoin) Stats() Stats          { return j.stats }

func (j *intervalJoin) ProcessBatch(b pipeline.Batch) error {
	return fmt.Errorf("interval join: rows come through ProcessInput")
}

// ProcessInput joins a batch of one input with the other's kept rows
// (see intervalJoin for the order of what it emits).
func (j *intervalJoin) ProcessInput(input int, b pipeline.Batch) error {
	if input != 0 && input != 1 {
		return fmt.Errorf("join: no input %d", input)
	}
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	j.stats.RowsIn += int64(n)
	s, o := j.sides[input], j.sides[1-input]
	times, err := rowtime.Millis(rec.Column(s.time))
	if err != nil {
		return err
	}
	s.keys.encode(rec)
	// each row's watermark, never below the operator's time, and the rows
	// kept: Flink's condition on the other side's operator time (the
	// watermark the row came under, which the other input's watermark is
	// past), not on whether it joined
	j.wms = j.wms[:0]
	s.kept = s.kept[:0]
	start := j.now
	w := j.now
	keptFrom := int64(math.MaxInt64) // the lowest time kept
	for i := range n {
		if b.Watermarks != nil {
			w = max(w, b.Watermarks[i])
		}
		j.wms = append(j.wms, w)
		if t := times[i]; w < t+s.rel && (!s.keys.null[i] || s.outer) {
			s.kept = append(s.kept, int32(i))
			keptFrom = min(keptFrom, t)
		}
	}
	if s.ids, err = s.store.Add(rec, s.kept, s.ids[:0]); err != nil {
		return err
	}
	if j.quiet(s, o, w, keptFrom) {
		j.keepAll(s, input, times)
		j.now = max(j.now, w)
		return nil
	}
	if s.outer {
		for _, id := range s.ids {
			s.grow(id)
		}
	}
	// the candidates: for each row, the other side's kept rows of its key
	// and interval not expired under its watermark
	j.cand.reset()
	j.pops = j.pops[:0]
	j.candEnd = j.candEnd[:0]
	k := 0
	for i := range n {
		if w := j.wms[i]; w > j.now {
			j.now = w
			if w >= j.next {
				j.expire(int32(i))
			}
		}
		t := times[i]
		kept := k < len(s.kept) && s.kept[k] == int32(i)
		key := nullKey
		if !s.keys.null[i] {
			key = j.probe(s, input, i, kept, t)
		}
		j.candEnd = append(j.candEnd, int32(j.cand.len()))
		if kept {
			j.keep(s, input, key, i, t, s.ids[k])
			k++
		}
	}
	if err := j.cand.match(batchOf(input, 0, rec), batchOf(input, 1, rec)); err != nil {
		return err
	}
	// the output, in the rows' order, each row under the watermark held
	// back from the one it was made under: the rows an input row expired
	// under the operator's time before it rose (as ProcessWatermark sends
	// them before it forwards), its joined and padded rows under its own
	j.output.reset()
	j.outWms.reset()
	p, c, k := 0, int32(0), 0
	before := start
	for i := range n {
		for ; p < len(j.pops) && j.pops[p].pos == int32(i); p++ {
			j.pad(j.pops[p])
		}
		j.outWms.extend(j.output.len(), j.heldBack(before), j.forwarded)
		before = j.wms[i]
		joined := false
		for ; c < j.candEnd[i]; c++ {
			if !j.cand.mask[c] {
				continue
			}
			l, r := j.cand.l[c], j.cand.r[c]
			j.output.add(l, r)
			if o.outer {
				if input == 0 {
					o.joined[r] = true
				} else {
					o.joined[l] = true
				}
			}
			joined = true
		}
		if k < len(s.kept) && s.kept[k] == int32(i) {
			if s.outer {
				s.joined[s.ids[k]] = joined
			}
			k++
		} else if !joined && s.outer {
			j.padRow(input, -int32(i)-1)
		}
		j.outWms.extend(j.output.len(), j.heldBack(before), j.forwarded)
	}
	for ; p < len(j.pops); p++ {
		j.pad(j.pops[p])
	}
	j.outWms.extend(j.output.len(), j.heldBack(before), j.forwarded)
	wms := j.outWms.batch(j.output.len())
	if err := j.output.emit(j.out, batchOf(input, 0, rec), batchOf(input, 1, rec), wms, &j.stats); err != nil {
		return err
	}
	return j.removeExpired()
}

// quiet reports whether a batch of side s, its last row under watermark
// last and its first kept time keptFrom, only keeps rows: an inner side
// (no row to pad), the other side holding no row to join, and no kept row
// expiring within the batch (not one kept before, whose first expiry is
// next, nor one it keeps). Nexmark q7 keeps every bid so while the window
// holds no row: reading its batches row by row for candidates and output
// was a fifth of the join's time.
func (j *intervalJoin) quiet(s, o *intervalSide, last, keptFrom int64) bool {
	if s.outer || o.rows.inRows > 0 {
		return false
	}
	if last <= j.now {
		return true // the operator's time does not rise
	}
	return last < j.next && (keptFrom == math.MaxInt64 || last < rowtime.AddSaturating(keptFrom, s.rel+1))
}

// keepAll keeps the batch's kept rows of side input in a quiet batch, as
// probe and keep would: a run of unindexed rows at once.
func (j *intervalJoin) keepAll(s *intervalSide, input int, times []int64) {
	for k := 0; k < len(s.kept); {
		i := int(s.kept[k])
		if s.rows.lazy && !s.keys.nullValue[i] {
			n, pageExp := s.rows.addPendingRun(s.kept[k:], s.ids[k:], times, s.keys.ints, s.keys.nullValue, s.rel)
			j.next = min(j.next, pageExp)
			s.seq += int64(n)
			k += n
			continue
		}
		key := j.keys.add(&s.keys, i)
		j.chains.ensure(key)
		j.keep(s, input, key, i, times[i], s.ids[k])
		k++
	}
}

// heldBack is the output watermark of the operator's time wm: the
// watermark forwarded once wm comes as the combined watermark, so no row
// goes out under a watermark above what the join forwards next.
func (j *intervalJoin) heldBack(wm int64) int64 {
	return max(rowtime.SubSaturating(wm, j.delay), j.forwarded)
}

// batchOf is rec when the batch read is side's, else nil.
func batchOf(input, side int, rec arrow.RecordBatch) arrow.RecordBatch {
	if input == side {
		return rec
	}
	return nil
}

// grow makes room for row id in the side's per-row slices.
func (s *intervalSide) grow(id int32) {
	for int(id) >= len(s.joined) {
		s.joined = append(s.joined, false)
	}
}

// probe adds the pairs of row i of the side input (its time t) with the
// other side's kept rows of its key whose times are in [t+lo, t+hi], by
// time, then arrival (the rows the watermark expired fail the test). It
// returns the key id to keep the row under when kept: pendingKey to keep
// it unindexed.
func (j *intervalJoin) probe(s *intervalSide, input, i int, kept bool, t int64) int32 {
	key := int32(-1)
	switch {
	case kept && s.rows.lazy && !s.keys.nullValue[i]:
		key = pendingKey
	case kept:
		key = j.keys.add(&s.keys, i)
		j.chains.ensure(key)
	}
	o := j.sides[1-input]
	if o.rows.inRows == 0 {
		return key
	}
	if o.rows.pending > 0 && o.rows.shouldIndex() {
		o.rows.index(&j.chains, j.keys, 1-input)
	}
	lo, hi := t+s.lo, t+s.hi
	j.hits = j.hits[:0]
	if o.rows.inIndexed > 0 {
		id := key
		if id < 0 {
			id = j.keys.find(&s.keys, i)
		}
		if id > 0 {
			if head := j.chains.at(id)[1-input].head; head >= 0 {
				j.hits = o.rows.probe(head, lo, hi, j.now, o.rel, j.hits)
			}
		}
	}
	// the unindexed rows of a value came after its indexed ones (rows of
	// a NULL value are indexed at once)
	if o.rows.pending > 0 && !s.keys.nullValue[i] {
		j.hits = o.rows.scanPending(s.keys.ints[i], lo, hi, j.now, o.rel, j.hits)
	}
	byTime(j.hits)
	ref := -int32(i) - 1
	for _, h := range j.hits {
		if input == 0 {
			j.cand.add(ref, h.id)
		} else {
			j.cand.add(h.id, ref)
		}
	}
	return key
}

// keep files the kept row id of side input, row i of the batch, under its
// key (pendingKey: unindexed) and time.
func (j *intervalJoin) keep(s *intervalSide, input int, key int32, i int, t int64, id int32) {
	exp := rowtime.AddSaturating(t, s.rel+1)
	var pageExp int64
	if key == pendingKey {
		pageExp = s.rows.addPending(s.keys.ints[i], t, exp, id)
	} else {
		if key != nullKey {
			if c := j.chains.at(key); c[0].n == 0 && c[1].n == 0 {
				j.keys.ref(key)
			}
		}
		pageExp = s.rows.add(&j.chains, input, key, t, exp, id)
	}
	if s.outer {
		s.joined[id] = false
		s.expiry.push(expiryEntry{time: t, seq: s.seq, id: id})
		pageExp = exp
	}
	s.seq++
	j.next = min(j.next, pageExp)
}

// expire takes out of the store the pages of kept rows that all expired
// at the operator's time, and notes in pops (before row pos) the rows of
// outer sides expired since, for padding.
func (j *intervalJoin) expire(pos int32) {
	for side, s := range j.sides {
		m := j.merge[side][:0]
		for s.outer && s.expiry.len() > 0 {
			e := s.expiry.first()
			exp := rowtime.AddSaturating(e.time, s.rel+1)
			if exp > j.now {
				break
			}
			s.expiry.pop()
			m = append(m, expiredRow{pos: pos, side: uint8(side), id: e.id, exp: exp, seq: e.seq})
		}
		j.merge[side] = m
		j.gone[side] = s.rows.expire(j.now, &j.chains, j.keys, side, j.gone[side])
	}
	// by expiration time, the right side first, then arrival
	l, r := j.merge[0], j.merge[1]
	for len(l) > 0 || len(r) > 0 {
		if len(l) == 0 || len(r) > 0 && r[0].exp <= l[0].exp {
			j.pops, r = append(j.pops, r[0]), r[1:]
		} else {
			j.pops, l = append(j.pops, l[0]), l[1:]
		}
	}
	j.setNext()
}

// setNext sets when the next kept rows expire: the first page in the
// store or, on an outer side, the first row to pad.
func (j *intervalJoin) setNext() {
	j.next = math.MaxInt64
	for _, s := range j.sides {
		j.next = min(j.next, s.rows.nextExpiry())
		if s.outer && s.expiry.len() > 0 {
			j.next = min(j.next, rowtime.AddSaturating(s.expiry.first().time, s.rel+1))
		}
	}
}

// pad emits an expired row of an outer side that never joined.
func (j *intervalJoin) pad(e expiredRow) {
	if s := j.sides[e.side]; s.outer && !s.joined[e.id] {
		j.padRow(int(e.side), e.id)
	}
}

// padRow adds the row ref of side padded with the other side's NULLs.
func (j *intervalJoin) padRow(side int, ref int32) {
	if side == 0 {
		j.output.add(ref, nullRow)
	} else {
		j.output.add(nullRow, ref)
	}
}

// removeExpired forgets the rows expire took out, once what they padded
// is out.
func (j *intervalJoin) removeExpired() error {
	j.pops = j.pops[:0]
	for side, s := range j.sides {
		if len(j.gone[side]) == 0 {
			continue
		}
		s.store.RemoveAll(j.gone[side])
		j.gone[side] = j.gone[side][:0]
		if err := s.store.Compact(); err != nil {
			return err
		}
		s.rows.compact(&j.chains, side)
	}
	return nil
}

// ProcessWatermark expires what the watermark expires, pads the unjoined
// rows of outer sides among them, then forwards the watermark held back
// by the interval.
func (j *intervalJoin) ProcessWatermark(wm int64) error {
	if wm > j.now {
		before := j.now
		j.now = wm
		if wm >= j.next {
			if err := j.flushExpired(before); err != nil {
				return err
			}
		}
	}
	if out := rowtime.SubSaturating(wm, j.delay); out > j.forwarded {
		j.forwarded = out
		return j.out.ProcessWatermark(out)
	}
	return nil
}

// flushExpired expires at the operator's time outside a batch; the rows
// it pads go out under the time before it rose.
func (j *intervalJoin) flushExpired(before int64) error {
	j.pops = j.pops[:0]
	j.expire(0)
	j.output.reset()
	for _, e := range j.pops {
		j.pad(e)
	}
	var wms []int64
	if w := j.heldBack(before); w > j.forwarded {
		wms = fillWatermarks(&j.wms, j.output.len(), w)
	}
	if err := j.output.emit(j.out, nil, nil, wms, &j.stats); err != nil {
		return err
	}
	return j.removeExpired()
}

// ProcessEnd pads every kept row of an outer side that never joined, then
// ends.
func (j *intervalJoin) ProcessEnd() error {
	before := j.now
	j.now = rowtime.MaxWatermark
	if !j.sides[0].outer && !j.sides[1].outer {
		// an inner join pads no row, so what expires at the end needs no
		// order: the rows go at once, where expiring them one by one (a
		// pop, a key's run and a map delete each) was 28% of q7's CPU,
		// which keeps every bid to the end
		if err := j.dropAll(); err != nil {
			return err
		}
		return j.out.ProcessEnd()
	}
	if err := j.flushExpired(before); err != nil {
		return err
	}
	return j.out.ProcessEnd()
}

// dropAll forgets every kept row and key, leaving the state of a fresh
// join.
func (j *intervalJoin) dropAll() error {
	for _, s := range j.sides {
		st, err := newSideStore(s.store.Schema(), j.mem)
		if err != nil {
			return err
		}
		s.store.Release()
		s.store = st
		s.expiry, s.rows = expiryQueue{}, sideRows{lazy: s.rows.lazy}
		s.joined = []bool{false}
	}
	j.cand.left, j.cand.right = j.sides[0].store, j.sides[1].store
	j.output.left, j.output.right = j.sides[0].store, j.sides[1].store
	j.chains = keyChains{}
	j.chains.ensure(0)
	j.keys = newKeyIndex(j.keys.ints)
	j.next = math.MaxInt64
	return nil
}

func (j *intervalJoin) Close() {
	if j.closed {
		return
	}
	j.closed = true
	for _, s := range j.sides {
		if s != nil {
			s.store.Release()
		}
	}
}
