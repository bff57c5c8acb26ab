package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// countSnapSchema is the input of the count-window snapshot tests: a
// string and an integer key column (both nullable), and values of three
// types.
var countSnapSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "g", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// countSnapAggs includes aggregates that depend on arrival order
// (FIRST_VALUE, LAST_VALUE, LISTAGG) and ones with a set per slot
// (DISTINCT).
var countSnapAggs = []AggSpec{
	{Kind: CountStar, Name: "n"},
	{Kind: Count, Input: 2, Name: "cv"},
	{Kind: Sum, Input: 2, Name: "sv"},
	{Kind: Avg, Input: 3, Name: "ax"},
	{Kind: Min, Input: 4, Name: "mins"},
	{Kind: Max, Input: 2, Name: "maxv"},
	{Kind: FirstValue, Input: 2, Name: "fv"},
	{Kind: LastValue, Input: 4, Name: "ls"},
	{Kind: FirstValue, Input: 4, Name: "fs"},
	{Kind: LastValue, Input: 3, Name: "lx"},
	{Kind: ListAgg, Input: 4, Name: "la", Separator: ";"},
	{Kind: StddevSamp, Input: 3, Name: "sd"},
	{Kind: Count, Input: 2, Name: "dv", Distinct: true},
}

type countSnapRow struct {
	k    string
	kNul bool
	g    int64
	gNul bool
	v    int32
	vNul bool
	x    float64
	xNul bool
	s    string
	sNul bool
}

func randomCountSnapRows(rnd *rand.Rand, n, keys int) []countSnapRow {
	rows := make([]countSnapRow, n)
	for i := range rows {
		rows[i] = countSnapRow{
			k: fmt.Sprint("k", rnd.IntN(keys)), kNul: rnd.IntN(keys+1) == 0,
			g: int64(rnd.IntN(3)) - 1, gNul: rnd.IntN(6) == 0,
			v: int32(rnd.IntN(20) - 5), vNul: rnd.IntN(5) == 0,
			x: float64(rnd.IntN(400)) / 8, xNul: rnd.IntN(6) == 0,
			s: fmt.Sprint("s", rnd.IntN(50)), sNul: rnd.IntN(5) == 0,
		}
	}
	return rows
}

func countSnapBatch(t testing.TB, mem memory.Allocator, rows []countSnapRow) arrow.RecordBatch {
	t.Helper()
	values := make([][]any, len(rows))
	for i, r := range rows {
		values[i] = []any{orNull(r.k, r.kNul), orNull(r.g, r.gNul), orNull(r.v, r.vNul), orNull(r.x, r.xNul), orNull(r.s, r.sNul)}
	}
	return arrowtest.Record(t, mem, countSnapSchema, values...)
}

// snapshotAndRestoreCount is snapshotAndRestore for count windows; the
// restored operator also reports the same counters and open windows.
func snapshotAndRestoreCount(t *testing.T, op *CountWindowOperator, cfg CountConfig, mem memory.Allocator, out pipeline.Operator) *CountWindowOperator {
	t.Helper()
	stats, open := op.Stats(), op.OpenWindows()
	restored := restart(t, op, func() (*CountWindowOperator, error) { return NewCountWindowOperator(cfg, mem, out) })
	require.Equal(t, stats, restored.Stats())
	require.Equal(t, open, restored.OpenWindows())
	return restored
}

// runCountCutsRestoring feeds rows in batches ending before each cut, a
// watermark after some of them, then the end. After each batch i with
// restore(i) the operator is snapshotted, closed and replaced by one
// restored from the snapshot.
func runCountCutsRestoring(t *testing.T, cfg CountConfig, rows []countSnapRow, cuts []int, wmAfter []bool, restore func(i int) bool) ([]string, CountStats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewCountWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	start := 0
	for i, end := range cuts {
		b := countSnapBatch(t, mem, rows[start:end])
		start = end
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
		b.Release()
		if wmAfter[i] {
			require.NoError(t, op.ProcessWatermark(int64(i/2)))
		}
		if restore != nil && restore(i) {
			op = snapshotAndRestoreCount(t, op, cfg, mem, rec)
		}
	}
	require.NoError(t, op.ProcessEnd())
	return rec.events, op.Stats()
}

// randomCountCuts cuts n rows into random batches, some empty, each
// followed by a watermark or not.
func randomCountCuts(rnd *rand.Rand, n int) ([]int, []bool) {
	var cuts []int
	var wms []bool
	for end := 0; end < n; {
		end = min(n, end+rnd.IntN(40))
		cuts = append(cuts, end)
		wms = append(wms, rnd.IntN(3) == 0)
	}
	return cuts, wms
}

var countSnapKeySets = [][]int{{0}, {1}, {0, 1}, nil}

// A count-window run restarted from a snapshot after any batch gives the
// same results, watermarks and counters as an uninterrupted run: tumbling
// and sliding windows, string, integer, composite and no keys with NULL
// keys, and aggregates that depend on arrival order.
func TestCountWindowRestoreFromSnapshotContinuesTheRun(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 17))
	for i := range 120 {
		size := 1 + rnd.Int64N(9)
		var slide int64
		switch rnd.IntN(3) {
		case 0: // tumbling, Slide 0
		case 1:
			slide = size // tumbling, explicit
		default:
			slide = 1 + rnd.Int64N(size)
		}
		cfg := CountConfig{
			Input:      countSnapSchema,
			KeyIndexes: countSnapKeySets[i%len(countSnapKeySets)],
			Size:       size,
			Slide:      slide,
			Aggs:       countSnapAggs,
		}
		rows := randomCountSnapRows(rnd, 1+rnd.IntN(300), 1+rnd.IntN(6))
		cuts, wms := randomCountCuts(rnd, len(rows))
		name := fmt.Sprintf("keys %v size %d slide %d, %d rows in %d batches", cfg.KeyIndexes, size, slide, len(rows), len(cuts))

		want, wantStats := runCountCutsRestoring(t, cfg, rows, cuts, wms, nil)
		require.NotEmpty(t, want, name)
		every, everyStats := runCountCutsRestoring(t, cfg, rows, cuts, wms, func(int) bool { return true })
		require.Equal(t, want, every, "%s, restored after every batch", name)
		require.Equal(t, wantStats, everyStats, name)
		k := rnd.IntN(len(cuts))
		once, onceStats := runCountCutsRestoring(t, cfg, rows, cuts, wms, func(i int) bool { return i == k })
		require.Equal(t, want, once, "%s, restored after batch %d", name, k)
		require.Equal(t, wantStats, onceStats, name)
	}
}

// A fresh operator snapshots and restores too, and a restored operator
// refuses a second restore.
func TestCountWindowSnapshotOfEmptyOperator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := CountConfig{Input: countSnapSchema, KeyIndexes: []int{0}, Size: 3, Slide: 2, Aggs: countSnapAggs}
	rec := &recorder{}
	op, err := NewCountWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	op = snapshotAndRestoreCount(t, op, cfg, mem, rec)
	b := countSnapBatch(t, mem, []countSnapRow{{k: "a", v: 1, x: 1, s: "p"}, {k: "a", v: 2, x: 2, s: "q"}})
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	require.Error(t, op.RestoreState(checkpoint.NewDecoder(e.Data())), "the operator has state")
	op.Close()
	require.Equal(t, []string{"row a 2 2 2 3 1.5 p 2 1 q p 2 p;q 0.7071067811865476 2"}, rec.rows())
}

// A truncated or inconsistent count-window state is refused, never
// half-loaded into a panic.
func TestCountWindowRestoreRefusesDamagedState(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 3))
	rows := randomCountSnapRows(rnd, 60, 4)
	for _, keys := range countSnapKeySets {
		for _, c := range []struct{ size, slide int64 }{{4, 0}, {5, 2}} {
			cfg := CountConfig{Input: countSnapSchema, KeyIndexes: keys, Size: c.size, Slide: c.slide, Aggs: countSnapAggs}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			op, err := NewCountWindowOperator(cfg, mem, &recorder{})
			require.NoError(t, err)
			b := countSnapBatch(t, mem, rows)
			require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
			b.Release()
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			state := e.Data()
			restore := func(data []byte) error {
				r, err := NewCountWindowOperator(cfg, mem, &recorder{})
				require.NoError(t, err)
				defer r.Close()
				d := checkpoint.NewDecoder(data)
				err = r.RestoreState(d)
				if err == nil {
					err = d.Finish()
				}
				return err
			}
			require.NoError(t, restore(state))
			for n := range len(state) {
				err := restore(state[:n])
				require.Errorf(t, err, "keys %v, state cut to %d of %d bytes", keys, n, len(state))
				require.ErrorIs(t, err, checkpoint.ErrCorrupt)
			}
			// Altered bytes give an error or a state that loads; never a
			// panic.
			for range 300 {
				bad := append([]byte(nil), state...)
				bad[rnd.IntN(len(bad))] ^= byte(1 + rnd.IntN(255))
				if err := restore(bad); err != nil {
					require.ErrorIs(t, err, checkpoint.ErrCorrupt)
				}
			}
			mem.AssertSize(t, 0)
		}
	}
}

// Slot and key bookkeeping that does not add up is refused: a slot used
// twice, a slot out of range, open windows that do not match a key's row
// count, counters that do not match the keys.
func TestCountWindowRestoreRefusesInconsistentState(t *testing.T) {
	cfg := CountConfig{Input: countSnapSchema, KeyIndexes: []int{0}, Size: 3, Slide: 1,
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	// Two keys, one row each: each fired its first window and has two
	// open, key 0 in slots 0 and 1, key 1 in slots 2 and 3.
	build := func(rowsIn, results int64, slots int, free []int32, keyRows []int64, open [][]int32) []byte {
		var e checkpoint.Encoder
		e.Uint(countSnapshotVersion)
		e.Int(0)
		checkpoint.Ints(&e, []int64{rowsIn, results})
		e.Uint(2) // keys
		e.Uint(2)
		e.String("a")
		e.String("b")
		e.Bools([]bool{true, true})
		e.Uint(uint64(slots))
		checkpoint.Ints(&e, free)
		checkpoint.Ints(&e, make([]int64, slots)) // COUNT(*)
		e.Uint(uint64(len(keyRows)))
		for i := range keyRows {
			e.Int(keyRows[i])
			checkpoint.Ints(&e, open[i])
		}
		return e.Data()
	}
	restore := func(data []byte) error {
		r, err := NewCountWindowOperator(cfg, memory.NewGoAllocator(), &recorder{})
		require.NoError(t, err)
		defer r.Close()
		d := checkpoint.NewDecoder(data)
		if err := r.RestoreState(d); err != nil {
			return err
		}
		return d.Finish()
	}
	good := [][]int32{{0, 1}, {2, 3}}
	require.NoError(t, restore(build(2, 2, 4, nil, []int64{1, 1}, good)))
	for name, data := range map[string][]byte{
		"slot twice":      build(2, 2, 4, nil, []int64{1, 1}, [][]int32{{0, 1}, {2, 1}}),
		"free and open":   build(2, 2, 4, []int32{3}, []int64{1, 1}, good),
		"slot unused":     build(2, 2, 5, nil, []int64{1, 1}, good),
		"slot too large":  build(2, 2, 4, nil, []int64{1, 1}, [][]int32{{0, 1}, {2, 4}}),
		"negative slot":   build(2, 2, 4, nil, []int64{1, 1}, [][]int32{{0, 1}, {2, -1}}),
		"too few windows": build(2, 2, 4, []int32{3}, []int64{1, 1}, [][]int32{{0, 1}, {2}}),
		"negative rows":   build(0, 0, 4, nil, []int64{-1, 1}, good),
		"rows counter":    build(3, 2, 4, nil, []int64{1, 1}, good),
		"results counter": build(2, 1, 4, nil, []int64{1, 1}, good),
		"one key state":   build(1, 1, 2, nil, []int64{1}, good[:1]),
		"version":         append([]byte{countSnapshotVersion + 1}, build(2, 2, 4, nil, []int64{1, 1}, good)[1:]...),
	} {
		err := restore(data)
		require.ErrorIs(t, err, checkpoint.ErrCorrupt, name)
	}
}
