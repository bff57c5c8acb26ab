package windowop

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Lists grown, shrunk and edited in place at random keep what slices per
// key keep, while moving between runs and reusing the freed ones.
func TestFlatListsMatchSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var l flatLists[paneSlot]
	var want [][]paneSlot
	for step := range 20000 {
		if r.IntN(100) == 0 || len(want) == 0 {
			want = append(want, nil)
			l.grow(len(want))
		}
		k := uint32(r.IntN(len(want)))
		switch op := r.IntN(4); {
		case op < 2:
			got := l.extend(k)
			got[len(got)-1] = paneSlot{pane: int64(step), slot: int32(k)}
			want[k] = append(want[k], paneSlot{pane: int64(step), slot: int32(k)})
		case op < 3 && len(want[k]) > 0:
			i := r.IntN(len(want[k]))
			got := l.list(k)
			l.setLen(k, len(append(got[:i], got[i+1:]...)))
			want[k] = append(want[k][:i], want[k][i+1:]...)
		default:
			got := l.list(k)
			for i := range got {
				got[i].slot++
				want[k][i].slot++
			}
		}
		require.Equal(t, len(want), l.keys())
	}
	requireLists(t, &l, want)
	held := 0
	for _, w := range want {
		held += cap(w)
	}
	require.LessOrEqual(t, l.pooled(), 4*held+2*pageLen, "freed runs are reused")
}

// Lists that outgrow a page, and enough lists to fill several pages, keep
// their elements: runs never straddle a page, and a run longer than a page
// has one of its own.
func TestFlatListsAcrossPages(t *testing.T) {
	var l flatLists[paneSlot]
	const keys = 3 * headsPage
	l.grow(keys)
	want := make([][]paneSlot, keys)
	r := rand.New(rand.NewPCG(1, 2))
	for step := range 4 * pageLen {
		k := uint32(r.IntN(keys))
		if step%2 == 0 {
			k = 5 // one list longer than a page
		}
		got := l.extend(k)
		got[len(got)-1] = paneSlot{pane: int64(step), slot: int32(k)}
		want[k] = append(want[k], paneSlot{pane: int64(step), slot: int32(k)})
	}
	require.Greater(t, len(want[5]), pageLen)
	requireLists(t, &l, want)
	l.drop(5)
	require.Empty(t, l.list(5))
	require.Equal(t, keys, l.keys())
}

// requireLists requires l to hold the lists of want, key by key.
func requireLists(t *testing.T, l *flatLists[paneSlot], want [][]paneSlot) {
	t.Helper()
	for k := range want {
		got := l.list(uint32(k))
		if len(want[k]) == 0 {
			require.Empty(t, got)
			continue
		}
		require.Equal(t, want[k], got, "list %d", k)
	}
}
