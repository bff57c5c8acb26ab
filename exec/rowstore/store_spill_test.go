package rowstore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// spillSchema has a column of every kind of layout a store spills.
var spillSchema = arrow.NewSchema([]arrow.Field{
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 20, Scale: 2}, Nullable: true},
	{Name: "null", Type: arrow.Null, Nullable: true},
	{Name: "row", Type: arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "z", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	), Nullable: true},
}, nil)

// spillBatch is n rows of spillSchema numbered from first, some NULL, the
// strings of many lengths.
func spillBatch(mem memory.Allocator, first, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, spillSchema)
	defer b.Release()
	for i := first; i < first+n; i++ {
		null := i%7 == 3
		for c, f := range b.Fields() {
			if null && c != 12 {
				f.AppendNull()
				continue
			}
			switch f := f.(type) {
			case *array.StringBuilder:
				f.Append(fmt.Sprintf("s%d-%s", i, string(make([]byte, i%23))))
			case *array.BinaryBuilder:
				f.Append([]byte{byte(i), byte(i >> 8)})
			case *array.Int8Builder:
				f.Append(int8(i))
			case *array.Int16Builder:
				f.Append(int16(i))
			case *array.Int32Builder:
				f.Append(int32(i))
			case *array.Int64Builder:
				f.Append(int64(i) * 1000003)
			case *array.Float64Builder:
				f.Append(float64(i) / 3)
			case *array.BooleanBuilder:
				f.Append(i%3 == 0)
			case *array.TimestampBuilder:
				f.Append(arrow.Timestamp(i * 1000))
			case *array.Date32Builder:
				f.Append(arrow.Date32(i))
			case *array.Decimal128Builder:
				f.Append(decimal128.FromI64(int64(i) * 7))
			case *array.NullBuilder:
				f.AppendNull()
			case *array.StructBuilder:
				if i%5 == 1 {
					f.AppendNull()
					continue
				}
				f.Append(true)
				f.FieldBuilder(0).(*array.StringBuilder).Append(fmt.Sprint("x", i))
				if i%4 == 0 {
					f.FieldBuilder(1).(*array.Int64Builder).AppendNull()
				} else {
					f.FieldBuilder(1).(*array.Int64Builder).Append(int64(-i))
				}
				f.FieldBuilder(2).(*array.BooleanBuilder).Append(i%2 == 0)
			}
		}
	}
	return b.NewRecordBatch()
}

// fillStores adds the same batches to each store: some whole (kept as
// they are, one a slice with an offset), some as a take of some rows.
func fillStores(t *testing.T, mem memory.Allocator, stores ...*Store) [][]int32 {
	ids := make([][]int32, len(stores))
	for b := range 40 {
		rec := spillBatch(mem, b*100, 100)
		var rows []int32
		switch b % 3 {
		case 0: // whole
		case 1: // a slice, whole
			sl := rec.NewSlice(3, 90)
			rec.Release()
			rec = sl
		default:
			for r := int32(0); r < 100; r += 3 {
				rows = append(rows, r)
			}
		}
		if rows == nil {
			for r := range int32(rec.NumRows()) {
				rows = append(rows, r)
			}
		}
		for i, s := range stores {
			var err error
			ids[i], err = s.Add(rec, rows, ids[i])
			require.NoError(t, err)
		}
		rec.Release()
	}
	return ids
}

func requireSameRows(t *testing.T, want, got arrow.RecordBatch) {
	t.Helper()
	defer want.Release()
	defer got.Release()
	require.Equal(t, want.NumRows(), got.NumRows())
	for c := range want.NumCols() {
		require.Truef(t, array.Equal(want.Column(int(c)), got.Column(int(c))), "column %s:\n%v\n%v", want.ColumnName(int(c)), want.Column(int(c)), got.Column(int(c)))
	}
}

// Rows spilled come back as they went, of every type, alone or mixed with
// rows in memory and rows of a batch, in any order, whole or a column at a
// time; after removals and a compaction; after a save and a load.
func TestSpilledRowsComeBack(t *testing.T) {
	for _, limit := range []int64{1, 60_000} { // everything spilled; some
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			budget := NewBudget(limit, t.TempDir())
			defer func() { require.NoError(t, budget.Close()) }()
			plain, spilling := New(spillSchema, mem), New(spillSchema, mem)
			require.NoError(t, spilling.SpillTo(budget))
			ids := fillStores(t, mem, plain, spilling)
			require.Equal(t, ids[0], ids[1])
			require.Positive(t, spilling.Spilled())
			if limit > 1 {
				require.Less(t, spilling.Spilled(), len(spilling.chunks))
			}
			require.Positive(t, budget.SpilledBytes())
			require.LessOrEqual(t, budget.InMemory(), limit)

			rng := rand.New(rand.NewPCG(1, 2))
			batch := spillBatch(mem, 5000, 10)
			defer batch.Release()
			check := func() {
				all := []int32{}
				for id := range int32(plain.where.len()) {
					if plain.Holds(id) {
						all = append(all, id)
					}
				}
				for range 20 {
					refs := make([]int32, 1+rng.IntN(300))
					for i := range refs {
						if rng.IntN(10) == 0 {
							refs[i] = -int32(rng.IntN(10)) - 1
						} else {
							refs[i] = all[rng.IntN(len(all))]
						}
					}
					a, err := plain.GatherWith(batch, refs)
					require.NoError(t, err)
					b, err := spilling.GatherWith(batch, refs)
					require.NoError(t, err)
					requireSameRows(t, a, b)
					which := []int{12, 0}
					ac, err := plain.GatherColumnsWith(batch, refs, which)
					require.NoError(t, err)
					bc, err := spilling.GatherColumnsWith(batch, refs, which)
					require.NoError(t, err)
					for i := range which {
						require.True(t, array.Equal(ac[i], bc[i]))
						ac[i].Release()
						bc[i].Release()
					}
				}
				// a run of every row in order (the gather by runs)
				a, err := plain.Gather(all)
				require.NoError(t, err)
				b, err := spilling.Gather(all)
				require.NoError(t, err)
				requireSameRows(t, a, b)
			}
			check()

			for i, id := range ids[0] {
				if i%5 != 0 {
					plain.Remove(id)
					spilling.Remove(id)
				}
			}
			require.NoError(t, plain.Compact())
			require.NoError(t, spilling.Compact())
			check()

			var e checkpoint.Encoder
			require.NoError(t, spilling.Save(&e))
			loaded := New(spillSchema, mem)
			require.NoError(t, loaded.SpillTo(budget))
			d := checkpoint.NewDecoder(e.Data())
			require.NoError(t, loaded.Load(d))
			require.NoError(t, d.Finish())
			spilling.Release()
			spilling = loaded
			check()
			plain.Release()
			spilling.Release()
			require.Zero(t, budget.InMemory())
		})
	}
}

// The spill file is never seen in its directory (removed as soon as it is
// made) and is closed when the store is released, or when the budget is
// closed after a run that stopped without releasing it.
func TestSpillFileGoes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	budget := NewBudget(1, dir)
	s := New(spillSchema, mem)
	require.NoError(t, s.SpillTo(budget))
	fillStores(t, mem, s)
	require.NotNil(t, s.file)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)
	f := s.file
	s.Release()
	require.Nil(t, f.f)
	require.Empty(t, budget.files)

	s = New(spillSchema, mem)
	require.NoError(t, s.SpillTo(budget))
	fillStores(t, mem, s)
	f = s.file
	require.NoError(t, budget.Close()) // the run failed: its operators not released
	require.Nil(t, f.f)
	s.Release()

	// a spill that cannot write fails the Add
	bad := NewBudget(1, filepath.Join(dir, "missing"))
	s = New(spillSchema, mem)
	require.NoError(t, s.SpillTo(bad))
	rec := spillBatch(mem, 0, 10)
	_, err = s.Add(rec, []int32{0, 1}, nil)
	rec.Release()
	require.ErrorContains(t, err, "state spill file")
	s.Release()
	require.NoError(t, bad.Close())
}

// Chunks that go whole leave their bytes in the spill file until a
// Compact writes the rows still kept to a new file.
func TestCompactRewritesADeadSpillFile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer func(n int64) { minDeadBytes = n }(minDeadBytes)
	minDeadBytes = 0
	budget := NewBudget(1, t.TempDir())
	defer budget.Close()
	plain, s := New(spillSchema, mem), New(spillSchema, mem)
	require.NoError(t, s.SpillTo(budget))
	ids := fillStores(t, mem, plain, s)[0]
	size := s.file.size
	// every row but the last batch's: whole chunks go
	last := ids[len(ids)-1]
	var kept []int32
	for _, id := range ids {
		if s.where.at(id).chunk == s.where.at(last).chunk {
			kept = append(kept, id)
			continue
		}
		plain.Remove(id)
		s.Remove(id)
	}
	require.Equal(t, s.held, s.kept) // nothing for the rows' Compact
	old := s.file
	require.NoError(t, s.Compact())
	require.Nil(t, old.f)
	require.Less(t, s.file.size, size/4)
	a, err := plain.Gather(kept)
	require.NoError(t, err)
	b, err := s.Gather(kept)
	require.NoError(t, err)
	requireSameRows(t, a, b)
	plain.Release()
	s.Release()
}
