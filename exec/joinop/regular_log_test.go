package joinop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// withScanBudget runs f with scanBudget set to n.
func withScanBudget(n int64, f func()) {
	old := scanBudget
	scanBudget = n
	defer func() { scanBudget = old }()
	f()
}

// Rows that come while the other side holds none are logged, their keys
// not numbered; a row of the other side indexes those of its key alone,
// which join it in their order, and is logged itself until a row probes
// it.
func TestJoinLogsRowsUntilProbed(t *testing.T) {
	st := newStepper(t, shape{}.config(Inner))
	j := st.op.(*regularJoin)
	require.Empty(t, st.step(left, ins, 1, 10))
	require.Empty(t, st.step(left, ins, 2, 20))
	require.Empty(t, st.step(left, ins, 1, 11))
	require.Equal(t, 3, j.sides[left].log.live)
	require.Empty(t, j.keys.ints)

	require.Equal(t, []string{"1 10 1 100", "1 11 1 100"}, st.step(right, ins, 1, 100))
	require.Equal(t, 1, j.sides[left].log.live)
	require.Equal(t, 1, j.sides[right].log.live)
	require.Len(t, j.keys.ints, 1)

	require.Equal(t, []string{"1 12 1 100"}, st.step(left, ins, 1, 12))
	require.Equal(t, 0, j.sides[right].log.live)
	require.Equal(t, []string{"2 20 2 200"}, st.step(right, ins, 2, 200))
	require.Equal(t, []string{"1 10 1 101", "1 11 1 101", "1 12 1 101"}, st.step(right, ins, 1, 101))
}

// A side whose log probes have scanned their budget over indexes all its
// rows and logs no more.
func TestJoinIndexesTheLogPastItsScans(t *testing.T) {
	withScanBudget(0, func() {
		st := newStepper(t, shape{}.config(Inner))
		j := st.op.(*regularJoin)
		st.step(left, ins, 1, 10)
		st.step(left, ins, 2, 20)
		require.Equal(t, []string{"1 10 1 100"}, st.step(right, ins, 1, 100))
		require.False(t, j.sides[left].log.on)
		require.Equal(t, 0, j.sides[left].log.live)
		require.Len(t, j.keys.ints, 2)
		require.Equal(t, []string{"1 11 1 100"}, st.step(left, ins, 1, 11))
		require.Equal(t, []string{"2 20 2 200"}, st.step(right, ins, 2, 200))
	})
}

// Only a side that needs nothing of its rows but their key logs them: an
// update stream, an outer side, a SEMI or ANTI join's left side, a state
// TTL, a NULL-safe or a non-integer key index every row.
func TestJoinLogsOnlyRowsReadByKey(t *testing.T) {
	logs := func(s shape, kind Kind) [2]bool {
		st := newStepper(t, s.config(kind))
		j := st.op.(*regularJoin)
		return [2]bool{j.sides[0].log.on, j.sides[1].log.on}
	}
	require.Equal(t, [2]bool{true, true}, logs(shape{}, Inner))
	require.Equal(t, [2]bool{true, true}, logs(shape{intKey: true, residual: 1}, Inner))
	require.Equal(t, [2]bool{false, true}, logs(shape{update: [2]bool{true, false}}, Inner))
	require.Equal(t, [2]bool{false, true}, logs(shape{}, LeftOuter))
	require.Equal(t, [2]bool{false, false}, logs(shape{}, FullOuter))
	require.Equal(t, [2]bool{false, true}, logs(shape{}, Anti))
	require.Equal(t, [2]bool{false, false}, logs(shape{ttl: 100}, Inner))
	require.Equal(t, [2]bool{false, false}, logs(shape{nullSafe: true}, Inner))
	require.Equal(t, [2]bool{false, false}, logs(shape{stringKey: true}, Inner))
	require.Equal(t, [2]bool{false, false}, logs(shape{bothKeys: true}, Inner))
}

// Whenever the logs are indexed (at the first probe, after a scan, or
// never), every kind of join over random inputs is the naive join, in
// batches of any size, restored from a snapshot in the middle and with
// hot groups.
func TestLoggedRowsJoinAsIndexed(t *testing.T) {
	for _, budget := range []int64{0, 1, 1 << 40} {
		withScanBudget(budget, func() {
			rng := rand.New(rand.NewPCG(23, uint64(budget)))
			for round := range 120 {
				s := randomShape(rng)
				s.stringKey, s.bothKeys, s.ttl = false, false, 0
				s.update[0] = s.update[0] && rng.IntN(2) == 0 // append-only sides log
				s.update[1] = s.update[1] && rng.IntN(2) == 0
				kind := allKinds[round%len(allKinds)]
				cfg := s.config(kind)
				evs := randomEvents(rng, s, 1+rng.IntN(150))
				name := fmt.Sprintf("budget %d round %d %s %+v", budget, round, kind, s)
				out := runJoin(t, cfg, evs, 4096, 0)
				require.Equal(t, naive(s, kind, evs), materialise(t, cfg.Updates(), out), name)
				require.Equal(t, out, runJoin(t, cfg, evs, 1, 0), name)
				require.Equal(t, out, runJoin(t, cfg, evs, 3, 0), name)
				require.Equal(t, out, runJoin(t, cfg, evs, 3, len(evs)/2), name)
				if s.residual == 1 || s.residual == 2 { // promoted rows join hot groups at their end
					withHot(1, 2, func() { require.Equal(t, out, runJoin(t, cfg, evs, 3, 0), name) })
				}
			}
		})
	}
}
