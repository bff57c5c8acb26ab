package joinop

// An outer side's kept rows are queued in the order they expire, which
// is the order it pads the unjoined ones in (interval_rows.go files every
// kept row under its key).

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
