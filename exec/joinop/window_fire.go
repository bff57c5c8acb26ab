package joinop

// A firing joins each fired group's rows in steps of Flink's nested loops,
// gathering their candidate pairs so the Residual is evaluated a chunk of
// pairs at a time, then emits each step's rows in order.

// fireUnit is one step of a firing's output: a left row against its
// group's right rows (side 0), a right row against the left rows (side
// 1, RIGHT), or a FULL group's right rows nothing matched (side 2).
type fireUnit struct {
	side  uint8
	id    int32
	cands int32 // end of its candidates in cand
	grp   int32 // its pending group, for FULL
}

// pendGroup is a FULL group's right rows in rIDs (which rows matched in
// rMatched).
type pendGroup struct{ rs, re int32 }

// fireChunk bounds the candidate pairs a firing evaluates at once.
const fireChunk = 8192

func (w *windowJoin) resetFiring() {
	w.cand.reset()
	w.units, w.pend = w.units[:0], w.pend[:0]
	w.rIDs, w.rMatched = w.rIDs[:0], w.rMatched[:0]
}

// joinGroup adds a group's steps (and their candidate pairs) to the
// firing, flushing when enough pairs wait.
func (w *windowJoin) joinGroup(g int32) error {
	grp := w.gs[g]
	kind := w.cfg.Kind
	match := !grp.noMatch && grp.n[0] > 0 && grp.n[1] > 0
	if !match && (kind == Inner || kind == Semi) {
		return nil
	}
	w.lRows = w.list(0, grp, w.lRows[:0])
	w.rRows = w.list(1, grp, w.rRows[:0])
	if kind == RightOuter {
		for _, r := range w.rRows {
			if match {
				for _, l := range w.lRows {
					w.cand.add(l, r)
				}
			}
			w.units = append(w.units, fireUnit{side: 1, id: r, cands: int32(w.cand.len())})
			if err := w.flushIfFull(); err != nil {
				return err
			}
		}
		return nil
	}
	pg := int32(-1)
	if kind == FullOuter {
		pg = int32(len(w.pend))
		rs := int32(len(w.rIDs))
		w.rIDs = append(w.rIDs, w.rRows...)
		for range w.rRows {
			w.rMatched = append(w.rMatched, false)
		}
		w.pend = append(w.pend, pendGroup{rs: rs, re: int32(len(w.rIDs))})
	}
	for _, l := range w.lRows {
		if match {
			for _, r := range w.rRows {
				w.cand.add(l, r)
			}
		}
		w.units = append(w.units, fireUnit{side: 0, id: l, cands: int32(w.cand.len()), grp: pg})
		if kind != FullOuter {
			if err := w.flushIfFull(); err != nil {
				return err
			}
		}
	}
	if kind == FullOuter {
		// a FULL group is flushed whole: its last step needs every
		// match of its right rows
		w.units = append(w.units, fireUnit{side: 2, grp: pg, cands: int32(w.cand.len())})
		return w.flushIfFull()
	}
	return nil
}

// list appends the ids of a group's rows of side, in arrival order.
func (w *windowJoin) list(side int, grp joinGroup, dst []int32) []int32 {
	next := w.sides[side].next
	for id, k := grp.first[side], grp.n[side]; k > 0; id, k = next[id], k-1 {
		dst = append(dst, id)
	}
	return dst
}

func (w *windowJoin) flushIfFull() error {
	if w.cand.len() < fireChunk {
		return nil
	}
	return w.flush()
}

// flush evaluates the waiting pairs, emits the waiting steps' rows and
// starts over.
func (w *windowJoin) flush() error {
	if len(w.units) == 0 {
		return nil
	}
	if err := w.cand.match(nil, nil); err != nil {
		return err
	}
	w.output.reset()
	kind := w.cfg.Kind
	c := int32(0)
	for _, u := range w.units {
		matched := false
		switch u.side {
		case 0:
			var pg pendGroup
			if u.grp >= 0 {
				pg = w.pend[u.grp]
			}
			for k := int32(0); c < u.cands; c, k = c+1, k+1 {
				if !w.cand.mask[c] {
					continue
				}
				matched = true
				switch kind {
				case Semi, Anti:
				default:
					w.output.add(w.cand.l[c], w.cand.r[c])
				}
				if u.grp >= 0 {
					w.rMatched[pg.rs+k] = true
				}
			}
			switch {
			case kind == Semi && matched, kind == Anti && !matched,
				!matched && (kind == LeftOuter || kind == FullOuter):
				w.output.add(u.id, nullRow)
			}
		case 1:
			for ; c < u.cands; c++ {
				if w.cand.mask[c] {
					matched = true
					w.output.add(w.cand.l[c], w.cand.r[c])
				}
			}
			if !matched {
				w.output.add(nullRow, u.id)
			}
		case 2:
			pg := w.pend[u.grp]
			for k := pg.rs; k < pg.re; k++ {
				if !w.rMatched[k] {
					w.output.add(nullRow, w.rIDs[k])
				}
			}
		}
	}
	if err := w.output.emit(w.out, nil, nil, nil, &w.stats); err != nil {
		return err
	}
	w.resetFiring()
	return nil
}
