package joinop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/rowkind"
)

// withHot runs f with hot groups from rows rows on, in parts of part rows.
func withHot(rows int32, part int, f func()) {
	oldRows, oldPart := hotRows, hotPartRows
	hotRows, hotPartRows = rows, part
	defer func() { hotRows, hotPartRows = oldRows, oldPart }()
	f()
}

// A join whose residual is evaluated over hot groups' kept columns (from
// a group's first row on, in parts of 2 or 5 rows, so parts are cut and
// a short last part gathered again) emits the same stream as one that
// gathers every candidate pair, and its output is the naive join's, for
// every kind of join, at batch sizes 1, 3 and 4096 and across a snapshot.
func TestHotGroupsJoinAsCandidatePairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	for round := range 100 {
		s := randomShape(rng)
		s.residual = 1 + rng.IntN(2) // a residual that reads v alone
		kind := allKinds[round%len(allKinds)]
		cfg := s.config(kind)
		evs := randomEvents(rng, s, 1+rng.IntN(200))
		name := fmt.Sprintf("round %d %s %+v", round, kind, s)
		var want []string
		withHot(1<<30, 1<<16, func() { want = runJoin(t, cfg, evs, 4096, 0) })
		for _, part := range []int{2, 5} {
			withHot(1, part, func() {
				out := runJoin(t, cfg, evs, 4096, 0)
				require.Equal(t, want, out, name)
				require.Equal(t, naive(s, kind, evs), materialise(t, cfg.Updates(), out), name)
				require.Equal(t, want, runJoin(t, cfg, evs, 1, 0), name)
				require.Equal(t, want, runJoin(t, cfg, evs, 3, 0), name)
				require.Equal(t, want, runJoin(t, cfg, evs, 4096, len(evs)/2), name)
			})
		}
	}
}

// Nexmark q5's shape: many rows of one key, then a changing maximum
// probing them all (num >= maxn); the hot group's kept columns follow
// the rows that come after them.
func TestHotGroupFollowsNewRows(t *testing.T) {
	s := shape{update: [2]bool{false, true}, residual: 1}
	cfg := s.config(Inner)
	var evs []event
	for i := range 40 {
		evs = append(evs, event{input: 0, row: row{k: 1, v: int64(i % 7)}})
	}
	evs = append(evs, event{input: 1, row: row{k: 1, v: 2}})
	for i := range 9 {
		evs = append(evs, event{input: 0, row: row{k: 1, v: int64(i)}})
		evs = append(evs, event{input: 1, kind: rowkind.UpdateBefore, row: row{k: 1, v: int64(2 + i)}},
			event{input: 1, kind: rowkind.UpdateAfter, row: row{k: 1, v: int64(3 + i)}})
	}
	var want []string
	withHot(1<<30, 1<<16, func() { want = runJoin(t, cfg, evs, 4096, 0) })
	withHot(8, 16, func() {
		for _, size := range []int{1, 3, 4096} {
			require.Equal(t, want, runJoin(t, cfg, evs, size, 0))
		}
	})
	require.Equal(t, naive(s, Inner, evs), materialise(t, cfg.Updates(), want))
}
