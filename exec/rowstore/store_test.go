package rowstore

import (
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
