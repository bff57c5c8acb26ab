package windowop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

var changeSchema = arrow.NewSchema([]arrow.Field{
	RowKindField(),
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

type change struct {
	kind RowKind
	k    string
	v    int64
}

// retractRef is the naive reference of COUNT(*), SUM(v), MAX(v) and
// COUNT(DISTINCT v) per
// key over a changelog: per row the key's values before and after, with
// Flink's rules (a retraction of a key without rows changes nothing, the
// last row taken out emits -D).
func retractRef(changes []change) []string {
	rows := map[string][]int64{}
	text := func(k string, vs []int64) string {
		if len(vs) == 0 {
			return k + " 0 NULL NULL 0"
		}
		var sum int64
		distinct := map[int64]bool{}
		for _, v := range vs {
			sum += v
			distinct[v] = true
		}
		return fmt.Sprintf("%s %d %d %d %d", k, len(vs), sum, slices.Max(vs), len(distinct))
	}
	var out []string
	for _, c := range changes {
		old, had := rows[c.k]
		if c.kind[0] == '-' && !had {
			continue
		}
		next := slices.Clone(old)
		if c.kind[0] == '-' {
			if i := slices.Index(next, c.v); i >= 0 {
				next = slices.Delete(next, i, i+1)
			}
		} else {
			next = append(next, c.v)
		}
		switch {
		case !had:
			out = append(out, "row +I "+text(c.k, next))
		case len(next) == 0:
			out = append(out, "row -D "+text(c.k, old))
		case text(c.k, old) != text(c.k, next):
			out = append(out, "row -U "+text(c.k, old), "row +U "+text(c.k, next))
		}
		if len(next) == 0 {
			delete(rows, c.k)
		} else {
			rows[c.k] = next
		}
	}
	return out
}

// randomChangelog inserts rows and takes out rows it inserted (as -U and
// +U pairs or -D), with now and then a retraction of a row never there.
func randomChangelog(rng *rand.Rand, n int) []change {
	var live []change
	var out []change
	for len(out) < n {
		switch r := rng.IntN(10); {
		case r < 5 || len(live) == 0:
			c := change{Insert, fmt.Sprintf("k%d", rng.IntN(4)), int64(rng.IntN(6))}
			live = append(live, c)
			out = append(out, c)
		case r < 8:
			i := rng.IntN(len(live))
			old := live[i]
			nv := change{UpdateAfter, old.k, int64(rng.IntN(6))}
			live[i] = nv
			out = append(out, change{UpdateBefore, old.k, old.v}, nv)
		case r < 9:
			i := rng.IntN(len(live))
			out = append(out, change{Delete, live[i].k, live[i].v})
			live = slices.Delete(live, i, i+1)
		default:
			out = append(out, change{Delete, "never", 1})
		}
	}
	return out
}

// A GROUP BY over an update stream gives the reference's changes at every
// batch size, and across a snapshot taken between any two batches.
func TestGroupOperatorRetractsMatchesReference(t *testing.T) {
	cfg := GroupConfig{Input: changeSchema, KeyIndexes: []int{1}, Retract: true, Aggs: []AggSpec{
		{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}, {Kind: Max, Input: 2, Name: "m"},
		{Kind: Count, Input: 2, Name: "d", Distinct: true},
	}}
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 25 {
		changes := randomChangelog(rng, 1+rng.IntN(150))
		want := retractRef(changes)
		for _, size := range []int{1, 3, 4096} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			rec := &recorder{}
			op, err := NewGroupOperator(cfg, mem, rec)
			require.NoError(t, err)
			for from := 0; from < len(changes); from += size {
				if size == 3 && from > 0 {
					var e checkpoint.Encoder
					require.NoError(t, op.SnapshotState(&e))
					op.Close()
					op, err = NewGroupOperator(cfg, mem, rec)
					require.NoError(t, err)
					require.NoError(t, op.RestoreState(checkpoint.NewDecoder(e.Data())))
				}
				b := array.NewRecordBuilder(mem, changeSchema)
				for _, c := range changes[from:min(from+size, len(changes))] {
					b.Field(0).(*array.StringBuilder).Append(string(c.kind))
					b.Field(1).(*array.StringBuilder).Append(c.k)
					b.Field(2).(*array.Int64Builder).Append(c.v)
				}
				in := b.NewRecordBatch()
				b.Release()
				require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
				in.Release()
			}
			op.Close()
			got := slices.DeleteFunc(rec.events, func(e string) bool { return !strings.HasPrefix(e, "row ") })
			require.Equal(t, want, got, "round %d, batch size %d", round, size)
			mem.AssertSize(t, 0)
		}
	}
}
