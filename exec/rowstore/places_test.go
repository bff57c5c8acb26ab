package rowstore

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlacesKeepRunsUntilBroken adds ids as Add does (runs of rows of a
// chunk, short and long, so some pages go over maxPlaceRuns), sets some
// (as Remove and a reused id do) and checks every id against a plain
// slice, and that a table only added to stays in runs.
func TestPlacesKeepRunsUntilBroken(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tbl places
	var want []place
	check := func() {
		require.Equal(t, len(want), tbl.len())
		for id, p := range want {
			require.Equal(t, p, tbl.at(int32(id)), "id %d", id)
		}
	}
	chunk := int32(0)
	addRun := func(n int) {
		for r := range int32(n) {
			require.Equal(t, int32(len(want)), tbl.add(place{chunk: chunk, row: r}))
			want = append(want, place{chunk: chunk, row: r})
		}
		chunk++
	}
	for range 40 {
		addRun(rng.IntN(3000) + 1)
	}
	check()
	for _, pg := range tbl.pages {
		require.Nil(t, pg.dense, "a table only added to in runs of hundreds of rows stays in runs")
	}
	for range 200 { // runs of a row or two: pages spelled out
		addRun(rng.IntN(2) + 1)
	}
	check()
	for range 500 {
		id := rng.IntN(len(want))
		p := place{chunk: -1}
		if rng.IntN(2) == 0 {
			p = place{chunk: int32(rng.IntN(100)), row: int32(rng.IntN(100))}
		}
		tbl.set(int32(id), p)
		want[id] = p
		if rng.IntN(50) == 0 {
			addRun(rng.IntN(5000) + 1)
		}
	}
	check()
	tbl.reset(placePage + 5)
	want = want[:0]
	for range placePage + 5 {
		want = append(want, place{chunk: -1})
	}
	check()
	addRun(100)
	check()
}
