package windowop

// keyPanes holds the live panes of every key: per key a list of (pane,
// slot) sorted by pane. A key's live panes are few and nearly contiguous in
// time (those of its open windows), rows mostly hit the newest ones, and a
// window's panes are a run of the list, so lookups are a short scan from
// the end or one binary search, with no hashing. The lists share one
// pointer-free pool (flatLists): with a slice per key, scanning and
// marking them was most of the collector's work in a TUMBLE per bidder.
type keyPanes struct {
	lists flatLists[paneSlot]
}

type paneSlot struct {
	pane int64
	slot int32
}

// grow makes room for keys [0, n).
func (kp *keyPanes) grow(n int) { kp.lists.grow(n) }

// keys is the number of keys with room.
func (kp *keyPanes) keys() int { return kp.lists.keys() }

// of is key k's panes, valid until the next insert; edit them in place
// and set their number with setLen.
func (kp *keyPanes) of(k uint32) []paneSlot { return kp.lists.list(k) }

// setLen keeps the first n panes of key k.
func (kp *keyPanes) setLen(k uint32, n int) { kp.lists.setLen(k, n) }

// find returns the slot of key k's pane p.
func (kp *keyPanes) find(k uint32, p int64) (int32, bool) {
	l := kp.lists.list(k)
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].pane == p {
			return l[i].slot, true
		}
		if l[i].pane < p {
			break
		}
	}
	return -1, false
}

// insert adds key k's pane p (not present) with slot s and returns its index.
func (kp *keyPanes) insert(k uint32, p int64, s int32) int {
	l := kp.lists.extend(k)
	i := len(l) - 1
	for i > 0 && l[i-1].pane > p {
		l[i] = l[i-1]
		i--
	}
	l[i] = paneSlot{pane: p, slot: s}
	return i
}

// sharesWindow reports whether key k has a pane besides the one at index i
// inside w: then w's state, and its timers, already exist.
func (kp *keyPanes) sharesWindow(k uint32, i int, w Window) bool {
	l := kp.lists.list(k)
	return (i > 0 && l[i-1].pane >= w.Start) || (i+1 < len(l) && l[i+1].pane < w.End)
}

// span returns the index range of key k's panes in [start, end).
func (kp *keyPanes) span(k uint32, start, end int64) (lo, hi int) {
	l := kp.lists.list(k)
	lo, hi = 0, len(l)
	for lo < hi { // first pane >= start
		mid := int(uint(lo+hi) >> 1)
		if l[mid].pane < start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	hi = lo
	for hi < len(l) && l[hi].pane < end {
		hi++
	}
	return lo, hi
}
