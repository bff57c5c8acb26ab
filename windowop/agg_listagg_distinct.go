package windowop

// LISTAGG(DISTINCT x [, sep]) joins each value once, at the place of its
// first row by arrival, as Flink folds only a value new to the window's
// distinct view into LISTAGG. A slot's set maps each value it holds to the
// arrival number of its row, so a repeated value is dropped as it comes
// without growing the list. The rare rows that arrive after a later row of
// the same value (a sliding count window folding a batch again, panes or
// sessions merging) are kept, and the list is deduplicated once it is put
// in arrival order.

// keepDistinct reports whether slot s keeps value v of arrival number seq:
// not when it holds v from an earlier row.
func (a *listAggAcc) keepDistinct(s int32, v string, seq int64) bool {
	set := a.seen[s]
	if first, ok := set[v]; ok {
		if first <= seq {
			return false
		}
		set[string([]byte(v))] = seq // the map takes the key too: one that owns its memory
		return true
	}
	if set == nil {
		set = make(map[string]int64)
		a.seen[s] = set
	}
	set[string([]byte(v))] = seq // v is the batch's memory
	return true
}

// dedupe keeps the first row of each value in slot s's list, which must be
// in arrival order, and rebuilds its set from what it keeps.
func (a *listAggAcc) dedupe(s int32) {
	l := &a.lists[s]
	set := make(map[string]int64, len(l.items))
	t := &a.tmp
	t.clear()
	for k := range l.items {
		v := l.value(k)
		if _, ok := set[string(v)]; ok {
			continue
		}
		set[string(v)] = l.items[k].seq
		t.add(l.items[k].seq, v)
	}
	*l, *t = *t, *l
	a.seen[s] = set
}
