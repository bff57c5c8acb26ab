package joinop

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// valuesAt records where each output batch keeps its columns' buffers.
type valuesAt struct{ at []map[*byte]bool }

func (v *valuesAt) ProcessBatch(b pipeline.Batch) error {
	v.at = append(v.at, arrowtest.BufferSites(b.Record))
	return nil
}
func (v *valuesAt) ProcessWatermark(int64) error { return nil }
func (v *valuesAt) ProcessEnd() error            { return nil }
func (v *valuesAt) Close()                       {}

// A join's output batches, kept rows gathered included, are built in
// memory that comes back for the next batch once downstream releases
// one: Nexmark q9 made 6 GB of garbage of them.
func TestRegularJoinReusesItsOutputMemory(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := shape{}.config(Inner)
	out := &valuesAt{}
	op, err := New(cfg, mem, out)
	require.NoError(t, err)
	defer op.Close()
	kept := regularBatchOf(mem, cfg.Right, []event{{input: 1, row: row{k: 1, v: 10}}, {input: 1, row: row{k: 2, v: 20}}})
	require.NoError(t, op.ProcessInput(1, pipeline.Batch{Record: kept}))
	kept.Release()
	for range 2 {
		probe := regularBatchOf(mem, cfg.Left, []event{{row: row{k: 1, v: 1}}, {row: row{k: 2, v: 2}}})
		require.NoError(t, op.ProcessInput(0, pipeline.Batch{Record: probe}))
		probe.Release()
	}
	require.Len(t, out.at, 2)
	arrowtest.RequireReused(t, out.at[0], out.at[1])
}

// A lookup join's output is built in recycled memory too (Nexmark q13
// made 1.5 GB of garbage of it).
func TestLookupFileJoinReusesItsOutputMemory(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "rates.csv")
	lkWrite(t, path, []lkRow{lkR(1, "a", 10), lkR(2, "b", 11)}, time.Now())
	cfg := tjShape{}.lookupConfig(path, nil)
	out := &valuesAt{}
	op, err := NewLookupFileJoin(cfg, mem, out)
	require.NoError(t, err)
	defer op.Close()
	for range 2 {
		rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 0), tjL(2, 2, 0)})
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
		rec.Release()
	}
	require.Len(t, out.at, 2)
	arrowtest.RequireReused(t, out.at[0], out.at[1])
}
