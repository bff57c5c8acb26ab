package windowop

// sessionQueue holds the sessions' timer entries in (time, key, window)
// order. Entries within a horizon of the earliest possible one go to a
// wheel of buckets, one per millisecond: a bucket's entries share their
// time, and taking the earliest walks the buckets forward as time moves.
// The others, earlier than the wheel's start (a session opened behind the
// rows before it) or past its horizon (a long gap), go to a heap. A
// session's entry is pushed when it opens and again when it is found
// stale, at its end; in a binary heap the second push went out of order
// and its pop sifted through the whole heap (against a run of in-order
// entries and that heap: Nexmark q11 0.96 of the CPU, SESSION over the
// benchmark's CSV file 0.92). Entries equal in their timer may pop in
// either order: they stand for the same session's timer, and one of them
// at most is armed.
type sessionQueue struct {
	// start is the time of the wheel's first bucket: every entry in the
	// wheel is in [start, start+wheelSize), its bucket time&wheelMask.
	start int64
	heads []int32 // by bucket: 1 + the index in pool of its first entry; 0 empty
	pool  []wheelEntry
	free  int32 // 1 + the first free pool index; 0 none
	n     int   // entries in the wheel
	heap  []sessionEntry
	// top1, prev1: wheelTop's answer until a push or pop changes it; top1 0
	// when not worked out (the queue's top is asked for a few times per
	// entry: 4% of Nexmark q11 with the answer worked out each time;
	// kept, 0.99 of its CPU)
	top1, prev1 int32
}

// wheelEntry is an entry in a bucket's list.
type wheelEntry struct {
	e    sessionEntry
	next int32 // 1 + the index of the bucket's next entry; 0 none
}

const (
	wheelSize = 1 << 14 // ms: a gap and the watermark's delay within 16 s stay in the wheel
	wheelMask = wheelSize - 1
)

func (q *sessionQueue) len() int { return q.n + len(q.heap) }

func (q *sessionQueue) push(e sessionEntry) {
	if q.heads == nil {
		q.heads = make([]int32, wheelSize)
	}
	if q.n == 0 {
		q.start = e.Time // an empty wheel may start anywhere
	}
	if e.Time == q.start {
		q.top1 = 0 // a new first of the first bucket, or before it
	}
	if e.Time < q.start || uint64(e.Time-q.start) >= wheelSize { // no overflow at either end of time
		q.heap = heapPush(q.heap, e)
		return
	}
	i := q.free
	if i != 0 {
		q.free = q.pool[i-1].next
	} else {
		q.pool = append(q.pool, wheelEntry{})
		i = int32(len(q.pool))
	}
	b := &q.heads[e.Time&wheelMask]
	q.pool[i-1] = wheelEntry{e: e, next: *b}
	*b = i
	q.n++
}

// wheelTop is the pool index + 1 of the wheel's earliest entry, and the
// one before it in its bucket's list (0: it is the first); 0, 0 when the
// wheel is empty. It moves the wheel's start to that entry's bucket.
func (q *sessionQueue) wheelTop() (i, prev int32) {
	if q.n == 0 {
		return 0, 0
	}
	if q.top1 != 0 {
		return q.top1, q.prev1
	}
	for q.heads[q.start&wheelMask] == 0 {
		q.start++
	}
	i = q.heads[q.start&wheelMask]
	for p, j := i, q.pool[i-1].next; j != 0; p, j = j, q.pool[j-1].next {
		if q.pool[j-1].e.Timer.before(&q.pool[i-1].e.Timer) {
			i, prev = j, p
		}
	}
	q.top1, q.prev1 = i, prev
	return i, prev
}

// fromWheel reports whether the earliest entry of the non-empty queue is
// the wheel's i.
func (q *sessionQueue) fromWheel(i int32) bool {
	return i != 0 && (len(q.heap) == 0 || !q.heap[0].Timer.before(&q.pool[i-1].e.Timer))
}

// top is the earliest entry of the non-empty queue.
func (q *sessionQueue) top() *sessionEntry {
	if i, _ := q.wheelTop(); q.fromWheel(i) {
		return &q.pool[i-1].e
	}
	return &q.heap[0]
}

// pop removes the earliest entry of the non-empty queue and returns it.
func (q *sessionQueue) pop() sessionEntry {
	i, prev := q.wheelTop()
	if !q.fromWheel(i) {
		var e sessionEntry
		q.heap, e = heapPop(q.heap)
		return e
	}
	w := &q.pool[i-1]
	if prev == 0 {
		q.heads[q.start&wheelMask] = w.next
	} else {
		q.pool[prev-1].next = w.next
	}
	e := w.e
	w.next, q.free = q.free, i
	q.n--
	q.top1 = 0
	return e
}
