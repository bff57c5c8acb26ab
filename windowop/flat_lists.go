package windowop

// flatLists holds one short list of E per key in a single pool, each list
// a run of the pool whose capacity is a power of two; a list that outgrows
// its run moves to a run twice as long and frees the old one for reuse.
// With E free of pointers nothing here is scanned by the garbage
// collector, where a slice per key was a pointer per key to scan and an
// object per key to mark at every cycle (the pane lists of Nexmark q12's
// 200,000 bidders).
//
// A slice from list stays valid until the next call that grows a list.
type flatLists[E any] struct {
	pool  []E
	heads []listHead
	free  [32][]uint32 // by log2 of capacity: offsets of free runs
}

// listHead is where a list lives: its run of the pool and its length.
type listHead struct {
	off   uint32
	n     uint32
	class uint8 // capacity 1<<class; noRun: the list has no run yet
}

const noRun = 0xff

// grow makes room for lists [0, n), empty.
func (l *flatLists[E]) grow(n int) {
	for len(l.heads) < n {
		l.heads = append(l.heads, listHead{class: noRun})
	}
}

// keys is the number of lists.
func (l *flatLists[E]) keys() int { return len(l.heads) }

// list is list k, with its run's capacity beyond its length, so in-place
// edits followed by setLen change it.
func (l *flatLists[E]) list(k uint32) []E {
	h := l.heads[k]
	if h.class == noRun {
		return nil
	}
	return l.pool[h.off : h.off+h.n : h.off+1<<h.class]
}

// setLen sets the length of list k, at most its capacity.
func (l *flatLists[E]) setLen(k uint32, n int) { l.heads[k].n = uint32(n) }

// extend makes list k one element longer (the new last element is zero)
// and returns the list.
func (l *flatLists[E]) extend(k uint32) []E {
	h := &l.heads[k]
	if h.class == noRun || h.n == 1<<h.class {
		class := uint8(0)
		if h.class != noRun {
			class = h.class + 1
		}
		off := l.alloc(class)
		if h.class != noRun {
			copy(l.pool[off:], l.pool[h.off:h.off+h.n])
			l.free[h.class] = append(l.free[h.class], h.off)
		}
		h.off, h.class = off, class
	}
	var zero E
	l.pool[h.off+h.n] = zero
	h.n++
	return l.pool[h.off : h.off+h.n : h.off+1<<h.class]
}

// drop empties list k and frees its run for reuse.
func (l *flatLists[E]) drop(k uint32) {
	h := &l.heads[k]
	if h.class != noRun {
		l.free[h.class] = append(l.free[h.class], h.off)
	}
	*h = listHead{class: noRun}
}

// alloc returns the offset of a free run of capacity 1<<class.
func (l *flatLists[E]) alloc(class uint8) uint32 {
	if f := l.free[class]; len(f) > 0 {
		off := f[len(f)-1]
		l.free[class] = f[:len(f)-1]
		return off
	}
	off := len(l.pool)
	size := 1 << class
	if off+size > cap(l.pool) {
		l.pool = append(l.pool[:cap(l.pool)], make([]E, max(size, cap(l.pool)))...)
	}
	l.pool = l.pool[:off+size]
	return uint32(off)
}
