package windowop

// flatLists holds one short list of E per key in one pool of pages, each list
// a run of the pool whose capacity is a power of two; a list that outgrows
// its run moves to a run twice as long and frees the old one for reuse.
// With E free of pointers nothing here is scanned by the garbage
// collector, where a slice per key was a pointer per key to scan and an
// object per key to mark at every cycle (the pane lists of Nexmark q12's
// 200,000 bidders).
//
// The pool is a list of pages that never move: a pool that was one slice
// copied itself into a new one twice its size as it grew, megabytes in a
// copy the garbage collector waits for before it can stop the goroutine,
// into fresh memory whose pages each cost a fault (Nexmark q12: memmove,
// memclr and the collector's spinning were a third of the CPU).
//
// A slice from list stays valid until the next call that grows a list.
type flatLists[E any] struct {
	pages [][]E                     // pageLen elements each, but for a run longer than that, alone on its page
	cur   int                       // the page runs are cut from
	room  int                       // elements of page cur not yet cut
	heads []*[headsPage]listHead[E] // by key, in pages that never move either
	nkeys int
	free  [32][]uint32 // by log2 of capacity: offsets of free runs
}

// listHead is where a list lives: its run of the pool and its length. A
// list of capacity one lives in its head (one), where reading it is one
// load from the key's head instead of a chain through the pool's pages;
// nearly every key of a session or tumbling window holds one window at a
// time (Nexmark q11: 4% less CPU). It costs an element's room in every
// key's head: a session set's heads are 40 bytes instead of 12. An offset
// is the page's index above pageBits and the run's start in the page
// below them. The zero listHead is an empty list without a run.
type listHead[E any] struct {
	one  [1]E // the list when size is 1
	off  uint32
	n    uint32
	size uint8 // the run's capacity is 1<<(size-1); 0: no run yet; 1: one
}

const (
	pageBits  = 14
	pageLen   = 1 << pageBits
	headsBits = 12
	headsPage = 1 << headsBits
)

// grow makes room for lists [0, n), empty.
func (l *flatLists[E]) grow(n int) {
	for len(l.heads)*headsPage < n {
		l.heads = append(l.heads, new([headsPage]listHead[E]))
	}
	l.nkeys = max(l.nkeys, n)
}

// keys is the number of lists.
func (l *flatLists[E]) keys() int { return l.nkeys }

// head is list k's head.
func (l *flatLists[E]) head(k uint32) *listHead[E] { return &l.heads[k>>headsBits][k&(headsPage-1)] }

// run is the run at off, of capacity 1<<class.
func (l *flatLists[E]) run(off uint32, class uint8) []E {
	start := off & (pageLen - 1)
	return l.pages[off>>pageBits][start : start+1<<class]
}

// list is list k, with its run's capacity beyond its length, so in-place
// edits followed by setLen change it.
func (l *flatLists[E]) list(k uint32) []E {
	h := l.head(k)
	switch h.size {
	case 0:
		return nil
	case 1:
		return h.one[:h.n]
	}
	return l.run(h.off, h.size-1)[:h.n]
}

// setLen sets the length of list k, at most its capacity.
func (l *flatLists[E]) setLen(k uint32, n int) { l.head(k).n = uint32(n) }

// extend makes list k one element longer (the new last element is zero)
// and returns the list.
func (l *flatLists[E]) extend(k uint32) []E {
	h := l.head(k)
	var zero E
	switch {
	case h.size == 0:
		h.size = 1
		fallthrough
	case h.size == 1 && h.n == 0:
		h.one[0], h.n = zero, 1
		return h.one[:1]
	case h.size == 1: // full: to a run of two
		off := l.alloc(1)
		l.run(off, 1)[0] = h.one[0]
		h.one[0] = zero
		h.off, h.size = off, 2
	case h.n == 1<<(h.size-1): // a run twice as long
		off := l.alloc(h.size)
		copy(l.run(off, h.size), l.run(h.off, h.size-1))
		l.free[h.size-1] = append(l.free[h.size-1], h.off)
		h.off = off
		h.size++
	}
	r := l.run(h.off, h.size-1)
	r[h.n] = zero
	h.n++
	return r[:h.n]
}

// drop empties list k and frees its run for reuse.
func (l *flatLists[E]) drop(k uint32) {
	h := l.head(k)
	if h.size > 1 {
		l.free[h.size-1] = append(l.free[h.size-1], h.off)
	}
	*h = listHead[E]{}
}

// alloc returns the offset of a free run of capacity 1<<class: a freed
// one, or the next of the current page. What is left of a page too short
// for the run is freed as runs of the classes its length is made of.
func (l *flatLists[E]) alloc(class uint8) uint32 {
	if f := l.free[class]; len(f) > 0 {
		off := f[len(f)-1]
		l.free[class] = f[:len(f)-1]
		return off
	}
	size := 1 << class
	if size > pageLen {
		l.pages = append(l.pages, make([]E, size))
		return uint32(len(l.pages)-1) << pageBits
	}
	if size > l.room {
		for c := pageBits - 1; c >= 0; c-- {
			if l.room&(1<<c) != 0 {
				l.free[c] = append(l.free[c], l.cut(1<<c))
			}
		}
		l.pages = append(l.pages, make([]E, pageLen))
		l.cur, l.room = len(l.pages)-1, pageLen
	}
	return l.cut(size)
}

// cut takes the next size elements of the current page.
func (l *flatLists[E]) cut(size int) uint32 {
	off := uint32(l.cur)<<pageBits | uint32(pageLen-l.room)
	l.room -= size
	return off
}

// pooled is the number of elements in the pages.
func (l *flatLists[E]) pooled() int {
	n := 0
	for _, p := range l.pages {
		n += len(p)
	}
	return n
}
