package joinop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
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

// wideSide is a side of Nexmark q7_tvf's shape: an integer key k, a value
// v the residual reads and a string s it does not (so its residual rows
// are kept apart).
var wideSide = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String},
}, nil)

type wideRow struct {
	input int
	k, v  int64
	kNull bool
}

// naiveWideJoin is the sorted inner join of rows on k (NULL matching
// nothing) where keep holds of the left and right row.
func naiveWideJoin(rows []wideRow, keep func(l, r wideRow) bool) []string {
	var want []string
	for i, r := range rows {
		for _, l := range rows[:i] {
			if l.input != r.input && !l.kNull && !r.kNull && l.k == r.k {
				a, b := l, r
				if a.input == 1 {
					a, b = b, a
				}
				if keep(a, b) {
					want = append(want, fmt.Sprintf("%d %d s0.%d %d %d s1.%d", a.k, a.v, a.v, b.k, b.v, b.v))
				}
			}
		}
	}
	slices.Sort(want)
	return want
}

// runWideJoin is runJoin for rows of wideSide, spilled past spillAfter
// bytes (none when 0).
func runWideJoin(t *testing.T, cfg Config, rows []wideRow, size, snapAt int, spillAfter int64) []string {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	budget := rowstore.NewBudget(spillAfter, t.TempDir())
	defer func() { require.NoError(t, budget.Close()) }()
	mem := rowstore.WithBudget(checked, budget)
	rec := &recorder{}
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	for from := 0; from < len(rows); {
		if snapAt > 0 && from >= snapAt {
			snapAt = 0
			op = restarted(t, op, cfg, mem, rec)
		}
		to := from + 1
		for to < len(rows) && to-from < size && rows[to].input == rows[from].input {
			to++
		}
		b := array.NewRecordBuilder(checked, wideSide)
		for _, r := range rows[from:to] {
			if r.kNull {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(r.k)
			}
			b.Field(1).(*array.Int64Builder).Append(r.v)
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%d.%d", r.input, r.v))
		}
		in := b.NewRecordBatch()
		b.Release()
		require.NoError(t, op.ProcessInput(rows[from].input, pipeline.Batch{Record: in}))
		in.Release()
		from = to
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows
}

// A side whose residual rows are kept apart keeps none while it logs, its
// probes gathering the columns from its rows; once its log ends it keeps
// them, gathered from its rows (spilled or not). Every way, the join is
// the naive one, in every order of batches, across a snapshot.
func TestLoggedSideKeepsResidualRowsOnceIndexed(t *testing.T) {
	cfg := Config{Kind: Inner, Left: wideSide, Right: wideSide, LeftKeys: []int{0}, RightKeys: []int{0},
		Residual: &expr.Compare{Op: "<",
			L: &expr.ColumnExpr{Index: 1, Name: "v", Type: arrow.PrimitiveTypes.Int64},
			R: &expr.ColumnExpr{Index: 4, Name: "v", Type: arrow.PrimitiveTypes.Int64}}}
	st := newStepper(t, cfg)
	j := st.op.(*regularJoin)
	require.Nil(t, j.sides[0].residual)
	require.Equal(t, []int{1}, j.sides[0].deferred.cols)

	rng := rand.New(rand.NewPCG(23, 7))
	for round := range 60 {
		var rows []wideRow
		for range 1 + rng.IntN(300) {
			rows = append(rows, wideRow{input: rng.IntN(2), k: int64(rng.IntN(4)), v: int64(rng.IntN(20)), kNull: rng.IntN(10) == 0})
		}
		want := naiveWideJoin(rows, func(l, r wideRow) bool { return l.v < r.v })
		name := fmt.Sprintf("round %d", round)
		for _, budget := range []int64{0, 1, 1 << 40} {
			withScanBudget(budget, func() {
				for _, size := range []int{1, 7, 4096} {
					for _, spill := range []int64{0, 1} {
						out := runWideJoin(t, cfg, rows, size, len(rows)/2, spill)
						slices.Sort(out)
						require.Equal(t, want, out, name)
					}
				}
			})
		}
	}
}

// A log of pages of 32-bit keys and of wider ones (a key past 32 bits,
// or one whose low 32 bits are a narrow key's) joins as the naive join,
// probed a key at a time (its scan compares keys) or by several.
func TestLogOfNarrowAndWideKeysJoinsAsNaive(t *testing.T) {
	cfg := Config{Kind: Inner, Left: wideSide, Right: wideSide, LeftKeys: []int{0}, RightKeys: []int{0}}
	rng := rand.New(rand.NewPCG(5, 9))
	wide := []int64{1 << 32, 1<<32 + 3, -1 << 40, math.MaxInt64, math.MinInt32 - 1}
	key := func() int64 {
		if rng.IntN(3*logPage) == 0 {
			return wide[rng.IntN(len(wide))]
		}
		return int64(rng.IntN(2000)) - 1000
	}
	var rows []wideRow
	for i := range 4 * logPage {
		rows = append(rows, wideRow{input: 0, k: key(), v: int64(i), kNull: i < 100 && rng.IntN(10) == 0})
	}
	rows[2*logPage+5].k = wide[0] // the third page wide
	for i := range 60 {
		r := wideRow{input: 1, k: key(), v: int64(i)}
		if i%3 == 0 {
			r.k = wide[rng.IntN(len(wide))]
		}
		rows = append(rows, r)
		if i%10 == 0 { // left rows between probes
			rows = append(rows, wideRow{input: 0, k: r.k, v: int64(-i)})
		}
	}
	want := naiveWideJoin(rows, func(wideRow, wideRow) bool { return true })
	require.NotEmpty(t, want)
	withScanBudget(1<<40, func() {
		for _, size := range []int{3, 4096} {
			out := runWideJoin(t, cfg, rows, size, 0, 0)
			slices.Sort(out)
			require.Equal(t, want, out, "batches of %d", size)
		}
	})
}
