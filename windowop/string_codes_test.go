package windowop

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// A key of two STRING columns numbers each column's values once: keys
// share the strings, NULL stays apart from the empty string, and the key
// columns come back the same whether built from the keys' values or from
// the dictionary (a column with few values under many keys).
func TestStringKeyDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	str := arrow.BinaryTypes.String
	kt, err := newKeyTable([]arrow.DataType{str, str})
	require.NoError(t, err)
	intern := func(a, b []any) []uint32 {
		x := arrowtest.Array(t, mem, str, a...)
		defer x.Release()
		y := arrowtest.Array(t, mem, str, b...)
		defer y.Release()
		ids := make([]uint32, len(a))
		kt.intern([]arrow.Array{x, y}, len(a), ids)
		return ids
	}
	require.Equal(t, []uint32{0, 1, 2, 0, 3, 4},
		intern([]any{"a", nil, "", "a", "b", "a"}, []any{"d", "d", "d", "d", "d", nil}))
	// many keys over one day: the day's column takes the dictionary
	var chans, days []any
	for i := range 20 {
		chans = append(chans, string(rune('c'+i)))
		days = append(days, "d")
	}
	ids := intern(chans, days)
	require.Equal(t, uint32(5), ids[0], "ids last across batches")
	require.Equal(t, uint32(25), kt.n)

	first, second := kt.cols[0].(*stringKeys), kt.cols[1].(*stringKeys)
	require.Len(t, first.dict.vals, 24, `a, NULL, "", b and c..v`)
	require.Len(t, second.dict.vals, 2, "d and NULL")
	require.Equal(t, []uint32{0, 0, 0, 0, 1}, second.codes[:5])

	want := func(k *stringKeys, keys []uint32) string {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		k.appendTo(keys, b)
		arr := b.NewStringArray()
		defer arr.Release()
		return arr.String()
	}
	keys := []uint32{4, 1, 2, 0, 3, 24, 4, 5}
	for _, k := range []*stringKeys{first, second} {
		arr, ok := k.column(keys, mem)
		require.True(t, ok)
		require.Equal(t, want(k, keys), arr.String())
		arr.Release()
	}
	require.Equal(t, `["a" (null) "" "a" "b" "v" "a" "c"]`, want(first, keys))
	require.Equal(t, `[(null) "d" "d" "d" "d" "d" (null) "d"]`, want(second, keys))
}

// A column with one value under every key is that value repeated.
func TestStringKeyOneValue(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	str := arrow.BinaryTypes.String
	for _, day := range []string{"2015-07-15", ""} {
		kt, err := newKeyTable([]arrow.DataType{str, str})
		require.NoError(t, err)
		x := arrowtest.Array(t, mem, str, "a", "b", "a", "c")
		y := arrowtest.Array(t, mem, str, day, day, day, day)
		ids := make([]uint32, 4)
		kt.intern([]arrow.Array{x, y}, 4, ids)
		x.Release()
		y.Release()
		require.Equal(t, []uint32{0, 1, 0, 2}, ids)
		arr, ok := kt.cols[1].(*stringKeys).column([]uint32{2, 0, 0, 1, 2}, mem)
		require.True(t, ok)
		s := arr.(*array.String)
		require.Equal(t, 5, s.Len())
		require.Zero(t, s.NullN())
		for i := range 5 {
			require.Equal(t, day, s.Value(i))
		}
		arr.Release()
	}
}

// A STRING key's encoding is its length's uvarint then its bytes, short
// or long, so that ("ab", "c") and ("a", "bc") stay two keys.
func TestStringKeyEncoding(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long, longer := strings.Repeat("x", 127), strings.Repeat("y", 300)
	arr := arrowtest.Array(t, mem, arrow.BinaryTypes.String, "", "ab", long, longer, nil)
	defer arr.Release()
	bufs := make([][]byte, 5)
	(&stringKeys{}).encode(arr, bufs)
	for i, v := range []string{"", "ab", long, longer} {
		want := append(binary.AppendUvarint([]byte{1}, uint64(len(v))), v...)
		require.Equal(t, want, bufs[i])
	}
	require.Equal(t, []byte{0}, bufs[4])

	str := arrow.BinaryTypes.String
	kt, err := newKeyTable([]arrow.DataType{str, str})
	require.NoError(t, err)
	x := arrowtest.Array(t, mem, str, "ab", "a", longer, longer)
	defer x.Release()
	y := arrowtest.Array(t, mem, str, "c", "bc", long, long+"y")
	defer y.Release()
	ids := make([]uint32, 4)
	kt.intern([]arrow.Array{x, y}, 4, ids)
	require.Equal(t, []uint32{0, 1, 2, 3}, ids)
}
