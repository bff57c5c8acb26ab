package exec

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

// sameTableTwice is the merge of a union reading one input twice: each
// call goes to both of its inputs.
type sameTableTwice struct {
	m      *unionMerge
	inputs []pipeline.Operator
}

func (s *sameTableTwice) ProcessBatch(b pipeline.Batch) error {
	for _, in := range s.inputs {
		if err := in.ProcessBatch(b); err != nil {
			return err
		}
	}
	return nil
}

func (s *sameTableTwice) ProcessWatermark(wm int64) error {
	for _, in := range s.inputs {
		if err := in.ProcessWatermark(wm); err != nil {
			return err
		}
	}
	return nil
}

func (s *sameTableTwice) ProcessEnd() error {
	for _, in := range s.inputs {
		if err := in.ProcessEnd(); err != nil {
			return err
		}
	}
	return s.m.ProcessEnd()
}

func (s *sameTableTwice) Close() { s.m.Close() }

func TestUnionMergeConformance(t *testing.T) {
	for _, timed := range []bool{true, false} {
		t.Run(fmt.Sprintf("timed=%v", timed), func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					m := newUnionMerge(2, timed, mem, next)
					return &sameTableTwice{m: m, inputs: []pipeline.Operator{m.input(0), m.input(1)}}, nil
				},
				Input: conformanceInput(true),
			})
		})
	}
}

// mergeInput is one input of a union: rows (their time and the watermark
// each arrived under) and the watermark after each row.
type mergeInput struct {
	ts, arrived []int64
}

// steps cuts the input into batches at random, each followed by the
// watermark after its last row.
func (in mergeInput) steps(rng *rand.Rand) [][2]int {
	var cuts [][2]int
	for start := 0; start < len(in.ts); {
		end := min(len(in.ts), start+1+rng.IntN(5))
		cuts = append(cuts, [2]int{start, end})
		start = end
	}
	return cuts
}

// TestUnionMergeOrderIsFixed: however the inputs are cut into batches and
// in whatever order their steps come, the union passes the same rows, in
// the same order, with the same watermarks, and holds no memory after.
func TestUnionMergeOrderIsFixed(t *testing.T) {
	gen := func(rng *rand.Rand, n int, delay int64) mergeInput {
		var in mergeInput
		wm, ts := rowtime.MinWatermark, int64(0)
		for range n {
			ts += rng.Int64N(300)
			t := ts - rng.Int64N(400) // out of order
			in.ts = append(in.ts, t)
			in.arrived = append(in.arrived, wm)
			wm = max(wm, t-delay)
		}
		return in
	}
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := []mergeInput{gen(rng, 60, 100), gen(rng, 25, 1000), gen(rng, 40, 0)}
	var want string
	for trial := range 30 {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec := &unionRecorder{last: rowtime.MinWatermark}
		m := newUnionMerge(len(inputs), true, mem, rec)
		type cursor struct {
			cuts [][2]int
			next int
		}
		cursors := make([]cursor, len(inputs))
		for i, in := range inputs {
			cursors[i].cuts = in.steps(rng)
		}
		for {
			var open []int
			for i, c := range cursors {
				if c.next <= len(c.cuts) {
					open = append(open, i)
				}
			}
			if len(open) == 0 {
				break
			}
			i := open[rng.IntN(len(open))]
			c := &cursors[i]
			if c.next == len(c.cuts) {
				require.NoError(t, m.input(i).ProcessEnd())
				c.next++
				continue
			}
			cut := c.cuts[c.next]
			c.next++
			in := inputs[i]
			b := array.NewInt64Builder(mem)
			for r := cut[0]; r < cut[1]; r++ {
				b.Append(int64(i*1000 + r)) // input and row
			}
			col := b.NewArray()
			b.Release()
			batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, int64(col.Len()))
			col.Release()
			wms := append([]int64(nil), in.arrived[cut[0]:cut[1]]...)
			require.NoError(t, m.input(i).ProcessBatch(pipeline.Batch{Record: batch, Watermarks: wms}))
			batch.Release()
			after := in.arrived[cut[1]-1]
			if cut[1] < len(in.arrived) {
				after = in.arrived[cut[1]]
			} else {
				after = max(after, in.ts[cut[1]-1])
			}
			require.NoError(t, m.input(i).ProcessWatermark(after))
		}
		require.NoError(t, m.ProcessEnd())
		m.Close()
		mem.AssertSize(t, 0)
		got := rec.String()
		if trial == 0 {
			want = got
			require.Contains(t, got, "end")
			continue
		}
		require.Equal(t, want, got, "trial %d", trial)
	}
}

// unionRecorder writes what reaches it: each row with its watermark, and
// each watermark, ordered as they came.
type unionRecorder struct {
	b    strings.Builder
	last int64
}

func (r *unionRecorder) ProcessBatch(b pipeline.Batch) error {
	ids := b.Record.Column(0).(*array.Int64)
	for i := range ids.Len() {
		w := r.last
		if b.Watermarks != nil {
			w = b.Watermarks[i]
		}
		if w < r.last {
			return fmt.Errorf("row %d arrived under %d, after watermark %d", ids.Value(i), w, r.last)
		}
		fmt.Fprintf(&r.b, "row %d @%d\n", ids.Value(i), w)
	}
	return nil
}

func (r *unionRecorder) ProcessWatermark(wm int64) error {
	// the union's watermarks themselves come as the steps do; the rows'
	// watermarks pin the order
	r.last = max(r.last, wm)
	return nil
}

func (r *unionRecorder) ProcessEnd() error { r.b.WriteString("end\n"); return nil }
func (r *unionRecorder) Close()            {}
func (r *unionRecorder) String() string    { return r.b.String() }

// sendIDs sends input in of m a batch of ids under the watermarks wms.
func sendIDs(t *testing.T, mem memory.Allocator, m *unionMerge, in int, wms []int64, ids ...int64) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(mem)
	b.AppendValues(ids, nil)
	col := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	col.Release()
	defer rec.Release()
	require.NoError(t, m.input(in).ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms}))
}

// wholeAndResumed runs a two-input merge through first then rest, once
// whole and once with a checkpoint taken after first and restored into a
// new merge, and returns what each passed on.
func wholeAndResumed(t *testing.T, mem memory.Allocator, first, rest func(*unionMerge)) (whole, resumed string) {
	t.Helper()
	w := &unionRecorder{last: rowtime.MinWatermark}
	m := newUnionMerge(2, true, mem, w)
	first(m)
	rest(m)
	m.Close()

	r := &unionRecorder{last: rowtime.MinWatermark}
	m = newUnionMerge(2, true, mem, r)
	first(m)
	require.Empty(t, r.String(), "every row waits for input 1")
	var e checkpoint.Encoder
	require.NoError(t, m.saveState(&e))
	m.Close()
	m = newUnionMerge(2, true, mem, r)
	d := checkpoint.NewDecoder(e.Data())
	require.NoError(t, m.restoreState(d))
	require.NoError(t, d.Finish())
	rest(m)
	m.Close()
	return w.String(), r.String()
}

// TestUnionMergeRestoresHeldRows: rows held back for a slower input are
// in the merge's checkpoint and go out after a restore as they would have.
func TestUnionMergeRestoresHeldRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	first := func(m *unionMerge) {
		sendIDs(t, mem, m, 0, []int64{10, 20, 30}, 1, 2, 3) // input 1 is at MinWatermark: all wait
		require.NoError(t, m.input(0).ProcessWatermark(40))
	}
	rest := func(m *unionMerge) {
		sendIDs(t, mem, m, 1, []int64{15, 25}, 101, 102)
		require.NoError(t, m.input(1).ProcessWatermark(35))
		require.NoError(t, m.input(0).ProcessEnd())
		require.NoError(t, m.input(1).ProcessEnd())
		require.NoError(t, m.ProcessEnd())
	}
	whole, resumed := wholeAndResumed(t, mem, first, rest)
	require.Equal(t, "row 1 @10\nrow 101 @15\nrow 2 @20\nrow 102 @25\nrow 3 @30\nend\n", whole)
	require.Equal(t, whole, resumed)
}

// TestUnionMergeRestoredRowsKeepTheirWatermarks: the held batches of a
// restore share one slice of watermarks; a batch passed on gives its part
// to the next batch of its input, which must not write over the
// watermarks of the batches still held.
func TestUnionMergeRestoredRowsKeepTheirWatermarks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	held := func(m *unionMerge) {
		sendIDs(t, mem, m, 0, []int64{10, 20}, 1, 2) // input 1 is at MinWatermark: both wait
		sendIDs(t, mem, m, 0, []int64{30, 40}, 3, 4)
	}
	rest := func(m *unionMerge) {
		require.NoError(t, m.input(1).ProcessWatermark(25)) // the first batch goes
		sendIDs(t, mem, m, 0, []int64{50, 60, 70}, 5, 6, 7) // longer than the first
		require.NoError(t, m.input(1).ProcessEnd())
		require.NoError(t, m.input(0).ProcessEnd())
		require.NoError(t, m.ProcessEnd())
	}
	whole, resumed := wholeAndResumed(t, mem, held, rest)
	require.Equal(t, "row 1 @10\nrow 2 @20\nrow 3 @30\nrow 4 @40\nrow 5 @50\nrow 6 @60\nrow 7 @70\nend\n", whole)
	require.Equal(t, whole, resumed)
}
