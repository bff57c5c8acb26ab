package rankop

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// rankedRows is the naive answer of a RANK or DENSE_RANK Top-N over rows:
// each partition's rows sorted (v DESC, NULL last), ranked, those ranked
// in Start..End, as "ts k v [rank]".
func rankedRows(cfg Config, rows []row) []string {
	parts := map[string][]row{}
	for _, r := range rows {
		parts[r.k] = append(parts[r.k], r)
	}
	less := func(a, b row) bool {
		if a.null != b.null {
			return !a.null
		}
		return !a.null && a.v > b.v
	}
	var out []string
	for _, p := range parts {
		sort.SliceStable(p, func(i, j int) bool { return less(p[i], p[j]) })
		rank := int64(0)
		for j, r := range p {
			if j == 0 || less(p[j-1], r) {
				rank++
				if cfg.Type == StandardRank {
					rank = int64(j) + 1
				}
			}
			if rank < cfg.Start || rank > cfg.End {
				continue
			}
			if cfg.RankName != "" {
				out = append(out, fmt.Sprintf("%s %d", r.text(), rank))
			} else {
				out = append(out, r.text())
			}
		}
	}
	sort.Strings(out)
	return out
}

// materialize applies changes to view (a multiset of rows), failing on a
// retraction of a row the view does not hold.
func materialize(t *testing.T, view map[string]int, changes []string) {
	for _, c := range changes {
		kind, text, _ := strings.Cut(c, " ")
		switch kind {
		case "+I", "+U":
			view[text]++
		case "-U", "-D":
			require.Positive(t, view[text], "%s retracts a row not in the result", c)
			view[text]--
		default:
			t.Fatalf("unexpected change %q", c)
		}
	}
}

func viewRows(view map[string]int) []string {
	var out []string
	for text, n := range view {
		for range n {
			out = append(out, text)
		}
	}
	sort.Strings(out)
	return out
}

// RANK and DENSE_RANK Top-Ns, materialised after every row, hold the
// naive answer over the rows so far; their changes do not depend on the
// batch size (or on a snapshot and restore between batches).
func TestTopNTiesMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 60 {
		rows := randomRows(rng, 1+rng.IntN(150), 1+rng.IntN(4))
		for i := range rows {
			rows[i].v %= 4 // many ties
		}
		start := int64(1 + rng.IntN(3))
		cfg := Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}},
			Start: start, End: start + int64(rng.IntN(4)), Mode: TopN, Type: []RankType{StandardRank, DenseRank}[round%2]}
		if rng.IntN(2) == 0 {
			cfg.RankName = "r"
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec := &recorder{}
		op, err := NewRank(cfg, mem, rec)
		require.NoError(t, err)
		view := map[string]int{}
		for i, r := range rows {
			in := batch(mem, []row{r})
			from := len(rec.rows)
			require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
			in.Release()
			materialize(t, view, rec.rows[from:])
			require.Equal(t, rankedRows(cfg, rows[:i+1]), viewRows(view), "round %d (%s %d..%d), after row %d", round, cfg.Type, cfg.Start, cfg.End, i)
		}
		require.NoError(t, op.ProcessEnd())
		op.Close()
		mem.AssertSize(t, 0)
		for _, size := range []int{3, 17, 4096} {
			got, _ := run(t, cfg, rows, size)
			require.Equal(t, rec.rows, got, "round %d, batch size %d", round, size)
		}
	}
}

// RANK leaves gaps after ties, DENSE_RANK does not; rank <= 3 keeps every
// row tied at 3. A new row that ties changes no other row's DENSE_RANK;
// one that does not moves the rows after it down a rank (-U, +U), and out
// of the range (-D, first).
func TestTopNTies(t *testing.T) {
	rows := []row{{1, "a", 5, false}, {2, "a", 7, false}, {3, "a", 7, false}, {4, "a", 5, false}, {5, "a", 6, false}}
	cases := []struct {
		typ  RankType
		want []string
	}{
		{StandardRank, []string{
			"+I 1 a 5 1",
			"+I 2 a 7 1", "-U 1 a 5 1", "+U 1 a 5 2",
			"+I 3 a 7 1", "-U 1 a 5 2", "+U 1 a 5 3",
			"+I 4 a 5 3",
			"-D 1 a 5 3", "-D 4 a 5 3", "+I 5 a 6 3",
		}},
		{DenseRank, []string{
			"+I 1 a 5 1",
			"+I 2 a 7 1", "-U 1 a 5 1", "+U 1 a 5 2",
			"+I 3 a 7 1",
			"+I 4 a 5 2",
			"+I 5 a 6 2", "-U 1 a 5 2", "+U 1 a 5 3", "-U 4 a 5 2", "+U 4 a 5 3",
		}},
	}
	for _, c := range cases {
		cfg := Config{Input: testSchema, Partition: []int{1}, Order: []SortKey{{Index: 2, Desc: true}}, Start: 1, End: 3, RankName: "r", Mode: TopN, Type: c.typ}
		got, _ := run(t, cfg, rows, 4096)
		require.Equal(t, c.want, got, "%s", c.typ)
	}
}
