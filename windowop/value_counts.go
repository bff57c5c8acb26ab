package windowop

import "iter"

// valueCounts is, per slot, how many rows hold each value: the state of
// MIN/MAX and DISTINCT under retraction. A slot's map gives a value's
// index in one slice of counts, so counting one more or one fewer row of
// a value it holds writes the slice, never the map: Go writes a string
// key again on every assignment to its entry, and a value read from a
// batch borrows memory that the batch's producer may reuse once the batch
// is released. Only a value new to a slot is owned (copied) as it enters.
type valueCounts[K comparable] struct {
	sets []map[K]int32
	n    []int64 // by index; 0 at a free index
	free []int32
}

func (c *valueCounts[K]) resize(n int) {
	c.sets = extendTo(c.sets, n)
}

// reset empties slot s.
func (c *valueCounts[K]) reset(s int32) {
	for _, j := range c.sets[s] {
		c.release(j)
	}
	c.sets[s] = nil
}

// clear empties slot s, keeping its map for the next values.
func (c *valueCounts[K]) clear(s int32) {
	for _, j := range c.sets[s] {
		c.release(j)
	}
	clear(c.sets[s])
}

func (c *valueCounts[K]) release(j int32) {
	c.n[j] = 0
	c.free = append(c.free, j)
}

// len is how many distinct values slot s holds.
func (c *valueCounts[K]) len(s int32) int { return len(c.sets[s]) }

// count is how many rows of v slot s holds.
func (c *valueCounts[K]) count(s int32, v K) int64 {
	if j, ok := c.sets[s][v]; ok {
		return c.n[j]
	}
	return 0
}

// add adds delta rows of v to slot s and returns the count before, and v
// as the slot holds it. A value that enters is first passed through own
// (nil: kept as is); one whose count falls to 0 or below leaves. Taking
// out rows of a value the slot does not hold changes nothing.
func (c *valueCounts[K]) add(s int32, v K, delta int64, own func(K) K) (before int64, held K) {
	m := c.sets[s]
	if j, ok := m[v]; ok {
		before = c.n[j]
		if c.n[j] += delta; c.n[j] <= 0 {
			delete(m, v)
			c.release(j)
		}
		return before, v
	}
	if delta <= 0 {
		return 0, v
	}
	if m == nil {
		m = map[K]int32{}
		c.sets[s] = m
	}
	if own != nil {
		v = own(v)
	}
	var j int32
	if k := len(c.free); k > 0 {
		j, c.free = c.free[k-1], c.free[:k-1]
	} else {
		j = int32(len(c.n))
		c.n = append(c.n, 0)
	}
	c.n[j] = delta
	m[v] = j
	return 0, v
}

// all is slot s's values with their counts, in no order.
func (c *valueCounts[K]) all(s int32) iter.Seq2[K, int64] {
	return func(yield func(K, int64) bool) {
		for v, j := range c.sets[s] {
			if !yield(v, c.n[j]) {
				return
			}
		}
	}
}

// values is slot s's values, in no order.
func (c *valueCounts[K]) values(s int32) iter.Seq[K] {
	return func(yield func(K) bool) {
		for v := range c.sets[s] {
			if !yield(v) {
				return
			}
		}
	}
}

// mergeInto adds slot src's counts to slot dst's and returns the values
// new to dst, appended to fresh.
func (c *valueCounts[K]) mergeInto(dst, src int32, fresh []K) []K {
	for v, j := range c.sets[src] {
		if before, _ := c.add(dst, v, c.n[j], nil); before == 0 {
			fresh = append(fresh, v)
		}
	}
	return fresh
}
