package joinop

// An interval join's kept rows are filed twice: under their key, in order
// of time (the rows a probe reads: a binary search, then a run), and in
// their side's heap, in the order they expire.

// keyState is a key's kept rows, left and right.
type keyState [2]keyRows

// keyStates are the keys' kept rows by key id, in pages that never move:
// one slice of them, copied (and its pointers with write barriers) at
// each growth, was two fifths of q7's interval join, its keys a million
// prices.
type keyStates struct{ pages [][]keyState }

const keyStatePage = 1024

func (k *keyStates) at(id int32) *keyState { return &k.pages[id/keyStatePage][id%keyStatePage] }

// ensure makes room for key id.
func (k *keyStates) ensure(id int32) {
	for int(id) >= len(k.pages)*keyStatePage {
		k.pages = append(k.pages, make([]keyState, keyStatePage))
	}
}

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

// expiryQueue is a side's kept rows in the order they expire. Rows come
// mostly in time order: those not before the last row queued in order
// wait in a FIFO of fixed pages, the others in the heap; the first is the
// smaller head. The heap alone grew as one slice copied at each growth
// and was a third of keeping a row when Nexmark q7 keeps every bid to
// the end; a page goes once its rows expired, so memory follows the
// state without a copy.
type expiryQueue struct {
	pages [][]expiryEntry // the FIFO: pages[0][head:], ..., the last page's first tail
	head  int
	tail  int
	n     int // rows in the FIFO
	late  expiryHeap
}

// expiryPage is how many rows a page of the FIFO holds.
const expiryPage = 4096

func (q *expiryQueue) len() int { return q.n + len(q.late) }

func (q *expiryQueue) push(e expiryEntry) {
	if q.n > 0 && e.less(q.pages[len(q.pages)-1][q.tail-1]) {
		q.late.push(e)
		return
	}
	if len(q.pages) == 0 || q.tail == expiryPage {
		q.pages = append(q.pages, make([]expiryEntry, expiryPage))
		q.tail = 0
	}
	q.pages[len(q.pages)-1][q.tail] = e
	q.tail++
	q.n++
}

// fifoFirst reports whether the first row is the FIFO's.
func (q *expiryQueue) fifoFirst() bool {
	return q.n > 0 && (len(q.late) == 0 || q.pages[0][q.head].less(q.late[0]))
}

// first is the row that expires first (the queue not empty).
func (q *expiryQueue) first() expiryEntry {
	if q.fifoFirst() {
		return q.pages[0][q.head]
	}
	return q.late[0]
}

// pop forgets the first row.
func (q *expiryQueue) pop() {
	if !q.fifoFirst() {
		q.late.pop()
		return
	}
	q.head++
	q.n--
	switch {
	case q.n == 0:
		clear(q.pages)
		q.pages, q.head, q.tail = q.pages[:0], 0, 0
	case q.head == expiryPage:
		q.pages[0] = nil
		q.pages, q.head = q.pages[1:], 0
	}
}

// all is every row queued, in no order.
func (q *expiryQueue) all() []expiryEntry {
	out := make([]expiryEntry, 0, q.len())
	for i, p := range q.pages {
		from, to := 0, expiryPage
		if i == 0 {
			from = q.head
		}
		if i == len(q.pages)-1 {
			to = q.tail
		}
		out = append(out, p[from:to]...)
	}
	return append(out, q.late...)
}
