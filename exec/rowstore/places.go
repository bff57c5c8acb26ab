package rowstore

// placePage is how many ids a page of the id table holds. The table grew
// as one slice, copied at each growth: with a join keeping every row of
// an input (Nexmark q4's 9M bids) that copy was a tenth of the query's
// CPU, and the old and the new slice were both alive at its peak.
const placePage = 1 << 14

// places is the id table, where each id's row is, in pages that never
// move once made.
type places struct {
	pages []placeTable
	n     int
}

// placeTable is one page of the id table: each id's place spelled out,
// or, while its ids are runs of consecutive rows of chunks (as Add
// numbers the rows of a batch), those runs alone. A store that only adds
// (a join's side of an append-only input) keeps its pages as runs: spelled
// out, Nexmark q9's join took 8 bytes a row for its 20M ids (158 MB).
type placeTable struct {
	dense []place    // nil while runs describe the page
	runs  []placeRun // by first
	last  int32      // the run of the last look-up
}

// placeRun is the page's ids from first on (up to the next run's first):
// rows row, row+1, ... of chunk.
type placeRun struct{ first, chunk, row int32 }

// maxPlaceRuns is how many runs a page holds before it is spelled out:
// by then a look-up's binary search takes six steps, and the runs a
// sixtieth of the page spelled out.
const maxPlaceRuns = 64

func (t *places) len() int { return t.n }

func (t *places) at(id int32) place {
	pg := &t.pages[id/placePage]
	if pg.dense != nil {
		return pg.dense[id%placePage]
	}
	return pg.inRuns(id % placePage)
}

// inRuns is the place of the page's id off, found in its runs: in the
// run of the last look-up when it is there (a gather's rows come a run
// at a time: Nexmark q4's look-ups took 0.1 s less of its CPU than with
// a search each), else by a binary search.
func (pg *placeTable) inRuns(off int32) place {
	runs := pg.runs
	lo := int(pg.last)
	if lo >= len(runs) || runs[lo].first > off || lo+1 < len(runs) && runs[lo+1].first <= off {
		lo, hi := 0, len(runs) // the last run from off or before: runs[0].first is 0
		for hi-lo > 1 {
			if m := int(uint(lo+hi) >> 1); runs[m].first <= off {
				lo = m
			} else {
				hi = m
			}
		}
		pg.last = int32(lo)
		r := runs[lo]
		return place{chunk: r.chunk, row: r.row + off - r.first}
	}
	r := runs[lo]
	return place{chunk: r.chunk, row: r.row + off - r.first}
}

func (t *places) set(id int32, p place) {
	pg := &t.pages[id/placePage]
	if pg.dense == nil {
		if t.at(id) == p {
			return
		}
		t.spellOut(int(id / placePage))
	}
	pg.dense[id%placePage] = p
}

// add appends p under the next id and returns it.
func (t *places) add(p place) int32 {
	id := int32(t.n)
	off := id % placePage
	if off == 0 {
		t.pages = append(t.pages, placeTable{})
	}
	t.n++
	pg := &t.pages[len(t.pages)-1]
	if pg.dense != nil {
		pg.dense[off] = p
		return id
	}
	if k := len(pg.runs) - 1; k >= 0 && p.chunk >= 0 && pg.runs[k].chunk == p.chunk && pg.runs[k].row+off-pg.runs[k].first == p.row {
		return id // the last run goes on
	}
	if len(pg.runs) < maxPlaceRuns && p.chunk >= 0 {
		pg.runs = append(pg.runs, placeRun{first: off, chunk: p.chunk, row: p.row})
		return id
	}
	t.spellOut(len(t.pages) - 1)
	pg.dense[off] = p
	return id
}

// addRun appends rows row, row+1, ... of chunk (chunk >= 0) under the
// next n ids and returns the first: a run per page rather than a look at
// the last run per id.
func (t *places) addRun(chunk, row int32, n int) int32 {
	first := int32(t.n)
	for n > 0 {
		off := int32(t.n % placePage)
		if off == 0 {
			t.pages = append(t.pages, placeTable{})
		}
		k := min(n, placePage-int(off))
		pg := &t.pages[len(t.pages)-1]
		switch last := len(pg.runs) - 1; {
		case pg.dense != nil:
			for i := range int32(k) {
				pg.dense[off+i] = place{chunk: chunk, row: row + i}
			}
		case last >= 0 && pg.runs[last].chunk == chunk && pg.runs[last].row+off-pg.runs[last].first == row:
			// the last run goes on
		case len(pg.runs) < maxPlaceRuns:
			pg.runs = append(pg.runs, placeRun{first: off, chunk: chunk, row: row})
		default:
			t.spellOut(len(t.pages) - 1)
			for i := range int32(k) {
				pg.dense[off+i] = place{chunk: chunk, row: row + i}
			}
		}
		t.n += k
		row += int32(k)
		n -= k
	}
	return first
}

// spellOut turns page k's runs into a place per id.
func (t *places) spellOut(k int) {
	pg := &t.pages[k]
	n := min(t.n-k*placePage, placePage) // ids in the page
	pg.dense = make([]place, placePage)
	for i, r := range pg.runs {
		end := int32(n)
		if i+1 < len(pg.runs) {
			end = pg.runs[i+1].first
		}
		for off := r.first; off < end; off++ {
			pg.dense[off] = place{chunk: r.chunk, row: r.row + off - r.first}
		}
	}
	pg.runs = nil
}

// reset makes the table n ids long, every id's place free.
func (t *places) reset(n int) {
	t.pages, t.n = nil, n
	for k := 0; k*placePage < n; k++ {
		pg := placeTable{dense: make([]place, placePage)}
		for i := range pg.dense {
			pg.dense[i] = place{chunk: -1}
		}
		t.pages = append(t.pages, pg)
	}
}
