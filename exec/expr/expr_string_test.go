package expr

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestStringFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, "Hello", "grüße", "", nil), arrowtest.Array(t, mem, str, "!", "?", "x", "y"))
	defer rec.Release()
	s, t2 := col(rec, 0), col(rec, 1)
	require.Equal(t, []string{"HELLO", "GRÜßE", "", "NULL"}, texts(t, mem, &StringFunc{Name: "UPPER", Args: []Expr{s}}, rec))
	require.Equal(t, []string{"hello", "grüße", "", "NULL"}, texts(t, mem, &StringFunc{Name: "LOWER", Args: []Expr{s}}, rec))
	require.Equal(t, []string{"5", "5", "0", "NULL"}, texts(t, mem, &StringFunc{Name: "CHAR_LENGTH", Args: []Expr{s}}, rec))
	require.Equal(t, []string{"Hello!", "grüße?", "x", "NULL"}, texts(t, mem, &StringFunc{Name: "CONCAT", Args: []Expr{s, t2}}, rec))
	require.Equal(t, []string{"He(l)(l)o", "grüße", "", "NULL"},
		texts(t, mem, &StringFunc{Name: "REPLACE", Args: []Expr{s, lit(str, "l"), lit(str, "(l)")}}, rec))
	require.Equal(t, []string{"ell", "rüß", "", "NULL"},
		texts(t, mem, &StringFunc{Name: "SUBSTRING", Args: []Expr{s, lit(i64, 2), lit(i64, 3)}}, rec))
}

func TestSubstring(t *testing.T) {
	for _, c := range []struct {
		start, length int64
		want          string
	}{
		{1, -1, "abcdef"}, {0, -1, "abcdef"}, {3, -1, "cdef"}, {3, 2, "cd"}, {6, 5, "f"}, {7, 1, ""},
		{-2, -1, "ef"}, {-2, 1, "e"}, {-10, 2, "ab"}, {2, 0, ""},
	} {
		require.Equal(t, c.want, substring("abcdef", c.start, c.length), "%d, %d", c.start, c.length)
	}
	require.Equal(t, "üß", substring("grüße", 3, 2))
	// a length past the int64 range from start is "to the end", found by FuzzQuery
	require.Equal(t, "ef", substring("abcdef", 5, math.MaxInt64))
	require.Equal(t, "ße", substring("grüße", 4, math.MaxInt64))
	require.Equal(t, "", substring("abcdef", math.MaxInt64, math.MaxInt64))
	require.Equal(t, "-a-b-", string(appendReplace(nil, "ab", "", "-")))
}

func TestTrim(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, "  a b  ", "xyaxy", nil))
	defer rec.Release()
	s := col(rec, 0)
	require.Equal(t, []string{"a b", "xyaxy", "NULL"}, texts(t, mem, &Trim{X: s, Chars: " ", Leading: true, Trailing: true}, rec))
	require.Equal(t, []string{"a b  ", "xyaxy", "NULL"}, texts(t, mem, &Trim{X: s, Chars: " ", Leading: true}, rec))
	// the characters are a set, as in Flink
	require.Equal(t, []string{"  a b  ", "a", "NULL"}, texts(t, mem, &Trim{X: s, Chars: "yx", Leading: true, Trailing: true}, rec))
	require.Equal(t, []string{"  a b  ", "xya", "NULL"}, texts(t, mem, &Trim{X: s, Chars: "yx", Trailing: true}, rec))
}
