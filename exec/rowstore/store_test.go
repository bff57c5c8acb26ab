package rowstore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/internal/arrowtest"
)

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// Rows kept from several batches come back in any order asked, survive
// the removal of others, a compaction and a save and load, and every
// buffer is released at the end.
func TestStoreKeepsRowsByID(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := New(schema, mem)
	var ids []int32
	for b := range 3000 {
		rec := arrowtest.Record(t, mem, schema, []any{"a", int64(b)}, []any{"b", nil}, []any{"c", int64(-b)})
		var err error
		ids, err = s.Add(rec, []int32{0, 2}, ids)
		require.NoError(t, err)
		rec.Release()
	}
	// keep every 100th batch's rows
	var keep []int32
	for i, id := range ids {
		if (i/2)%100 == 0 {
			keep = append(keep, id)
		} else {
			s.Remove(id)
		}
	}
	require.NoError(t, s.Compact())
	require.Equal(t, len(keep), s.Len())
	got, err := s.Gather([]int32{keep[3], keep[0]})
	require.NoError(t, err)
	require.Equal(t, []string{"c -100", "a 0"}, rowsOf(got))
	got.Release()

	var e checkpoint.Encoder
	require.NoError(t, s.Save(&e))
	loaded := New(schema, mem)
	d := checkpoint.NewDecoder(e.Data())
	require.NoError(t, loaded.Load(d))
	require.NoError(t, d.Finish())
	for _, id := range keep {
		require.True(t, loaded.Holds(id))
	}
	a, err := s.Gather(keep)
	require.NoError(t, err)
	b, err := loaded.Gather(keep)
	require.NoError(t, err)
	require.Equal(t, rowsOf(a), rowsOf(b))
	a.Release()
	b.Release()
	s.Release()
	loaded.Release()
}

func rowsOf(rec arrow.RecordBatch) []string {
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		out = append(out, rec.Column(0).ValueStr(i)+" "+rec.Column(1).ValueStr(i))
	}
	return out
}

var wideSchema = arrow.NewSchema([]arrow.Field{
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "t", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
}, nil)

// GatherWith mixes kept rows and rows of a batch that is a slice (an
// offset into its buffers), NULLs from either side, every column type
// the gather reads by buffers and one it takes by runs (BOOLEAN).
func TestGatherWithMixesKeptAndBatchRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := New(wideSchema, mem)
	defer s.Release()
	kept := arrowtest.Record(t, mem, wideSchema,
		[]any{"kept-a", int32(1), 1.5, true, int8(-1)},
		[]any{nil, nil, nil, nil, nil},
		[]any{"", int32(3), -0.5, false, int8(3)})
	ids, err := s.Add(kept, []int32{0, 1, 2}, nil)
	require.NoError(t, err)
	kept.Release()
	whole := arrowtest.Record(t, mem, wideSchema,
		[]any{"skipped", int32(9), 9.0, true, int8(9)},
		[]any{"batch-x", nil, 2.25, nil, int8(7)},
		[]any{nil, int32(-4), nil, true, nil})
	batch := whole.NewSlice(1, 3)
	whole.Release()
	defer batch.Release()

	got, err := s.GatherWith(batch, []int32{-1, ids[0], -2, ids[1], ids[2], -1})
	require.NoError(t, err)
	defer got.Release()
	var rows []string
	for r := 0; r < int(got.NumRows()); r++ {
		row := ""
		for c := 0; c < int(got.NumCols()); c++ {
			row += got.Column(c).ValueStr(r) + " "
		}
		rows = append(rows, row)
	}
	require.Equal(t, []string{
		"batch-x (null) 2.25 (null) 7 ",
		"kept-a 1 1.5 true -1 ",
		"(null) -4 (null) true (null) ",
		"(null) (null) (null) (null) (null) ",
		" 3 -0.5 false 3 ",
		"batch-x (null) 2.25 (null) 7 ",
	}, rows)
	require.Equal(t, 2, got.Column(0).NullN())
	require.Equal(t, 3, got.Column(1).NullN())

	// Some columns only, in the order asked: as the whole rows have them.
	cols, err := s.GatherColumnsWith(batch, []int32{-1, ids[0], -2, ids[1], ids[2], -1}, []int{4, 1})
	require.NoError(t, err)
	require.Len(t, cols, 2)
	for i, c := range []int{4, 1} {
		for r := range 6 {
			require.Equal(t, got.Column(c).ValueStr(r), cols[i].ValueStr(r), "column %d row %d", c, r)
		}
		cols[i].Release()
	}
	cols, err = s.GatherColumnsWith(batch, nil, []int{2})
	require.NoError(t, err)
	require.Len(t, cols, 1)
	require.Equal(t, 0, cols[0].Len())
	require.Equal(t, wideSchema.Field(2).Type, cols[0].DataType())
	cols[0].Release()
}

// Rows asked for in long runs of one chunk (a whole batch kept, a slice
// of one with an offset into its buffers) are copied a run at a time and
// come out as they do value by value.
func TestGatherCopiesRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := New(wideSchema, mem)
	defer s.Release()
	var rows [][]any
	for i := range 40 {
		if i%7 == 3 {
			rows = append(rows, []any{nil, nil, nil, nil, nil})
			continue
		}
		rows = append(rows, []any{fmt.Sprintf("s%d", i), int32(i), float64(i) / 2, i%2 == 0, int8(i)})
	}
	whole := arrowtest.Record(t, mem, wideSchema, rows...)
	all := make([]int32, 40)
	for i := range all {
		all[i] = int32(i)
	}
	first, err := s.Add(whole, all, nil) // kept whole
	require.NoError(t, err)
	part := whole.NewSlice(5, 35)
	second, err := s.Add(part, all[:30], nil) // a slice, kept whole
	require.NoError(t, err)
	part.Release()
	whole.Release()

	// runs: second[2:30], first[10:40], then first[0:5] backwards (runs
	// of one)
	var ids, want []int32
	for i := 2; i < 30; i++ {
		ids, want = append(ids, second[i]), append(want, int32(5+i))
	}
	for i := 10; i < 40; i++ {
		ids, want = append(ids, first[i]), append(want, int32(i))
	}
	for i := 4; i >= 0; i-- {
		ids, want = append(ids, first[i]), append(want, int32(i))
	}
	got, err := s.Gather(ids)
	require.NoError(t, err)
	defer got.Release()
	for r, src := range want {
		for c := 0; c < int(got.NumCols()); c++ {
			v := rows[src][c]
			text := "(null)"
			if v != nil {
				text = fmt.Sprint(v)
			}
			require.Equal(t, text, got.Column(c).ValueStr(r), "row %d column %d", r, c)
		}
	}
}

// RemoveAll leaves a store as removing the same ids one by one does: the
// same rows, the same free ids in the same order (so the same ids for
// the rows added next), the same checkpoint.
func TestRemoveAllIsRemoveInTurn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var stores [2]*Store
	var ids [2][]int32
	for k := range stores {
		stores[k] = New(schema, mem)
		defer stores[k].Release()
		for b := range 5 {
			rec := arrowtest.Record(t, mem, schema, []any{"a", int64(b)}, []any{"b", nil}, []any{"c", int64(-b)})
			var err error
			ids[k], err = stores[k].Add(rec, []int32{0, 1, 2}, ids[k])
			require.NoError(t, err)
			rec.Release()
		}
	}
	// runs in one chunk, a chunk emptied, ids out of order
	gone := []int32{ids[0][0], ids[0][1], ids[0][3], ids[0][4], ids[0][5], ids[0][14], ids[0][2], ids[0][9]}
	for _, id := range gone {
		stores[0].Remove(id)
	}
	stores[1].RemoveAll(gone)
	var saved [2][]byte
	for k, s := range stores {
		require.Equal(t, 15-len(gone), s.Len())
		rec := arrowtest.Record(t, mem, schema, []any{"d", int64(9)})
		next, err := s.Add(rec, []int32{0}, nil)
		require.NoError(t, err)
		rec.Release()
		require.Equal(t, gone[len(gone)-1], next[0])
		var e checkpoint.Encoder
		require.NoError(t, s.Save(&e))
		saved[k] = e.Data()
	}
	require.Equal(t, saved[0], saved[1])
}

// Strings of every length around the word a short one is copied as,
// the last ones ending their buffer, come back whole, in any order.
func TestGatherStringsOfEveryLength(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := New(schema, mem)
	defer s.Release()
	var rows [][]any
	var want []string
	for n := range 20 {
		v := strings.Repeat(string(rune('a'+n)), n)
		rows = append(rows, []any{v, int64(n)})
		want = append(want, fmt.Sprintf("%s %d", v, n))
	}
	rec := arrowtest.Record(t, mem, schema, rows...)
	defer rec.Release()
	refs := make([]int32, len(rows))
	for i := range refs {
		refs[i] = int32(-(len(rows) - i)) // last row first
	}
	got, err := s.GatherWith(rec, refs)
	require.NoError(t, err)
	defer got.Release()
	slices.Reverse(want)
	require.Equal(t, want, rowsOf(got))
}

// AddAll of a batch numbers and keeps its rows as Add of all its rows in
// order does: free ids first, then new ones.
func TestAddAllIsAddOfEveryRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	byAll, byRows := New(schema, mem), New(schema, mem)
	defer byAll.Release()
	defer byRows.Release()
	var idsAll, idsRows []int32
	for b := range 50 {
		rec := arrowtest.Record(t, mem, schema, []any{"a", int64(b)}, []any{"b", nil}, []any{"c", int64(-b)})
		var err error
		idsAll, err = byAll.AddAll(rec, idsAll)
		require.NoError(t, err)
		idsRows, err = byRows.Add(rec, []int32{0, 1, 2}, idsRows)
		require.NoError(t, err)
		rec.Release()
		if b%7 == 3 { // free ids for the next batches
			for _, id := range idsAll[len(idsAll)-2:] {
				byAll.Remove(id)
				byRows.Remove(id)
			}
			idsAll, idsRows = idsAll[:len(idsAll)-2], idsRows[:len(idsRows)-2]
		}
	}
	require.Equal(t, idsRows, idsAll)
	a, err := byAll.Gather(idsAll)
	require.NoError(t, err)
	defer a.Release()
	r, err := byRows.Gather(idsRows)
	require.NoError(t, err)
	defer r.Release()
	require.Equal(t, rowsOf(r), rowsOf(a))
	require.Equal(t, byRows.Len(), byAll.Len())
}

// GatherFrom's allocator holds the gathered columns, the store's own
// allocator the kept rows alone, for a gather of kept rows, of a
// batch's rows, and of none.
func TestGatherFromBuildsColumnsWithTheGivenAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer out.AssertSize(t, 0)
	s := New(wideSchema, mem)
	defer s.Release()
	s.GatherFrom(out)
	kept := arrowtest.Record(t, mem, wideSchema,
		[]any{"kept-a", int32(1), 1.5, true, int8(-1)},
		[]any{nil, int32(2), nil, nil, nil})
	ids, err := s.Add(kept, []int32{0, 1}, nil)
	require.NoError(t, err)
	kept.Release()
	held := mem.CurrentAlloc()
	batch := arrowtest.Record(t, mem, wideSchema, []any{"batch-x", nil, 2.25, nil, int8(7)})
	defer batch.Release()
	for _, refs := range [][]int32{{ids[1], -1, ids[0]}, nil} {
		got, err := s.GatherWith(batch, refs)
		require.NoError(t, err)
		require.EqualValues(t, len(refs), got.NumRows())
		require.NotZero(t, out.CurrentAlloc(), "the gathered columns")
		require.Equal(t, held+int(batchBytes(batch)), mem.CurrentAlloc(), "nothing more from the store's allocator")
		got.Release()
		require.Zero(t, out.CurrentAlloc())
	}
}

// batchBytes is what rec's buffers hold.
func batchBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += int64(b.Cap())
			}
		}
	}
	return n
}
