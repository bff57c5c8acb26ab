package windowop

// slotOrder is the order groupRows folds a batch's rows in: by slot, and
// in row order within a slot (a stable radix sort of the row indexes).
// The accumulators keep their state in arrays by slot; a batch over
// thousands of keys reads them at random, a cache miss per array per row
// once COUNT(DISTINCT)'s sets have pushed them out of the caches. In slot
// order each array is read forward, which the prefetcher follows. A slot's
// rows keep their order, so each result before and after a row is the
// same: slots do not share state.
type slotOrder struct {
	order, tmp []int32
	counts     [256]int32
}

// of returns the rows [0, len(slots)) in slot order, slots[i] >= 0. Rows
// already in slot order (one key, or keys in order) are returned as they
// are, without sorting.
func (o *slotOrder) of(slots []int32) []int32 {
	n := len(slots)
	o.order, o.tmp = grow(o.order, n), grow(o.tmp, n)
	order, tmp := o.order[:n], o.tmp[:n]
	for i := range order {
		order[i] = int32(i)
	}
	sorted, top := true, int32(0)
	for i, s := range slots {
		if i > 0 && s < slots[i-1] {
			sorted = false
		}
		top = max(top, s)
	}
	if sorted {
		return order
	}
	// a byte of the slot a pass, as many passes as the largest slot needs
	for shift := 0; shift < 32 && top>>shift > 0; shift += 8 {
		o.counts = [256]int32{}
		for _, s := range slots {
			o.counts[byte(s>>shift)]++
		}
		pos := int32(0)
		for d, c := range o.counts {
			o.counts[d] = pos
			pos += c
		}
		for _, i := range order {
			d := byte(slots[i] >> shift)
			tmp[o.counts[d]] = i
			o.counts[d]++
		}
		order, tmp = tmp, order
	}
	return order
}
