package joinop

import (
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
	times   []int64 // the rows' times
	next    []int32 // the previous slot of the row's key on its side, -1 none
	ids     []int32 // the rows' ids in the store
	keys    []int32 // the rows' key ids
	maxExp  int64   // when its last row expires
	inStore bool    // its rows are in the store
}

// sideRows are one side's slots: slot s is row s%size of page s/size.
type sideRows struct {
	pages    []*rowPage
	outPages int // pages out of the store
	inRows   int // rows in the pages in the store
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

// add files row id of key at t, expiring at exp, as the newest slot of
// side's chain of the key (not linked for the null key), and returns when
// its page expires whole.
func (r *sideRows) add(chains *keyChains, side int, key int32, t, exp int64, id int32) int64 {
	var p *rowPage
	size := 1 << rowPageShift
	if n := len(r.pages); n > 0 && r.pages[n-1].inStore && len(r.pages[n-1].ids) < size {
		p = r.pages[n-1]
	} else {
		p = &rowPage{times: make([]int64, 0, size), next: make([]int32, 0, size),
			ids: make([]int32, 0, size), keys: make([]int32, 0, size), maxExp: exp, inStore: true}
		r.pages = append(r.pages, p)
	}
	slot := int32((len(r.pages)-1)<<rowPageShift + len(p.ids))
	prev := int32(-1)
	if key != nullKey {
		c := &chains.at(key)[side]
		prev, c.head = c.head, slot
		c.n++
	}
	p.times, p.next, p.ids, p.keys = append(p.times, t), append(p.next, prev), append(p.ids, id), append(p.keys, key)
	p.maxExp = max(p.maxExp, exp)
	r.inRows++
	return p.maxExp
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
		r.inRows -= len(p.ids)
		gone = append(gone, p.ids...)
		for _, key := range p.keys {
			if key == nullKey {
				continue
			}
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
	kept := r.pages[:0]
	for _, p := range r.pages {
		if p.inStore {
			kept = append(kept, p)
		}
	}
	clear(r.pages[len(kept):])
	r.pages, r.outPages = kept, 0
	for _, p := range r.pages {
		for _, key := range p.keys {
			if key != nullKey {
				chains.at(key)[side].head = -1
			}
		}
	}
	for i, p := range r.pages {
		for k, key := range p.keys {
			p.next[k] = -1
			if key != nullKey {
				c := &chains.at(key)[side]
				p.next[k], c.head = c.head, int32(i<<rowPageShift+k)
			}
		}
	}
}

// inStoreRows calls f with every row in the store, in arrival order.
func (r *sideRows) inStoreRows(f func(t int64, id, key int32)) {
	for _, p := range r.pages {
		if p.inStore {
			for k, id := range p.ids {
				f(p.times[k], id, p.keys[k])
			}
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
// in [lo, hi] and that have not expired at now (expiring at t+rel+1), by
// time, then arrival.
func (r *sideRows) probe(head int32, lo, hi, now, rel int64, hits []probeHit) []probeHit {
	from := len(hits)
	for slot := head; slot >= 0; {
		p, k := r.at(slot)
		if t := p.times[k]; t >= lo && t <= hi && rowtime.AddSaturating(t, rel+1) > now {
			hits = append(hits, probeHit{time: t, slot: slot, id: p.ids[k]})
		}
		slot = p.next[k]
	}
	found := hits[from:]
	slices.Reverse(found) // arrival order
	sorted := true
	for i := 1; i < len(found) && sorted; i++ {
		sorted = found[i-1].time <= found[i].time
	}
	if !sorted {
		slices.SortStableFunc(found, func(a, b probeHit) int {
			switch {
			case a.time < b.time:
				return -1
			case a.time > b.time:
				return 1
			}
			return 0
		})
	}
	return hits
}
