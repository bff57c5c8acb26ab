package nestedfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// encodedElements is the ARRAY<BYTES> and MULTISET<BYTES> ARRAY_AGG and
// COLLECT give over nestedBatch's values held as Keys k, repeat times the
// rows [k0, NULL, k3], NULL, [] and {k0=2, k3=1}, {}; a first row is
// sliced away so offsets are exercised.
func encodedElements(t *testing.T, mem memory.Allocator, repeat int) (list, multiset arrow.Array) {
	rec := nestedBatch(t, mem)
	defer rec.Release()
	keys, err := (&Key{X: &expr.ColumnExpr{Index: 0, Name: "v", Type: nestedType}}).Eval(rec, mem)
	require.NoError(t, err)
	defer keys.Release()
	k := keys.(*array.Binary)

	lb := array.NewListBuilder(mem, arrow.BinaryTypes.Binary)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.BinaryBuilder)
	encType := arrow.MapOfWithMetadata(arrow.BinaryTypes.Binary, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{"wsql.multiset"}, []string{"count"}))
	mb := array.NewMapBuilderWithType(mem, encType)
	defer mb.Release()
	kb, cb := mb.KeyBuilder().(*array.BinaryBuilder), mb.ItemBuilder().(*array.Int32Builder)
	lb.Append(true) // sliced away
	vb.Append(k.Value(4))
	mb.Append(true)
	kb.Append(k.Value(4))
	cb.Append(7)
	for range repeat {
		lb.Append(true)
		vb.Append(k.Value(0))
		vb.AppendNull()
		vb.Append(k.Value(3))
		lb.AppendNull()
		lb.Append(true)
		mb.Append(true)
		kb.Append(k.Value(0))
		cb.Append(2)
		kb.Append(k.Value(3))
		cb.Append(1)
		mb.Append(true)
	}
	l, m := lb.NewArray(), mb.NewArray()
	defer l.Release()
	defer m.Release()
	return array.NewSlice(l, 1, int64(l.Len())), array.NewSlice(m, 1, int64(m.Len()))
}

func decodeElements(t *testing.T, mem memory.Allocator, enc arrow.Array) arrow.Array {
	schema := arrow.NewSchema([]arrow.Field{{Name: "e", Type: enc.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{enc}, int64(enc.Len()))
	defer rec.Release()
	v := &ElementValues{X: &expr.ColumnExpr{Index: 0, Name: "e", Type: enc.DataType()}, Type: DecodedElementsType(enc.DataType(), nestedType)}
	out, err := v.Eval(rec, mem)
	require.NoError(t, err)
	require.True(t, arrow.TypeEqual(v.Type, out.DataType()))
	return out
}

// ElementValues gives back the ROW values ARRAY_AGG and COLLECT held as
// their encodings: NULL elements and lists stay NULL, a multiset keeps its
// counts and its marked type.
func TestElementValuesDecodeHeldValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	list, multiset := encodedElements(t, mem, 1)
	defer list.Release()
	defer multiset.Release()
	row := `{"attrs":[{"key":"x","value":1},{"key":"y","value":2}],"id":1,"tags":["a",null]}`
	empty := `{"attrs":null,"id":null,"tags":[]}`

	vals := decodeElements(t, mem, list)
	defer vals.Release()
	require.Equal(t, 3, vals.Len())
	require.JSONEq(t, "["+row+",null,"+empty+"]", jsonOf(t, vals, 0))
	require.JSONEq(t, "null", jsonOf(t, vals, 1))
	require.JSONEq(t, "[]", jsonOf(t, vals, 2))

	set := decodeElements(t, mem, multiset)
	defer set.Release()
	require.Equal(t, 2, set.Len())
	require.JSONEq(t, `[{"key":`+row+`,"value":2},{"key":`+empty+`,"value":1}]`, jsonOf(t, set, 0))
	require.JSONEq(t, "[]", jsonOf(t, set, 1))
	require.True(t, set.DataType().(*arrow.MapType).ItemField().Metadata.FindKey("wsql.multiset") >= 0)
}

// Decoding allocates per batch, not per row: 100 times the rows cost only
// the builders' buffers growing (about ten buffers, each doubling).
func TestElementValuesAllocatePerBatch(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, pick := range []func(l, m arrow.Array) arrow.Array{
		func(l, _ arrow.Array) arrow.Array { return l },
		func(_, m arrow.Array) arrow.Array { return m },
	} {
		allocs := func(repeat int) float64 {
			l, m := encodedElements(t, mem, repeat)
			defer l.Release()
			defer m.Release()
			enc := pick(l, m)
			return testing.AllocsPerRun(5, func() { decodeElements(t, mem, enc).Release() })
		}
		few, many := allocs(20), allocs(2000)
		require.Less(t, many, 2*few, "%v allocations for 20 rows, %v for 2000", few, many)
	}
}
