package joinop

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLogKeysKeepEveryKey appends keys in runs of every length, most of
// them fitting 32 bits and some pages not (from their first key, or from
// one in the middle of a run), and checks each key against a plain slice.
func TestLogKeysKeepEveryKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var c logKeys
	var want []int64
	for len(want) < 6*logPage {
		run := make([]int64, rng.IntN(3*logPage/2)+1)
		for k := range run {
			run[k] = int64(rng.Int32()) - 1<<30
			if rng.IntN(20000) == 0 {
				run[k] = []int64{math.MaxInt64, math.MinInt64, math.MaxInt32 + 1, math.MinInt32 - 1}[rng.IntN(4)]
			}
		}
		if rng.IntN(4) == 0 {
			for _, v := range run {
				c.append(v)
			}
		} else {
			c.appendAll(run)
		}
		want = append(want, run...)
	}
	require.Equal(t, len(want), c.n)
	wide := 0
	for i, v := range want {
		pg := &c.pages[i/logPage]
		require.Equal(t, v, pg.key(i%logPage), "key %d", i)
		if i%logPage == 0 && pg.wide != nil {
			wide++
		}
	}
	require.Positive(t, wide)
	require.Less(t, wide, len(c.pages), "pages of 32-bit keys stay narrow")
}

// TestLogIDsKeepEveryID appends ids in runs, consecutive or not, sets
// some to -1 (a row indexed) and checks each id against a plain slice,
// and that the pages only ever appended consecutive ids hold none.
func TestLogIDsKeepEveryID(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c logIDs
	var want []int32
	broken := map[int]bool{} // pages an id broke the run of
	next := int32(0)
	for len(want) < 6*logPage {
		run := make([]int32, rng.IntN(3*logPage/2)+1)
		for k := range run {
			run[k] = next
			next++
		}
		if rng.IntN(3) == 0 {
			k := rng.IntN(len(run))
			run[k] += 7 // a free id reused
			broken[(len(want)+k)/logPage] = true
		}
		c.appendAll(run)
		want = append(want, run...)
		next = run[len(run)-1] + 1
	}
	for range 50 {
		i := rng.IntN(len(want))
		c.set(i, -1)
		want[i] = -1
		broken[i/logPage] = true
	}
	require.Equal(t, len(want), c.n)
	for i, id := range want {
		require.Equal(t, id, c.pages[i/logPage].id(i%logPage), "id %d", i)
	}
	for p := range c.pages {
		if !broken[p] {
			require.Nil(t, c.pages[p].ids, "page %d", p)
		}
	}
}
