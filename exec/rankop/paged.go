package rankop

// pageBits sets how many entries a page of a paged table holds.
const pageBits = 14

// paged is a table of T by number in pages that never move once made:
// a slice grown by append was copied at each growth, the old and the new
// both alive at the peak (with a deduplication's 5M partitions, tens of
// MB each time).
type paged[T any] struct {
	pages [][]T
	n     int
}

func (t *paged[T]) len() int { return t.n }

func (t *paged[T]) at(i int32) *T { return &t.pages[i>>pageBits][i&(1<<pageBits-1)] }

// grow makes the table n entries long, the new ones zero.
func (t *paged[T]) grow(n int) {
	for len(t.pages)<<pageBits < n {
		t.pages = append(t.pages, make([]T, 1<<pageBits))
	}
	t.n = max(t.n, n)
}
