package rowstore

// placePage is how many ids a page of the id table holds. The table grew
// as one slice, copied at each growth: with a join keeping every row of
// an input (Nexmark q4's 9M bids) that copy was a tenth of the query's
// CPU, and the old and the new slice were both alive at its peak.
const placePage = 1 << 14

// places is the id table, where each id's row is, in pages that never
// move once made.
type places struct {
	pages [][]place
	n     int
}

func (t *places) len() int { return t.n }

func (t *places) at(id int32) place { return t.pages[id/placePage][id%placePage] }

func (t *places) set(id int32, p place) { t.pages[id/placePage][id%placePage] = p }

// add appends p under the next id and returns it.
func (t *places) add(p place) int32 {
	if t.n%placePage == 0 {
		t.pages = append(t.pages, make([]place, placePage))
	}
	id := int32(t.n)
	t.n++
	t.set(id, p)
	return id
}

// reset makes the table n ids long, every id's place free.
func (t *places) reset(n int) {
	t.pages, t.n = nil, 0
	for range n {
		t.add(place{chunk: -1})
	}
}
