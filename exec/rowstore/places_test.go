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

// TestPlacesAddRunIsAddInTurn adds runs of every length, across pages,
// onto pages in runs, spelled out, and at their run limit, with addRun
// and with add a row at a time, and checks the two tables place every id
// alike.
func TestPlacesAddRunIsAddInTurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var byRun, byRow places
	for c := int32(0); byRow.len() < 5*placePage; c++ {
		n := rng.IntN(3000) + 1
		switch rng.IntN(4) {
		case 0:
			n = rng.IntN(3) + 1 // short runs: pages reach maxPlaceRuns
		case 1:
			n = placePage + rng.IntN(placePage) // a run over pages
		}
		row := int32(rng.IntN(10))
		first := byRun.addRun(c, row, n)
		require.Equal(t, int32(byRow.len()), first)
		for i := range int32(n) {
			byRow.add(place{chunk: c, row: row + i})
		}
		if rng.IntN(8) == 0 { // a reused id spells its page out
			id := int32(rng.IntN(byRow.len()))
			p := place{chunk: -1}
			byRun.set(id, p)
			byRow.set(id, p)
		}
	}
	require.Equal(t, byRow.len(), byRun.len())
	for id := range int32(byRow.len()) {
		require.Equal(t, byRow.at(id), byRun.at(id), "id %d", id)
	}
}

// BenchmarkPlacesAt looks up random ids of a table in runs of about 2800
// rows (a join's batches), and of one spelled out.
func BenchmarkPlacesAt(b *testing.B) {
	for _, dense := range []bool{false, true} {
		b.Run(map[bool]string{false: "runs", true: "dense"}[dense], func(b *testing.B) {
			var tbl places
			rng := rand.New(rand.NewPCG(5, 6))
			for c := int32(0); tbl.len() < 4<<20; c++ {
				for r := range int32(2000 + rng.IntN(1600)) {
					tbl.add(place{chunk: c, row: r})
				}
			}
			if dense {
				for k := range tbl.pages {
					tbl.spellOut(k)
				}
			}
			ids := make([]int32, 4096)
			for i := range ids {
				ids[i] = int32(rng.IntN(tbl.len()))
			}
			b.ResetTimer()
			sum := int32(0)
			for range b.N {
				for _, id := range ids {
					sum += tbl.at(id).row
				}
			}
			_ = sum
		})
	}
}
