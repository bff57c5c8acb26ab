package joinop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
)

// With a budget of one byte, every row a join keeps goes to the spill
// file: the output is the same as with every row in memory, with a
// snapshot and restore in the middle too, and the file goes with the join.
func TestRegularJoinSpilledMatchesInMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	for round := range 120 {
		s := randomShape(rng)
		kind := allKinds[round%len(allKinds)]
		cfg := s.config(kind)
		evs := randomEvents(rng, s, 1+rng.IntN(150))
		name := fmt.Sprintf("round %d %s %+v", round, kind, s)
		want := runJoin(t, cfg, evs, 4096, 0)
		for _, size := range []int{3, 4096} {
			require.Equal(t, want, runSpillingJoin(t, cfg, evs, size, 0), name)
		}
		require.Equal(t, want, runSpillingJoin(t, cfg, evs, 3, len(evs)/2), name)
	}
}

// runSpillingJoin is runJoin with the join's rows spilled, all of them.
func runSpillingJoin(t *testing.T, cfg Config, evs []event, size, snapAt int) []string {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	budget := rowstore.NewBudget(1, t.TempDir())
	defer func() { require.NoError(t, budget.Close()) }()
	mem := rowstore.WithBudget(checked, budget)
	rec := &recorder{}
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	schemas := [2]*arrow.Schema{cfg.Left, cfg.Right}
	for from := 0; from < len(evs); {
		if snapAt > 0 && from >= snapAt {
			snapAt = 0
			op = restarted(t, op, cfg, mem, rec)
		}
		to := from + 1
		for to < len(evs) && to-from < size && evs[to].input == evs[from].input {
			to++
		}
		in := regularBatchOf(checked, schemas[evs[from].input], evs[from:to])
		require.NoError(t, op.ProcessInput(evs[from].input, pipeline.Batch{Record: in}))
		in.Release()
		from = to
	}
	require.NoError(t, op.ProcessEnd())
	if len(evs) > 20 {
		require.Positive(t, budget.SpilledBytes())
	}
	return rec.rows
}
