package exec_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/expr"
)

// countUnion is the UNION ALL of two counts per key and window over one
// table: the second keeps only the windows of more than one row, and with
// shared reads the first's window.
func countUnion(t *testing.T, batch, par int, shared bool) *exec.Job {
	all := exectest.CountJob(t, eventsSource(batch), 0)
	busy := exectest.CountJob(t, eventsSource(batch), 0)
	if shared {
		busy.SharesWindowOf = all
	}
	n := busy.Window.Aggs[0].Name
	idx := busy.Project.Schema.FieldIndices(n)[0]
	busy.Having = &expr.Compare{Op: ">", L: &expr.ColumnExpr{Index: idx, Name: n, Type: arrow.PrimitiveTypes.Int64},
		R: &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 1}}
	all.Parallelism, busy.Parallelism = par, par
	schema := all.Schema()
	cols := make([]int, schema.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return &exec.Job{Union: []*exec.Job{all, busy}, RowtimeIndex: -1, Project: exec.ProjectSpec{Columns: cols, Schema: schema}}
}

// A union of two queries that count over one read runs the count once
// (the source's rows are read and counted once) and gives the rows it
// gives when each query runs its own, at every batch size and
// parallelism; every batch the shared window hands to both is freed.
func TestUnionSharesWindowedSubplan(t *testing.T) {
	for _, batch := range []int{1, 3, 4096} {
		for _, par := range []int{1, 3} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			own := &rowsWriter{}
			st, err := countUnion(t, batch, par, false).Run(context.Background(), mem, own)
			require.NoError(t, err)
			require.Equal(t, int64(18), st.RowsRead, "each query reads its own source")

			shared := &rowsWriter{}
			st, err = countUnion(t, batch, par, true).Run(context.Background(), mem, shared)
			require.NoError(t, err)
			require.Equal(t, int64(9), st.RowsRead, "batch %d, parallelism %d: one read", batch, par)
			require.Equal(t, own.rows, shared.rows, "batch %d, parallelism %d", batch, par)
			require.Greater(t, len(shared.rows), 4)
			mem.AssertSize(t, 0)
		}
	}
}
