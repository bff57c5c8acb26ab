package lateral

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

var itemType = arrow.StructOf(
	arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true})

var inSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "items", Type: arrow.ListOf(itemType), Nullable: true},
	{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
}, nil)

// item is a ROW element; nil is a NULL one.
type item struct {
	name string
	qty  int32
}

// row is one input row; a nil slice is a NULL array or map.
type row struct {
	id    int64
	s     string
	tags  []*string
	items []*item
	keys  []string
	vals  []int32
	null  [3]bool // tags, items, attrs are NULL
	wmAt  int64
}

func randomRows(r *rand.Rand, n int) []row {
	words := []string{"a", "b", "cc", "", "dd"}
	out := make([]row, n)
	for i := range out {
		x := row{id: int64(i), s: strings.Repeat("w ", r.Intn(4)), wmAt: int64(i / 3)}
		for c := range x.null {
			x.null[c] = r.Intn(7) == 0
		}
		for range r.Intn(4) {
			if r.Intn(6) == 0 {
				x.tags = append(x.tags, nil)
			} else {
				w := words[r.Intn(len(words))]
				x.tags = append(x.tags, &w)
			}
		}
		for range r.Intn(3) {
			if r.Intn(5) == 0 {
				x.items = append(x.items, nil)
			} else {
				x.items = append(x.items, &item{name: words[r.Intn(len(words))], qty: int32(r.Intn(9))})
			}
		}
		for k := range r.Intn(3) {
			x.keys = append(x.keys, fmt.Sprintf("k%d", k))
			x.vals = append(x.vals, int32(r.Intn(5)))
		}
		out[i] = x
	}
	return out
}

func build(mem memory.Allocator, rows []row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, inSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		b.Field(1).(*array.StringBuilder).Append(r.s)
		tb := b.Field(2).(*array.ListBuilder)
		if r.null[0] {
			tb.AppendNull()
		} else {
			tb.Append(true)
			for _, t := range r.tags {
				if t == nil {
					tb.ValueBuilder().AppendNull()
				} else {
					tb.ValueBuilder().(*array.StringBuilder).Append(*t)
				}
			}
		}
		ib := b.Field(3).(*array.ListBuilder)
		if r.null[1] {
			ib.AppendNull()
		} else {
			ib.Append(true)
			sb := ib.ValueBuilder().(*array.StructBuilder)
			for _, it := range r.items {
				if it == nil {
					sb.AppendNull()
					continue
				}
				sb.Append(true)
				sb.FieldBuilder(0).(*array.StringBuilder).Append(it.name)
				sb.FieldBuilder(1).(*array.Int32Builder).Append(it.qty)
			}
		}
		mb := b.Field(4).(*array.MapBuilder)
		if r.null[2] {
			mb.AppendNull()
		} else {
			mb.Append(true)
			for k, key := range r.keys {
				mb.KeyBuilder().(*array.StringBuilder).Append(key)
				mb.ItemBuilder().(*array.Int32Builder).Append(r.vals[k])
			}
		}
	}
	return b.NewRecordBatch()
}

// reference is the naive expansion, one line per output row: the input
// row's id and watermark, then the generated values.
func reference(rows []row, arg int, left, ordinality bool, fn bool) []string {
	var out []string
	for _, r := range rows {
		var gen [][]string
		switch {
		case fn:
			gen = splitRef(r.s)
		case arg == 2 && !r.null[0]:
			for _, t := range r.tags {
				gen = append(gen, []string{str(t)})
			}
		case arg == 3 && !r.null[1]:
			for _, it := range r.items {
				if it == nil {
					gen = append(gen, []string{"(null)", "(null)"})
				} else {
					gen = append(gen, []string{it.name, fmt.Sprint(it.qty)})
				}
			}
		case arg == 4 && !r.null[2]:
			for k := range r.keys {
				gen = append(gen, []string{r.keys[k], fmt.Sprint(r.vals[k])})
			}
		}
		for j, g := range gen {
			if ordinality {
				g = append(g, fmt.Sprint(j+1))
			}
			out = append(out, fmt.Sprintf("%d@%d %s", r.id, r.wmAt, strings.Join(g, "|")))
		}
		if left && len(gen) == 0 {
			width := map[int]int{2: 1, 3: 2, 4: 2}[arg]
			if fn {
				width = 2
			}
			if ordinality {
				width++
			}
			out = append(out, fmt.Sprintf("%d@%d %s", r.id, r.wmAt, strings.TrimSuffix(strings.Repeat("(null)|", width), "|")))
		}
	}
	return out
}

func str(s *string) string {
	if s == nil {
		return "(null)"
	}
	return *s
}

// split is a table function: the words of s (split at spaces, the empty
// ones dropped) with their lengths.
func split(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error) {
	s := args[0].(*array.String)
	b := array.NewRecordBuilder(mem, splitSchema)
	defer b.Release()
	var rows []int
	for i := 0; i < s.Len(); i++ {
		for _, w := range splitRef(s.Value(i)) {
			b.Field(0).(*array.StringBuilder).Append(w[0])
			b.Field(1).(*array.Int32Builder).Append(int32(len(w[0])))
			rows = append(rows, i)
		}
	}
	return b.NewRecordBatch(), rows, nil
}

var splitSchema = arrow.NewSchema([]arrow.Field{{Name: "word", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "len", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)

func splitRef(s string) [][]string {
	var out [][]string
	for w := range strings.FieldsSeq(s) {
		out = append(out, []string{w, fmt.Sprint(len(w))})
	}
	return out
}

func column(i int) expr.Expr {
	f := inSchema.Field(i)
	return &expr.ColumnExpr{Index: i, Name: f.Name, Type: f.Type}
}

func spec(t testing.TB, arg int, left, ordinality, fn bool) Spec {
	s := Spec{Input: inSchema, Left: left, Ordinality: ordinality && !fn}
	var gen []arrow.Field
	if fn {
		s.Args, s.Function, s.FunctionName = []expr.Expr{column(1)}, split, "split"
		gen = splitSchema.Fields()
	} else {
		s.Args = []expr.Expr{column(arg)}
		var err error
		gen, err = UnnestFields(inSchema.Field(arg).Type, ordinality)
		require.NoError(t, err)
	}
	s.Schema = arrow.NewSchema(append(slices.Clone(inSchema.Fields()), gen...), nil)
	return s
}

// collect renders the output rows as reference does.
type collect struct {
	rows []string
	wms  []int64
	in   int
}

func (c *collect) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		var gen []string
		for col := c.in; col < int(rec.NumCols()); col++ {
			gen = append(gen, rec.Column(col).ValueStr(i))
		}
		wm := int64(-1)
		if b.Watermarks != nil {
			wm = b.Watermarks[i]
		}
		c.rows = append(c.rows, fmt.Sprintf("%s@%d %s", rec.Column(0).ValueStr(i), wm, strings.Join(gen, "|")))
	}
	return nil
}
func (c *collect) ProcessWatermark(wm int64) error { c.wms = append(c.wms, wm); return nil }
func (c *collect) ProcessEnd() error               { return nil }
func (c *collect) Close()                          {}

// run drives the stage with rows cut into batches of size, each row
// under its wmAt watermark.
func run(t testing.TB, mem memory.Allocator, s Spec, rows []row, size int) []string {
	sink := &collect{in: inSchema.NumFields()}
	l, err := New(s, mem, sink)
	require.NoError(t, err)
	defer l.Close()
	for start := 0; start < len(rows); start += size {
		part := rows[start:min(start+size, len(rows))]
		rec := build(mem, part)
		wms := make([]int64, len(part))
		for i, r := range part {
			wms[i] = r.wmAt
		}
		err := l.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms})
		rec.Release()
		require.NoError(t, err)
	}
	require.NoError(t, l.ProcessEnd())
	return sink.rows
}

// check runs every form over rows at several batch sizes against the
// naive reference, with Arrow memory checked.
func check(t testing.TB, rows []row) {
	for _, arg := range []int{2, 3, 4, -1} {
		for _, left := range []bool{false, true} {
			for _, ord := range []bool{false, true} {
				fn := arg < 0
				if fn && ord {
					continue
				}
				want := reference(rows, arg, left, ord, fn)
				for _, size := range []int{1, 3, 4096} {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					got := run(t, mem, spec(t, arg, left, ord, fn), rows, size)
					require.Equal(t, want, got, "arg %d left %v ordinality %v batch %d", arg, left, ord, size)
					mem.AssertSize(t, 0)
				}
			}
		}
	}
}

func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 20 {
		check(t, randomRows(r, 1+r.Intn(40)))
	}
}

func FuzzLateral(f *testing.F) {
	f.Add(int64(1), uint8(10))
	f.Add(int64(7), uint8(1))
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		check(t, randomRows(rand.New(rand.NewSource(seed)), int(n)))
	})
}

func TestWatermarksPassOnce(t *testing.T) {
	sink := &collect{}
	l, err := New(spec(t, 2, false, false, false), memory.NewGoAllocator(), sink)
	require.NoError(t, err)
	for _, wm := range []int64{5, 5, 3, 9} {
		require.NoError(t, l.ProcessWatermark(wm))
	}
	require.Equal(t, []int64{5, 9}, sink.wms)
}

// A table function that breaks its contract stops the query with why.
func TestFunctionResultChecked(t *testing.T) {
	for name, tc := range map[string]struct {
		rows []int
		want string
	}{
		"out of order": {[]int{1, 0}, "out of order"},
		"beyond":       {[]int{0, 5}, "beyond"},
		"count":        {[]int{0}, "2 rows and 1 argument rows"},
	} {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			s := spec(t, -1, false, false, true)
			s.Function = func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error) {
				b := array.NewRecordBuilder(mem, splitSchema)
				defer b.Release()
				b.Field(0).(*array.StringBuilder).AppendValues([]string{"x", "y"}, nil)
				b.Field(1).(*array.Int32Builder).AppendValues([]int32{1, 1}, nil)
				return b.NewRecordBatch(), tc.rows, nil
			}
			l, err := New(s, mem, &collect{})
			require.NoError(t, err)
			rec := build(mem, randomRows(rand.New(rand.NewSource(2)), 2))
			err = l.ProcessBatch(pipeline.Batch{Record: rec})
			rec.Release()
			require.ErrorContains(t, err, tc.want)
			mem.AssertSize(t, 0)
		})
	}
}

func TestUnnestFieldsRefusesScalars(t *testing.T) {
	_, err := UnnestFields(arrow.PrimitiveTypes.Int64, false)
	require.ErrorContains(t, err, "UNNEST expands an ARRAY, a MULTISET or a MAP")
}
