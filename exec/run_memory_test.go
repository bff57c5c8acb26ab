package exec_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/internal/arrowtest"
)

// sitesWriter keeps where each batch written keeps its buffers.
type sitesWriter struct{ sites []map[*byte]bool }

func (w *sitesWriter) WriteBatch(rec arrow.RecordBatch) error {
	w.sites = append(w.sites, arrowtest.BufferSites(rec))
	return nil
}

func (w *sitesWriter) Close() error { return nil }

// A run's stages that make a new batch for each one they get (here a
// projection computing v * 2) build it in the memory of the batches
// released before it rather than in new memory (Nexmark q1 left 900 MB of
// garbage so), and the run gives all of it back by its end.
func TestRunReusesTheMemoryOfReleasedBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	i64 := arrow.PrimitiveTypes.Int64
	double := &expr.Arith{Op: '*', L: &expr.ColumnExpr{Index: 2, Name: "v", Type: i64}, R: &expr.Literal{Type: i64, Int: 2}, Type: i64}
	schema := arrow.NewSchema([]arrow.Field{{Name: "v2", Type: i64}}, nil)
	job := &exec.Job{Source: eventsSource(2), RowtimeIndex: -1,
		Project: exec.ProjectSpec{Exprs: []expr.Expr{double}, Schema: schema}}
	w := &sitesWriter{}
	st, err := job.Run(context.Background(), mem, w)
	require.NoError(t, err)
	require.EqualValues(t, 9, st.ResultRows)
	require.Len(t, w.sites, 5, "9 rows in batches of 2")
	for _, later := range w.sites[1:] {
		arrowtest.RequireReused(t, w.sites[0], later)
	}
}
