package windowop

import (
	"math/bits"
	"sort"
	"unsafe"
)

// alignedTimers holds the timers of windows that every key shares (TUMBLE,
// HOP, CUMULATE: panes are aligned, so all keys have the same windows). A
// timer (time, key, window) lives in the bucket of its (time, window) as a
// member of that bucket's key set, and buckets of one time form a slot:
//
//   - Register finds the bucket (the last one used, a small cache, or a map
//     by time) and adds the key: no hashing of a Timer, no heap push. The
//     same timer registered again is a set member already.
//   - Time slots are a min-heap by time; there are few of them (about the
//     live windows times two), not one per key.
//   - PopDue takes the smallest key of the earliest slot (if the slot has
//     buckets of several windows: the smallest (key, window) over them), so
//     timers pop in exactly the (time, key, window) order of TimerService,
//     also when firing registers new timers.
//
// A bucket's key set starts as a sorted slice and turns into a bitset once
// the bitset is no larger, so memory stays proportional to the timers.
type alignedTimers struct {
	slots  []*timeSlot // min-heap by time
	byTime map[int64]*timeSlot
	last   *timerBucket
	cache  [32]*timerBucket
	n      int   // pending timers
	held   int64 // bytes of the buckets, slots and key sets, kept for reuse too

	freeSlots   []*timeSlot
	freeBuckets []*timerBucket
}

type timeSlot struct {
	t       int64
	buckets []*timerBucket // sorted by window
}

type timerBucket struct {
	t    int64
	w    Window
	n    int      // keys in the set
	keys []uint32 // sorted key ids from head on, while bits is nil
	head int
	bits []uint64 // bitset of key ids, once large
	lo   int      // bits: words before lo are zero
}

// bucketSliceMax bounds the sorted-slice form (inserts move memory).
const bucketSliceMax = 1024

func newAlignedTimers() *alignedTimers {
	return &alignedTimers{byTime: make(map[int64]*timeSlot)}
}

func cacheIndex(t int64, w Window) int {
	h := uint64(t)*0x9E3779B97F4A7C15 ^ uint64(w.Start)*0xC2B2AE3D27D4EB4F
	return int(h >> 59)
}

// Register adds a timer unless an identical one is pending.
func (s *alignedTimers) Register(tm Timer) {
	b := s.last
	if b == nil || b.t != tm.Time || b.w != tm.Window {
		ci := cacheIndex(tm.Time, tm.Window)
		b = s.cache[ci]
		if b == nil || b.t != tm.Time || b.w != tm.Window {
			b = s.bucket(tm.Time, tm.Window)
			s.cache[ci] = b
		}
		s.last = b
	}
	before := b.setBytes()
	if b.add(tm.Key) {
		s.n++
	}
	if after := b.setBytes(); after != before {
		s.held += after - before
	}
}

// Bytes a time slot and a bucket take besides their key sets: the struct,
// its pointer in the heap or a free list, and for a slot its map entry.
const (
	timeSlotBytes = int64(unsafe.Sizeof(timeSlot{})) + 8 + 48
	bucketBytes   = int64(unsafe.Sizeof(timerBucket{})) + 8
)

// setBytes is the memory of the bucket's key set, in either form.
func (b *timerBucket) setBytes() int64 { return int64(cap(b.keys))*4 + int64(cap(b.bits))*8 }

// heldBytes is the memory the timers hold: it only grows, since emptied
// slots and buckets keep their memory for reuse.
func (s *alignedTimers) heldBytes() int64 { return s.held }

// bucket finds or creates the bucket of (t, w).
func (s *alignedTimers) bucket(t int64, w Window) *timerBucket {
	sl, ok := s.byTime[t]
	if !ok {
		if k := len(s.freeSlots); k > 0 {
			sl = s.freeSlots[k-1]
			s.freeSlots = s.freeSlots[:k-1]
		} else {
			sl = &timeSlot{}
			s.held += timeSlotBytes
		}
		sl.t = t
		s.byTime[t] = sl
		s.slots = append(s.slots, sl)
		slotsUp(s.slots, len(s.slots)-1)
	}
	i := sort.Search(len(sl.buckets), func(i int) bool { return !windowLess(sl.buckets[i].w, w) })
	if i < len(sl.buckets) && sl.buckets[i].w == w {
		return sl.buckets[i]
	}
	var b *timerBucket
	if k := len(s.freeBuckets); k > 0 {
		b = s.freeBuckets[k-1]
		s.freeBuckets = s.freeBuckets[:k-1]
	} else {
		b = &timerBucket{}
		s.held += bucketBytes
	}
	b.t, b.w = t, w
	c := cap(sl.buckets)
	sl.buckets = append(sl.buckets, nil)
	s.held += int64(cap(sl.buckets)-c) * 8
	copy(sl.buckets[i+1:], sl.buckets[i:])
	sl.buckets[i] = b
	return b
}

func windowLess(a, b Window) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	return a.End < b.End
}

// Len returns the number of pending timers.
func (s *alignedTimers) Len() int { return s.n }

// NextTime returns the earliest pending timer's time, or ok=false if none.
func (s *alignedTimers) NextTime() (int64, bool) {
	for len(s.slots) > 0 {
		sl := s.slots[0]
		for _, b := range sl.buckets {
			if b.n > 0 {
				return sl.t, true
			}
		}
		s.dropSlot()
	}
	return 0, false
}

// PopDue removes and returns the earliest timer with Time <= watermark.
func (s *alignedTimers) PopDue(watermark int64) (Timer, bool) {
	for len(s.slots) > 0 {
		sl := s.slots[0]
		if sl.t > watermark {
			break
		}
		var best *timerBucket
		var bestKey uint32
		for _, b := range sl.buckets {
			if b.n == 0 {
				continue
			}
			// buckets are in window order: on equal keys the first wins
			if k := b.min(); best == nil || k < bestKey {
				best, bestKey = b, k
			}
		}
		if best == nil {
			s.dropSlot()
			continue
		}
		best.removeMin()
		s.n--
		return Timer{Time: sl.t, Key: bestKey, Window: best.w}, true
	}
	return Timer{}, false
}

// dropSlot removes the earliest slot, all of whose buckets are empty, and
// keeps its memory for reuse.
func (s *alignedTimers) dropSlot() {
	sl := s.slots[0]
	n := len(s.slots) - 1
	s.slots[0] = s.slots[n]
	s.slots[n] = nil
	s.slots = s.slots[:n]
	slotsDown(s.slots, 0)
	delete(s.byTime, sl.t)
	for _, b := range sl.buckets {
		if s.last == b {
			s.last = nil
		}
		if ci := cacheIndex(b.t, b.w); s.cache[ci] == b {
			s.cache[ci] = nil
		}
		b.keys, b.head, b.lo = b.keys[:0], 0, 0
		clear(b.bits)
		s.freeBuckets = append(s.freeBuckets, b)
	}
	clear(sl.buckets)
	sl.buckets = sl.buckets[:0]
	s.freeSlots = append(s.freeSlots, sl)
}

// add puts key k in the set; it reports whether k was new.
func (b *timerBucket) add(k uint32) bool {
	if b.bits != nil {
		w := int(k >> 6)
		if w >= len(b.bits) {
			b.bits = append(b.bits, make([]uint64, w+1-len(b.bits))...)
		}
		m := uint64(1) << (k & 63)
		if b.bits[w]&m != 0 {
			return false
		}
		b.bits[w] |= m
		b.lo = min(b.lo, w)
		b.n++
		return true
	}
	live := b.keys[b.head:]
	if n := len(live); n == 0 || live[n-1] < k {
		// keys mostly arrive in increasing order
		b.keys = append(b.keys, k)
	} else {
		i := sort.Search(n, func(i int) bool { return live[i] >= k })
		if live[i] == k {
			return false
		}
		if b.head > 0 {
			copy(b.keys, live)
			b.keys = b.keys[:n]
			b.head = 0
		}
		b.keys = append(b.keys, 0)
		copy(b.keys[i+1:], b.keys[i:])
		b.keys[i] = k
	}
	b.n++
	if b.n > 32 && (b.n > bucketSliceMax || uint32(b.n)*32 > b.keys[len(b.keys)-1]) {
		b.toBits()
	}
	return true
}

// toBits turns the sorted slice into a bitset once that is no larger.
func (b *timerBucket) toBits() {
	live := b.keys[b.head:]
	words := int(live[len(live)-1]>>6) + 1
	if cap(b.bits) >= words {
		b.bits = b.bits[:words]
	} else {
		b.bits = make([]uint64, words)
	}
	for _, k := range live {
		b.bits[k>>6] |= 1 << (k & 63)
	}
	b.lo = int(live[0] >> 6)
	b.keys, b.head = b.keys[:0], 0
}

// min returns the smallest key of a non-empty set.
func (b *timerBucket) min() uint32 {
	if b.bits == nil {
		return b.keys[b.head]
	}
	for b.bits[b.lo] == 0 {
		b.lo++
	}
	return uint32(b.lo<<6 + bits.TrailingZeros64(b.bits[b.lo]))
}

// removeMin drops the smallest key (min was just called).
func (b *timerBucket) removeMin() {
	b.n--
	if b.bits == nil {
		b.head++
		if b.n == 0 {
			b.keys, b.head = b.keys[:0], 0
		}
		return
	}
	b.bits[b.lo] &= b.bits[b.lo] - 1
}

func slotsUp(h []*timeSlot, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[i].t >= h[p].t {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func slotsDown(h []*timeSlot, i int) {
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && h[r].t < h[c].t {
			c = r
		}
		if h[c].t >= h[i].t {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// each calls fn with every pending timer, by time and then window (a
// checkpoint lists them; Register in any order restores the queue).
func (s *alignedTimers) each(fn func(Timer)) {
	slots := append([]*timeSlot(nil), s.slots...)
	sort.Slice(slots, func(i, j int) bool { return slots[i].t < slots[j].t })
	for _, sl := range slots {
		for _, b := range sl.buckets {
			if b.bits == nil {
				for _, k := range b.keys[b.head:] {
					fn(Timer{Time: sl.t, Key: k, Window: b.w})
				}
				continue
			}
			for w := b.lo; w < len(b.bits); w++ {
				for x := b.bits[w]; x != 0; x &= x - 1 {
					fn(Timer{Time: sl.t, Key: uint32(w<<6 + bits.TrailingZeros64(x)), Window: b.w})
				}
			}
		}
	}
}
