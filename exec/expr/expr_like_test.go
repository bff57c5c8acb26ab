package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestLike(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, "abc", "aXc", "ac", "a_c", "a%c", "", "äbc", "ABC", nil))
	defer rec.Release()
	x := col(rec, 0)
	cases := []struct {
		pattern string
		escape  rune
		want    []string
	}{
		{"abc", -1, []string{"true", "false", "false", "false", "false", "false", "false", "false", "NULL"}},
		{"a_c", -1, []string{"true", "true", "false", "true", "true", "false", "false", "false", "NULL"}},
		{"_bc", -1, []string{"true", "false", "false", "false", "false", "false", "true", "false", "NULL"}},
		{"a%", -1, []string{"true", "true", "true", "true", "true", "false", "false", "false", "NULL"}},
		{"%c", -1, []string{"true", "true", "true", "true", "true", "false", "true", "false", "NULL"}},
		{"%", -1, []string{"true", "true", "true", "true", "true", "true", "true", "true", "NULL"}},
		{"%b%", -1, []string{"true", "false", "false", "false", "false", "false", "true", "false", "NULL"}},
		{"a%%c", -1, []string{"true", "true", "true", "true", "true", "false", "false", "false", "NULL"}},
		{"a_%c", -1, []string{"true", "true", "false", "true", "true", "false", "false", "false", "NULL"}},
		{`a\_c`, '\\', []string{"false", "false", "false", "true", "false", "false", "false", "false", "NULL"}},
		{"a!%c", '!', []string{"false", "false", "false", "false", "true", "false", "false", "false", "NULL"}},
		{"%!%%", '!', []string{"false", "false", "false", "false", "true", "false", "false", "false", "NULL"}},
	}
	for _, c := range cases {
		lk, err := NewLike(x, c.pattern, c.escape)
		require.NoError(t, err)
		require.Equal(t, c.want, texts(t, mem, lk, rec), c.pattern)
	}
	_, err := NewLike(x, `a\bc`, '\\')
	require.ErrorContains(t, err, "invalid escape sequence")
	_, err = NewLike(x, `abc\`, '\\')
	require.ErrorContains(t, err, "ends with the escape character")
}
