package windowop

// MergingWindowSet tracks the session windows of every key (Flink's
// MergingWindowSet, one per key there). Each window maps to a state
// window — here the accumulator slot holding its state. When windows
// merge, the result keeps the state slot of one of them; the others'
// accumulators are folded into it and their slots freed, so a merge never
// moves the surviving state. Snapshot gives a key's mapping in a form a
// checkpoint can store. The keys' mappings share one pointer-free pool
// (flatLists), which the garbage collector does not scan.
type MergingWindowSet struct {
	lists flatLists[Mapping] // per key, sorted by window start; windows never overlap
}

// Mapping is one window and the slot that holds its state.
type Mapping struct {
	Window Window
	State  int32
}

// Grow makes room for keys [0, n).
func (s *MergingWindowSet) Grow(n int) { s.lists.grow(n) }

// Keys is the number of keys with room.
func (s *MergingWindowSet) Keys() int { return s.lists.keys() }

// Overlapping appends to dst the indexes of key k's windows that intersect
// w (overlap or touch), in start order.
func (s *MergingWindowSet) Overlapping(k uint32, w Window, dst []int) []int {
	for i, m := range s.lists.list(k) {
		if m.Window.Start > w.End {
			break
		}
		if m.Window.Intersects(w) {
			dst = append(dst, i)
		}
	}
	return dst
}

// Add inserts a window of key k that intersects no other.
func (s *MergingWindowSet) Add(k uint32, w Window, state int32) {
	l := s.lists.extend(k)
	i := len(l) - 1
	for i > 0 && l[i-1].Window.Start > w.Start {
		l[i] = l[i-1]
		i--
	}
	l[i] = Mapping{Window: w, State: state}
}

// Merge replaces key k's windows at idx (from Overlapping, at least one)
// by result, which keeps the state slot of the first; it returns the
// mappings that were merged away (their state must be folded into the
// kept slot). The returned slice is valid until the next call.
func (s *MergingWindowSet) Merge(k uint32, idx []int, result Window, merged []Mapping) (kept Mapping, mergedAway []Mapping) {
	l := s.lists.list(k)
	first := idx[0]
	old := l[first]
	kept = Mapping{Window: result, State: old.State}
	merged = merged[:0]
	for _, i := range idx[1:] {
		merged = append(merged, l[i])
	}
	// idx is contiguous in start order: windows between two intersecting
	// windows of w intersect w too.
	last := idx[len(idx)-1]
	l[first] = kept
	s.lists.setLen(k, len(append(l[:first+1], l[last+1:]...)))
	return kept, merged
}

// StateWindow returns the slot of key k's window w, if w is in the set.
func (s *MergingWindowSet) StateWindow(k uint32, w Window) (int32, bool) {
	for _, m := range s.lists.list(k) {
		if m.Window == w {
			return m.State, true
		}
	}
	return -1, false
}

// RetireWindow removes key k's window w (its state is cleaned up).
func (s *MergingWindowSet) RetireWindow(k uint32, w Window) bool {
	l := s.lists.list(k)
	for i, m := range l {
		if m.Window == w {
			if len(l) == 1 {
				// A key without windows holds no room in the pool: the
				// pool keeps to the live sessions, not to every key that
				// ever had one (Nexmark q11's 200,000 bidders: growing the
				// pool went from 0.044 to 0.008 CPU-s a run).
				s.lists.drop(k)
				return true
			}
			s.lists.setLen(k, len(append(l[:i], l[i+1:]...)))
			return true
		}
	}
	return false
}

// Get returns key k's mapping at index i (from Overlapping).
func (s *MergingWindowSet) Get(k uint32, i int) Mapping { return s.lists.list(k)[i] }

// Len returns the number of key k's windows.
func (s *MergingWindowSet) Len(k uint32) int { return len(s.lists.list(k)) }

// Snapshot returns a copy of key k's mappings in start order.
func (s *MergingWindowSet) Snapshot(k uint32) []Mapping {
	return append([]Mapping(nil), s.lists.list(k)...)
}
