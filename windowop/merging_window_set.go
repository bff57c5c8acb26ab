package windowop

// MergingWindowSet tracks the session windows of one key (Flink's
// MergingWindowSet). Each window maps to a state window — here the
// accumulator slot holding its state. When windows merge, the result keeps
// the state slot of one of them; the others' accumulators are folded into
// it and their slots freed, so a merge never moves the surviving state.
// Snapshot gives the mapping in a form a checkpoint can store.
type MergingWindowSet struct {
	mappings []Mapping // sorted by window start; windows never overlap
}

// Mapping is one window and the slot that holds its state.
type Mapping struct {
	Window Window
	State  int32
}

// Overlapping appends to dst the indexes of the windows that intersect w
// (overlap or touch), in start order.
func (s *MergingWindowSet) Overlapping(w Window, dst []int) []int {
	for i, m := range s.mappings {
		if m.Window.Start > w.End {
			break
		}
		if m.Window.Intersects(w) {
			dst = append(dst, i)
		}
	}
	return dst
}

// Add inserts a window that intersects no other.
func (s *MergingWindowSet) Add(w Window, state int32) {
	i := len(s.mappings)
	for i > 0 && s.mappings[i-1].Window.Start > w.Start {
		i--
	}
	s.mappings = append(s.mappings, Mapping{})
	copy(s.mappings[i+1:], s.mappings[i:])
	s.mappings[i] = Mapping{Window: w, State: state}
}

// Merge replaces the windows at idx (from Overlapping, at least one) by
// result, which keeps the state slot of the first; it returns the mappings
// that were merged away (their state must be folded into the kept slot).
// The returned slice is valid until the next call.
func (s *MergingWindowSet) Merge(idx []int, result Window, merged []Mapping) (kept Mapping, mergedAway []Mapping) {
	first := idx[0]
	old := s.mappings[first]
	kept = Mapping{Window: result, State: old.State}
	merged = merged[:0]
	for _, i := range idx[1:] {
		merged = append(merged, s.mappings[i])
	}
	// idx is contiguous in start order: windows between two intersecting
	// windows of w intersect w too.
	last := idx[len(idx)-1]
	s.mappings[first] = kept
	s.mappings = append(s.mappings[:first+1], s.mappings[last+1:]...)
	return kept, merged
}

// StateWindow returns the slot of window w, if w is in the set.
func (s *MergingWindowSet) StateWindow(w Window) (int32, bool) {
	for _, m := range s.mappings {
		if m.Window == w {
			return m.State, true
		}
	}
	return -1, false
}

// RetireWindow removes w from the set (its state is cleaned up).
func (s *MergingWindowSet) RetireWindow(w Window) bool {
	for i, m := range s.mappings {
		if m.Window == w {
			s.mappings = append(s.mappings[:i], s.mappings[i+1:]...)
			return true
		}
	}
	return false
}

// Get returns the mapping at index i (from Overlapping).
func (s *MergingWindowSet) Get(i int) Mapping { return s.mappings[i] }

// Len returns the number of windows in the set.
func (s *MergingWindowSet) Len() int { return len(s.mappings) }

// Snapshot returns a copy of the mappings in start order.
func (s *MergingWindowSet) Snapshot() []Mapping {
	return append([]Mapping(nil), s.mappings...)
}
