package windowop

// keyPanes holds the live panes of every key: per key a slice of (pane,
// slot) sorted by pane. A key's live panes are few and nearly contiguous in
// time (those of its open windows), rows mostly hit the newest ones, and a
// window's panes are a run of the slice, so lookups are a short scan from
// the end or one binary search, with no hashing.
type keyPanes struct {
	byKey [][]paneSlot
}

type paneSlot struct {
	pane int64
	slot int32
}

// grow makes room for keys [0, n).
func (kp *keyPanes) grow(n int) {
	for len(kp.byKey) < n {
		kp.byKey = append(kp.byKey, nil)
	}
}

// find returns the slot of key k's pane p.
func (kp *keyPanes) find(k uint32, p int64) (int32, bool) {
	l := kp.byKey[k]
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
	l := append(kp.byKey[k], paneSlot{})
	i := len(l) - 1
	for i > 0 && l[i-1].pane > p {
		l[i] = l[i-1]
		i--
	}
	l[i] = paneSlot{pane: p, slot: s}
	kp.byKey[k] = l
	return i
}

// sharesWindow reports whether key k has a pane besides the one at index i
// inside w: then w's state, and its timers, already exist.
func (kp *keyPanes) sharesWindow(k uint32, i int, w Window) bool {
	l := kp.byKey[k]
	return (i > 0 && l[i-1].pane >= w.Start) || (i+1 < len(l) && l[i+1].pane < w.End)
}

// span returns the index range of key k's panes in [start, end).
func (kp *keyPanes) span(k uint32, start, end int64) (lo, hi int) {
	l := kp.byKey[k]
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
