package setop

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	{Name: "$right", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// row is a row of one side; k "" is NULL.
type row struct {
	k     string
	v     int64
	right bool
}

func (r row) text() string {
	k := r.k
	if k == "" {
		k = "(null)"
	}
	return fmt.Sprintf("%s %d", k, r.v)
}

func batch(mem memory.Allocator, rows []row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, testSchema)
	defer b.Release()
	for _, r := range rows {
		if r.k == "" {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.StringBuilder).Append(r.k)
		}
		b.Field(1).(*array.Int64Builder).Append(r.v)
		b.Field(2).(*array.BooleanBuilder).Append(r.right)
	}
	return b.NewRecordBatch()
}

type recorder struct{ rows []string }

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for c := 0; c < int(rec.NumCols()); c++ {
			cells = append(cells, rec.Column(c).ValueStr(i))
		}
		r.rows = append(r.rows, strings.Join(cells, " "))
	}
	return nil
}
func (r *recorder) ProcessWatermark(int64) error { return nil }
func (r *recorder) ProcessEnd() error            { return nil }
func (r *recorder) Close()                       {}

// run feeds rows in batches of size; with size 3 every batch goes to a
// new operator restored from the previous one's snapshot.
func run(t *testing.T, cfg Config, rows []row, size int) []string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := New(cfg, mem, rec)
	require.NoError(t, err)
	defer func() { op.Close() }()
	for from := 0; from < len(rows); from += size {
		if size == 3 && from > 0 {
			var e checkpoint.Encoder
			require.NoError(t, op.SnapshotState(&e))
			op.Close()
			op, err = New(cfg, mem, rec)
			require.NoError(t, err)
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, op.RestoreState(d))
			require.NoError(t, d.Finish())
		}
		in := batch(mem, rows[from:min(from+size, len(rows))])
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	require.NoError(t, op.ProcessEnd())
	return rec.rows
}

// naive is the multiset answer over rows: each distinct row with the
// copies the operation keeps, from the rows' counts per side.
func naive(kind Kind, rows []row) []string {
	count := map[string][2]int{}
	for _, r := range rows {
		c := count[r.text()]
		if r.right {
			c[1]++
		} else {
			c[0]++
		}
		count[r.text()] = c
	}
	var out []string
	for text, c := range count {
		n := 0
		switch kind {
		case Intersect:
			if c[0] > 0 && c[1] > 0 {
				n = 1
			}
		case IntersectAll:
			n = min(c[0], c[1])
		case Except:
			if c[0] > 0 && c[1] == 0 {
				n = 1
			}
		case ExceptAll:
			n = max(c[0]-c[1], 0)
		}
		for range n {
			out = append(out, text)
		}
	}
	sort.Strings(out)
	return out
}

// Each set operation, its changes materialised after every row, holds
// the naive multiset answer over the rows so far; its changes do not
// depend on the batch size (or a snapshot and restore between batches).
func TestSetOperationMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 80 {
		kind := Kind(round % 4)
		rows := make([]row, 1+rng.IntN(120))
		for i := range rows {
			rows[i] = row{k: []string{"", "a", "b"}[rng.IntN(3)], v: int64(rng.IntN(3)), right: rng.IntN(2) == 0}
		}
		cfg := Config{Input: testSchema, Kind: kind}
		changes := run(t, cfg, rows, 1)
		// one change at most per row: replay them row by row
		view := map[string]int{}
		next := 0
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec := &recorder{}
		op, err := New(cfg, mem, rec)
		require.NoError(t, err)
		for i, r := range rows {
			in := batch(mem, []row{r})
			require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
			in.Release()
			for ; next < len(rec.rows); next++ {
				kindText, text, _ := strings.Cut(rec.rows[next], " ")
				if kindText == "+I" {
					view[text]++
				} else {
					require.Equal(t, "-D", kindText)
					require.Positive(t, view[text], "round %d: %s deletes a row not in the result", round, rec.rows[next])
					view[text]--
				}
			}
			var got []string
			for text, n := range view {
				for range n {
					got = append(got, text)
				}
			}
			sort.Strings(got)
			require.Equal(t, naive(kind, rows[:i+1]), got, "round %d (%s), after row %d", round, kind, i)
		}
		op.Close()
		mem.AssertSize(t, 0)
		for _, size := range []int{3, 7, 4096} {
			require.Equal(t, changes, run(t, cfg, rows, size), "round %d (%s), batch size %d", round, kind, size)
		}
	}
}

// EXCEPT ALL: each left row adds a copy (+I), each right row takes one
// away (-D) while there is one; a right row before any left row only
// counts.
func TestExceptAll(t *testing.T) {
	rows := []row{{"a", 1, false}, {"a", 1, false}, {"a", 1, true}, {"b", 2, true}, {"b", 2, false}, {"a", 1, true}, {"a", 1, true}, {"a", 1, false}}
	got := run(t, Config{Input: testSchema, Kind: ExceptAll}, rows, 4096)
	require.Equal(t, []string{"+I a 1", "+I a 1", "-D a 1", "-D a 1"}, got)
	got = run(t, Config{Input: testSchema, Kind: Intersect}, rows, 4096)
	require.Equal(t, []string{"+I a 1", "+I b 2"}, got)
}

func TestSetOperationConformance(t *testing.T) {
	input := func(mem memory.Allocator) []pipelinetest.Step {
		return []pipelinetest.Step{
			pipelinetest.BatchStep(batch(mem, []row{{"a", 1, false}, {"a", 1, true}, {"b", 2, false}}), nil),
			pipelinetest.WatermarkStep(7),
			pipelinetest.BatchStep(batch(mem, []row{{"b", 2, true}, {"", 3, false}}), nil),
			pipelinetest.WatermarkStep(15),
		}
	}
	for kind := Intersect; kind <= ExceptAll; kind++ {
		t.Run(kind.String(), func(t *testing.T) {
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return New(Config{Input: testSchema, Kind: kind}, mem, next)
				},
				Input: input,
			})
		})
	}
}
