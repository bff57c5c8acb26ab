package joinop

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// wmRecorder writes down each row it gets with the watermark it came
// under: its batch's Watermarks, or the watermark last forwarded; and
// each watermark forwarded with how many rows came before it.
type wmRecorder struct {
	rows     []string
	wms      []int64
	sent     int64
	forwards []forwarded
}

type forwarded struct {
	rows int
	wm   int64
}

func newWmRecorder() *wmRecorder { return &wmRecorder{sent: rowtime.MinWatermark} }

func (r *wmRecorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	if b.Watermarks != nil && len(b.Watermarks) != int(rec.NumRows()) {
		return fmt.Errorf("%d watermarks for %d rows", len(b.Watermarks), rec.NumRows())
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		cells := make([]string, rec.NumCols())
		for c := range cells {
			cells[c] = rec.Column(c).ValueStr(i)
		}
		w := r.sent
		if b.Watermarks != nil {
			w = b.Watermarks[i]
		}
		r.rows, r.wms = append(r.rows, strings.Join(cells, " ")), append(r.wms, w)
	}
	return nil
}

func (r *wmRecorder) ProcessWatermark(wm int64) error {
	r.sent = wm
	r.forwards = append(r.forwards, forwarded{len(r.rows), wm})
	return nil
}

// checkWatermarksForwarded checks that the rows' watermarks rise, none
// below the watermark forwarded before the row, none above the highest
// forwarded after it (if one is).
func (r *wmRecorder) checkWatermarksForwarded(t testing.TB) {
	t.Helper()
	f := 0
	before := rowtime.MinWatermark
	for i, w := range r.wms {
		for ; f < len(r.forwards) && r.forwards[f].rows <= i; f++ {
			before = r.forwards[f].wm
		}
		after := rowtime.MaxWatermark
		if f < len(r.forwards) {
			after = r.forwards[len(r.forwards)-1].wm
		}
		if w < before || i > 0 && w < r.wms[i-1] || w > after {
			t.Fatalf("row %d %q under watermark %d: forwarded before %d, rows before under %v, forwards %v", i, r.rows[i], w, before, r.wms[:i], r.forwards)
		}
	}
}

func (r *wmRecorder) ProcessEnd() error { return nil }
func (r *wmRecorder) Close()            {}

// runJoinRowWatermarks feeds the events, event i under watermark wms[i],
// in batches of up to size rows of one input, forwarding the watermark of
// a batch's last row after it as the merge of the inputs does. It returns
// the output rows, each output row's watermark, and, at batches of one
// row, the watermark of the row that made each output row.
func runJoinRowWatermarks(t testing.TB, cfg Config, evs []event, wms []int64, size int) (rows []string, got, made []int64) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newWmRecorder()
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	schemas := [2]*arrow.Schema{cfg.Left, cfg.Right}
	for from := 0; from < len(evs); {
		to := from + 1
		for to < len(evs) && to-from < size && evs[to].input == evs[from].input {
			to++
		}
		in := regularBatchOf(mem, schemas[evs[from].input], evs[from:to])
		n := len(rec.rows)
		require.NoError(t, op.ProcessInput(evs[from].input, pipeline.Batch{Record: in, Watermarks: wms[from:to]}))
		in.Release()
		for range len(rec.rows) - n {
			made = append(made, wms[from])
		}
		require.NoError(t, op.ProcessWatermark(wms[to-1]))
		from = to
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows, rec.wms, made
}

// randomRowWatermarks is a rising watermark for each of n rows.
func randomRowWatermarks(rng *rand.Rand, n int) []int64 {
	wms := make([]int64, n)
	w := rowtime.MinWatermark
	for i := range wms {
		if rng.IntN(3) == 0 {
			w = max(w, 0) + rng.Int64N(4)
		}
		wms[i] = w
	}
	return wms
}

// Each output row of a regular join goes out under the watermark of the
// input row that made it, at batches of 1, 3 and 4096 rows alike.
func TestRegularJoinRowWatermarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for round := range 120 {
		s := randomShape(rng)
		kind := allKinds[round%len(allKinds)]
		cfg := s.config(kind)
		evs := randomEvents(rng, s, 1+rng.IntN(150))
		wms := randomRowWatermarks(rng, len(evs))
		name := fmt.Sprintf("round %d %s %+v", round, kind, s)
		rows, got, made := runJoinRowWatermarks(t, cfg, evs, wms, 1)
		require.Equal(t, runJoin(t, cfg, evs, 1, 0), rows, name)
		require.Equal(t, made, got, name)
		for _, size := range []int{3, 4096} {
			r, g, _ := runJoinRowWatermarks(t, cfg, evs, wms, size)
			require.Equal(t, rows, r, "%s, batches of %d", name, size)
			require.Equal(t, made, g, "%s, batches of %d", name, size)
		}
	}
}
