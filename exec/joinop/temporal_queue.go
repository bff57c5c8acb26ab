package joinop

// probe is a probe row waiting for the watermark, or a key's right-row
// timer (only time and key set).
type probe struct {
	time int64
	seq  int64 // arrival order
	id   int32 // its row in the left store
	key  int32 // -1: a NULL key, which joins nothing
}

// probeQueue is a binary min-heap of probe rows by (time, seq): a firing
// pops them in the order they are sent. It also keeps the keys' timers. Rows come mostly in time order,
// and a push then stops at the first parent.
type probeQueue []probe

func (q probeQueue) less(i, j int) bool {
	return q[i].time < q[j].time || q[i].time == q[j].time && q[i].seq < q[j].seq
}

func (q *probeQueue) push(p probe) {
	h := append(*q, p)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	*q = h
}

func (q *probeQueue) pop() probe {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}
