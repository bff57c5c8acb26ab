package materialize

import (
	"iter"

	"github.com/wsql/wsql/exec/rowkind"
)

// View is a changelog materialised into the rows it describes now, in the
// way of Flink's MaterializedCollectStreamResult: +I and +U append the row;
// -U and -D remove the newest equal row (rows are equal when their keys
// are: the canonical text of the whole row, as Flink compares whole rows);
// a retraction of a row that is not there is ignored. So an updated row
// moves to the end, where Flink's table view shows it.
//
// Each change costs O(1) amortised: removed rows are marked and swept
// once they outnumber the rows in the view.
type View[R any] struct {
	rows    []entry[R]         // in order of arrival, removed ones marked
	removed int                // marked entries in rows
	at      map[string][]int32 // a key's entries in rows that are in the view, newest last
}

type entry[R any] struct {
	key     string
	row     R
	removed bool
}

// NewView is an empty view.
func NewView[R any]() *View[R] {
	return &View[R]{at: map[string][]int32{}}
}

// Apply applies one change to the view: the row, and key, its identity.
// It tells whether the view changed.
func (v *View[R]) Apply(kind rowkind.Kind, key string, row R) bool {
	if !kind.IsRetraction() {
		v.at[key] = append(v.at[key], int32(len(v.rows)))
		v.rows = append(v.rows, entry[R]{key: key, row: row})
		return true
	}
	pos := v.at[key]
	if len(pos) == 0 {
		return false
	}
	newest := pos[len(pos)-1]
	if len(pos) == 1 {
		delete(v.at, key)
	} else {
		v.at[key] = pos[:len(pos)-1]
	}
	var zero R
	v.rows[newest].removed, v.rows[newest].row = true, zero
	v.removed++
	if v.removed > 32 && v.removed > len(v.rows)/2 {
		v.sweep()
	}
	return true
}

// sweep drops the removed entries and renumbers the positions.
func (v *View[R]) sweep() {
	kept := v.rows[:0]
	for _, e := range v.rows {
		if !e.removed {
			kept = append(kept, e)
		}
	}
	clear(v.rows[len(kept):])
	v.rows, v.removed = kept, 0
	clear(v.at)
	for i, e := range v.rows {
		v.at[e.key] = append(v.at[e.key], int32(i))
	}
}

// Len is the number of rows in the view.
func (v *View[R]) Len() int { return len(v.rows) - v.removed }

// All yields the rows of the view in order.
func (v *View[R]) All() iter.Seq[R] {
	return func(yield func(R) bool) {
		for _, e := range v.rows {
			if !e.removed && !yield(e.row) {
				return
			}
		}
	}
}
