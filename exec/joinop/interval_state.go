package joinop

// An interval join's kept rows are filed twice: under their key, in order
// of time (the rows a probe reads: a binary search, then a run), and in
// their side's heap, in the order they expire.

// keyState is a key's kept rows, left and right.
type keyState [2]keyRows

// keyRows are one side's kept rows of a key in order of time, then
// arrival; rows before head expired.
type keyRows struct {
	times []int64
	ids   []int32
	head  int
}

// insert keeps rows in order of time, then arrival: rows come mostly in
// time order, so the place is found from the end.
func (r *keyRows) insert(t int64, id int32) {
	r.times, r.ids = append(r.times, t), append(r.ids, id)
	i := len(r.times) - 1
	for i > r.head && r.times[i-1] > t {
		r.times[i], r.ids[i] = r.times[i-1], r.ids[i-1]
		i--
	}
	r.times[i], r.ids[i] = t, id
}

// dropFirst forgets the first row, the one that expired.
func (r *keyRows) dropFirst(id int32) {
	if r.ids[r.head] != id {
		panic("interval join: a key's rows are out of order")
	}
	r.head++
	if r.head == len(r.times) {
		r.times, r.ids, r.head = r.times[:0], r.ids[:0], 0
	} else if r.head >= 32 && 2*r.head >= len(r.times) {
		m := copy(r.times, r.times[r.head:])
		copy(r.ids, r.ids[r.head:])
		r.times, r.ids, r.head = r.times[:m], r.ids[:m], 0
	}
}

// expiryHeap orders a side's kept rows by time, then arrival: the order
// they expire in.
type expiryHeap []expiryEntry

type expiryEntry struct {
	time, seq int64
	id        int32
}

func (a expiryEntry) less(b expiryEntry) bool {
	return a.time < b.time || a.time == b.time && a.seq < b.seq
}

func (h *expiryHeap) push(e expiryEntry) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *expiryHeap) pop() {
	s := *h
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1].less(s[c]) {
			c++
		}
		if !s[c].less(s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
}
