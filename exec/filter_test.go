package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// batchRecorder keeps what a stage sends downstream, as text.
type batchRecorder struct {
	rows       [][]string
	watermarks [][]int64
	events     []string
}

func (r *batchRecorder) ProcessBatch(b pipeline.Batch) error {
	var rows []string
	for i := range int(b.Record.NumRows()) {
		rows = append(rows, string(format.AppendValue(nil, b.Record.Column(0), i, nil)))
	}
	r.rows = append(r.rows, rows)
	r.watermarks = append(r.watermarks, append([]int64(nil), b.Watermarks...))
	r.events = append(r.events, "batch")
	return nil
}
func (r *batchRecorder) ProcessWatermark(wm int64) error {
	r.events = append(r.events, "wm")
	return nil
}
func (r *batchRecorder) ProcessEnd() error { r.events = append(r.events, "end"); return nil }
func (r *batchRecorder) Close()            {}

func TestFilterCompactsRowsAndWatermarks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 1, 2, 3, 4, nil, 6), arrowtest.Array(t, mem, str, "a", "b", "c", "d", "e", "f"))
	defer rec.Release()
	out := &batchRecorder{}
	// c0 > 2 AND c0 <> 4: NULL and FALSE rows are dropped
	cond := &expr.And{L: &expr.Compare{Op: ">", L: col(rec, 0), R: lit(i32, 2)}, R: &expr.Compare{Op: "<>", L: col(rec, 0), R: lit(i32, 4)}}
	f, err := NewFilter(cond, mem, out)
	require.NoError(t, err)
	defer f.Close()
	// rows 1..2 advanced the watermark to 20 before row 3 arrived; row 3
	// keeps 20 even though those rows are gone
	require.NoError(t, f.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: []int64{0, 10, 20, 30, 40, 50}}))
	require.NoError(t, f.ProcessBatch(pipeline.Batch{Record: rec}))
	require.NoError(t, f.ProcessWatermark(60))
	require.NoError(t, f.ProcessEnd())
	require.Equal(t, [][]string{{"3", "6"}, {"3", "6"}}, out.rows)
	require.Equal(t, [][]int64{{20, 50}, nil}, out.watermarks)
	require.Equal(t, []string{"batch", "batch", "wm", "end"}, out.events)
	require.Equal(t, int64(8), f.Dropped())

	// nothing kept: no batch; everything kept: the batch as is
	none, err := NewFilter(lit(boo, false), mem, out)
	require.NoError(t, err)
	require.NoError(t, none.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: []int64{0, 1, 2, 3, 4, 5}}))
	require.Len(t, out.rows, 2)
	all, err := NewFilter(lit(boo, true), mem, out)
	require.NoError(t, err)
	require.NoError(t, all.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: []int64{0, 1, 2, 3, 4, 5}}))
	require.Equal(t, []int64{0, 1, 2, 3, 4, 5}, out.watermarks[2])

	_, err = NewFilter(col(rec, 0), mem, out)
	require.ErrorContains(t, err, "not BOOLEAN")
}

func TestProjectExprs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i32, 1, 2), arrowtest.Array(t, mem, str, "a", "b"))
	defer rec.Release()
	out := &batchRecorder{}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: i32}, {Name: "s", Type: str}}, nil)
	spec := ProjectSpec{Exprs: []expr.Expr{&expr.Arith{Op: '*', L: col(rec, 0), R: lit(i32, 10), Type: i32}, col(rec, 1)}, Schema: schema}
	p, err := NewProject(spec, rec.Schema(), mem, out)
	require.NoError(t, err)
	require.NoError(t, p.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: []int64{5, 6}}))
	require.Equal(t, [][]string{{"10", "20"}}, out.rows)
	require.Equal(t, [][]int64{{5, 6}}, out.watermarks)

	spec.Exprs[0] = col(rec, 1)
	_, err = NewProject(spec, rec.Schema(), mem, out)
	require.ErrorContains(t, err, "changes type")
}
