package joinop

import (
	"cmp"
	"math"
	"slices"

	"github.com/wsql/wsql/rowtime"
)

// An interval join files each side's kept rows in slots, in arrival
// order, and links them per key: a key's newest slot (its chain's head)
// and, per slot, the previous slot of its key. Keeping a row writes its
// slot and the key's head; a probe walks the chain and sorts what it
// finds by time, then arrival. Nexmark q7 keeps every bid to the end and
// probes a handful of keys once: a key's rows kept sorted on every insert
// (a slice per key, grown and shifted) were a fifth of its CPU and, with
// the expiry heap, 90 bytes a row on top of the row's own 50.
//
// A side of one integer key files its rows unindexed, with their keys'
// values, until probes have scanned as many of them as indexing them
// would cost (indexPerScan scans a row): then it numbers their keys and
// chains them. Nexmark q7 keeps 10M bids and probes them once: numbering
// their keys, a hash table of 3M prices, was a third of its CPU and a
// quarter of its state.
//
// Rows leave the store a page of slots at a time, once every row of the
// page expired: expired rows still filed fail a probe's expiry test. The
// slots stay while chains may run through them, until the pages out of
// the store outnumber those in it: then they go and the chains of the
// rows left are linked anew.

// rowPageShift makes a page of slots 1<<rowPageShift long: 4096 slots,
// 80 KiB (a variable so tests fill pages with few rows).
var rowPageShift = 12

// rowPage is a page of slots.
type rowPage struct {
	times   []int64 // the rows' times (its length is the page's)
	ids     []int32 // the rows' ids in the store, nil while they run on from idFrom
	idFrom  int32
	vals    []int64 // unindexed sides: the rows' key values
	keys    []int32 // the rows' key ids, pendingKey unindexed (nil: none indexed yet)
	next    []int32 // the previous slot of the row's key on its side, -1 none (with keys)
	pending int     // unindexed rows
	maxExp  int64   // when its last row expires
	inStore bool    // its rows are in the store
}

// pendingKey is the key id of a row not indexed yet.
const pendingKey int32 = -1

// indexPerScan is how many rows a probe scans for the cost of indexing
// one (a hash table's cache miss against a sequential compare).
const indexPerScan = 32

// sideRows are one side's slots: slot s is row s%size of page s/size.
type sideRows struct {
	pages     []*rowPage
	outPages  int  // pages out of the store
	inRows    int  // rows in the pages in the store
	lazy      bool // rows of a non-NULL integer key go unindexed
	pending   int  // unindexed rows in the store
	pendPage  int  // with pendOff, the first unindexed slot: rows come
	pendOff   int  // unindexed after it but for a NULL value's
	scanned   int  // slots probes scanned since the last indexing
	inIndexed int  // indexed rows in the store
}

// keyChain is one side's rows of a key: its newest slot (-1 none) and how
// many of its slots are in the store.
type keyChain struct{ head, n int32 }

// keyChains are the keys' chains by key id, both sides of a key side by
// side (a probe reads one, a keep the other: one cache line), in pages
// that never move.
type keyChains struct{ pages [][][2]keyChain }

const keyChainPage = 4096

func (k *keyChains) at(id int32) *[2]keyChain {
	return &k.pages[id/keyChainPage][id%keyChainPage]
}

// ensure makes room for key id, its chains empty.
func (k *keyChains) ensure(id int32) {
	for int(id) >= len(k.pages)*keyChainPage {
		p := make([][2]keyChain, keyChainPage)
		for i := range p {
			p[i] = [2]keyChain{{head: -1}, {head: -1}}
		}
		k.pages = append(k.pages, p)
	}
}

func (r *sideRows) at(slot int32) (*rowPage, int) {
	return r.pages[slot>>rowPageShift], int(slot & (1<<rowPageShift - 1))
}

// page is the page a new slot goes in.
func (r *sideRows) page(exp int64) *rowPage {
	size := 1 << rowPageShift
	if n := len(r.pages); n > 0 && r.pages[n-1].inStore && len(r.pages[n-1].times) < size {
		return r.pages[n-1]
	}
	p := &rowPage{times: make([]int64, 0, size), maxExp: exp, inStore: true}
	if r.lazy {
		p.vals = make([]int64, 0, size)
	}
	r.pages = append(r.pages, p)
	return p
}

// id is the store id of the page's row k.
func (p *rowPage) id(k int) int32 {
	if p.ids == nil {
		return p.idFrom + int32(k)
	}
	return p.ids[k]
}

// addID files the store id of a row added after the page's others.
func (p *rowPage) addID(id int32) {
	at := len(p.times)
	if p.ids == nil && (at == 0 || id == p.idFrom+int32(at)) {
		p.idFrom = id - int32(at)
		return
	}
	p.addIDs(at, []int32{id})
}

// addIDs files the store ids of the rows from the page's row at on. The
// store numbers rows it adds in a row while none left it: Nexmark q7's
// 9M bids keep no slice of ids, 37 MB of fresh memory.
func (p *rowPage) addIDs(at int, ids []int32) {
	if p.ids == nil {
		if at == 0 && len(ids) > 0 {
			p.idFrom = ids[0]
		}
		k := 0
		for k < len(ids) && ids[k] == p.idFrom+int32(at+k) {
			k++
		}
		if k == len(ids) {
			return
		}
		p.ids = make([]int32, at, 1<<rowPageShift)
		for r := range p.ids {
			p.ids[r] = p.idFrom + int32(r)
		}
	}
	p.ids = append(p.ids, ids...)
}

// indexed makes p's key ids and links, its rows so far unindexed.
func (p *rowPage) indexed() {
	if p.keys == nil {
		size := 1 << rowPageShift
		p.keys, p.next = make([]int32, len(p.times), size), make([]int32, len(p.times), size)
		for k := range p.keys {
			p.keys[k], p.next[k] = pendingKey, -1
		}
	}
}

// add files row id of key at t, expiring at exp, as the newest slot of
// side's chain of the key (not linked for the null key), and returns when
// its page expires whole.
func (r *sideRows) add(chains *keyChains, side int, key int32, t, exp int64, id int32) int64 {
	p := r.page(exp)
	p.indexed()
	slot := int32((len(r.pages)-1)<<rowPageShift + len(p.times))
	prev := int32(-1)
	if key != nullKey {
		c := &chains.at(key)[side]
		prev, c.head = c.head, slot
		c.n++
		r.inIndexed++
	}
	p.addID(id)
	p.times, p.keys, p.next = append(p.times, t), append(p.keys, key), append(p.next, prev)
	if r.lazy {
		p.vals = append(p.vals, 0)
	}
	p.maxExp = max(p.maxExp, exp)
	r.inRows++
	return p.maxExp
}

// addPending files row id of key value v at t, expiring at exp,
// unindexed, and returns when its page expires whole.
func (r *sideRows) addPending(v, t, exp int64, id int32) int64 {
	p := r.page(exp)
	if r.pending == 0 {
		r.pendPage, r.pendOff = len(r.pages)-1, len(p.times)
	}
	p.addID(id)
	p.times, p.vals = append(p.times, t), append(p.vals, v)
	if p.keys != nil {
		p.keys, p.next = append(p.keys, pendingKey), append(p.next, -1)
	}
	p.pending++
	r.pending++
	p.maxExp = max(p.maxExp, exp)
	r.inRows++
	return p.maxExp
}

// addPendingRun files unindexed, as addPending would one by one, the rows
// of a batch from the first of rows up to the first of a NULL value (ids
// their ids in the store, times, vals and nullValue by row of the batch,
// each expiring at its time + rel + 1), a page at a time. It returns how
// many it filed and the lowest of what addPending would have returned.
// Nexmark q7 keeps 9M bids unindexed: row by row their filing was a
// third of the join's time.
func (r *sideRows) addPendingRun(rows, ids []int32, times, vals []int64, nullValue []bool, rel int64) (int, int64) {
	size := 1 << rowPageShift
	next := int64(math.MaxInt64)
	n := 0
	for n < len(rows) && !nullValue[rows[n]] {
		exp := rowtime.AddSaturating(times[rows[n]], rel+1)
		p := r.page(exp)
		if r.pending == 0 {
			r.pendPage, r.pendOff = len(r.pages)-1, len(p.times)
		}
		maxExp := max(p.maxExp, exp)
		next = min(next, maxExp)
		c, at := 0, len(p.times)
		for _, i := range rows[n:min(len(rows), n+size-at)] {
			if nullValue[i] {
				break
			}
			t := times[i]
			p.times, p.vals = append(p.times, t), append(p.vals, vals[i])
			maxExp = max(maxExp, rowtime.AddSaturating(t, rel+1))
			c++
		}
		p.addIDs(at, ids[n:n+c])
		if p.keys != nil {
			for range c {
				p.keys, p.next = append(p.keys, pendingKey), append(p.next, -1)
			}
		}
		p.maxExp = maxExp
		p.pending += c
		r.pending += c
		r.inRows += c
		n += c
	}
	return n, next
}

// shouldIndex reports whether the unindexed rows are to be indexed before
// a probe: once scanning them again would bring the scans past their
// indexing's cost.
func (r *sideRows) shouldIndex() bool {
	return r.scanned+r.pending > indexPerScan*r.pending
}

// index numbers and chains the unindexed rows, in arrival order.
func (r *sideRows) index(chains *keyChains, keys *keyIndex, side int) {
	for i := r.pendPage; i < len(r.pages) && r.pending > 0; i++ {
		p := r.pages[i]
		if !p.inStore || p.pending == 0 {
			continue
		}
		p.indexed()
		for k := r.firstPending(i); k < len(p.keys); k++ {
			key := p.keys[k]
			if key != pendingKey {
				continue
			}
			key = keys.addInt(p.vals[k])
			chains.ensure(key)
			c := chains.at(key)
			if c[0].n == 0 && c[1].n == 0 {
				keys.ref(key)
			}
			p.keys[k] = key
			p.next[k], c[side].head = c[side].head, int32(i<<rowPageShift+k)
			c[side].n++
		}
		r.pending -= p.pending
		r.inIndexed += p.pending
		p.pending = 0
	}
	r.scanned = 0
}

// firstPending is where page i's unindexed rows start.
func (r *sideRows) firstPending(i int) int {
	if i == r.pendPage {
		return r.pendOff
	}
	return 0
}

// scanPending appends to hits the unindexed rows of key value v whose
// times are in [lo, hi] and that have not expired at now, in arrival
// order.
func (r *sideRows) scanPending(v, lo, hi, now, rel int64, hits []probeHit) []probeHit {
	for i := r.pendPage; i < len(r.pages); i++ {
		p := r.pages[i]
		if !p.inStore || p.pending == 0 {
			continue
		}
		from := r.firstPending(i)
		r.scanned += len(p.vals) - from
		for k := from; k < len(p.vals); k++ {
			x := p.vals[k]
			if x != v || p.keys != nil && p.keys[k] != pendingKey {
				continue
			}
			if t := p.times[k]; t >= lo && t <= hi && rowtime.AddSaturating(t, rel+1) > now {
				hits = append(hits, probeHit{time: t, slot: int32(i<<rowPageShift + k), id: p.id(k)})
			}
		}
	}
	return hits
}

// nextExpiry is when the first page in the store expires whole.
func (r *sideRows) nextExpiry() int64 {
	next := int64(math.MaxInt64)
	for _, p := range r.pages {
		if p.inStore {
			next = min(next, p.maxExp)
		}
	}
	return next
}

// expire takes the pages whose rows all expired at now out of the store,
// appending their rows' ids to gone, and drops the keys whose chains
// emptied (the null key's rows are in no chain).
func (r *sideRows) expire(now int64, chains *keyChains, keys *keyIndex, side int, gone []int32) []int32 {
	for _, p := range r.pages {
		if !p.inStore || p.maxExp > now {
			continue
		}
		p.inStore = false
		r.outPages++
		r.inRows -= len(p.times)
		r.pending -= p.pending
		for k := range p.times {
			gone = append(gone, p.id(k))
		}
		for _, key := range p.keys {
			if key == nullKey || key == pendingKey {
				continue
			}
			r.inIndexed--
			c := chains.at(key)
			if c[side].n--; c[side].n == 0 {
				c[side].head = -1
				if c[1-side].n == 0 {
					keys.unref(key)
				}
			}
		}
	}
	return gone
}

// compact drops the pages out of the store once they outnumber those in
// it, so the slots follow the state, and links the rows left anew.
func (r *sideRows) compact(chains *keyChains, side int) {
	if r.outPages == 0 || r.outPages < len(r.pages)-r.outPages {
		return
	}
	kept, pendPage := r.pages[:0], 0
	for i, p := range r.pages {
		if p.inStore {
			if i < r.pendPage {
				pendPage++
			}
			kept = append(kept, p)
		} else if i == r.pendPage {
			r.pendOff = 0 // its unindexed rows went with it
		}
	}
	clear(r.pages[len(kept):])
	r.pages, r.outPages, r.pendPage = kept, 0, pendPage
	for _, p := range r.pages {
		for _, key := range p.keys {
			if key != nullKey && key != pendingKey {
				chains.at(key)[side].head = -1
			}
		}
	}
	for i, p := range r.pages {
		for k, key := range p.keys {
			p.next[k] = -1
			if key != nullKey && key != pendingKey {
				c := &chains.at(key)[side]
				p.next[k], c.head = c.head, int32(i<<rowPageShift+k)
			}
		}
	}
}

// inStoreRows calls f with every row in the store, in arrival order, an
// unindexed one with pendingKey and its key's value.
func (r *sideRows) inStoreRows(f func(t int64, id, key int32, v int64)) {
	for _, p := range r.pages {
		if !p.inStore {
			continue
		}
		for k := range p.times {
			id := p.id(k)
			key, v := pendingKey, int64(0)
			if p.keys != nil {
				key = p.keys[k]
			}
			if key == pendingKey {
				v = p.vals[k]
			}
			f(p.times[k], id, key, v)
		}
	}
}

// probeHit is a kept row a probe found.
type probeHit struct {
	time int64
	slot int32
	id   int32
}

// probe appends to hits the rows of the chain from head whose times are
// in [lo, hi] and that have not expired at now (expiring at t+rel+1), in
// arrival order.
func (r *sideRows) probe(head int32, lo, hi, now, rel int64, hits []probeHit) []probeHit {
	from := len(hits)
	for slot := head; slot >= 0; {
		p, k := r.at(slot)
		if t := p.times[k]; t >= lo && t <= hi && rowtime.AddSaturating(t, rel+1) > now {
			hits = append(hits, probeHit{time: t, slot: slot, id: p.id(k)})
		}
		slot = p.next[k]
	}
	slices.Reverse(hits[from:])
	return hits
}

// byTime orders hits, in arrival order, by time, then arrival.
func byTime(hits []probeHit) {
	for i := 1; i < len(hits); i++ {
		if hits[i-1].time > hits[i].time {
			slices.SortStableFunc(hits, func(a, b probeHit) int { return cmp.Compare(a.time, b.time) })
			return
		}
	}
}
