package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// parseError returns the single positioned error of parsing src.
func parseError(t *testing.T, src string) *Error {
	t.Helper()
	_, err := Parse(src)
	require.Error(t, err)
	var list ErrorList
	require.True(t, errors.As(err, &list), "%v", err)
	require.Len(t, list, 1)
	return list[0]
}

// Nesting deeper than MaxNesting is refused with the position of the
// construct that passes it: parentheses before TiDB parses them, chains
// without parentheses (a + 1 + 1 ..., NOT NOT ...) while lifting. Up to
// the limit, nesting works.
func TestNestingLimit(t *testing.T) {
	const prefix = "SELECT "
	deep := func(n int, open, leaf, close string) string {
		return prefix + strings.Repeat(open, n) + leaf + strings.Repeat(close, n) + " FROM t"
	}

	ok := deep(MaxNesting-2, "ABS(", "v", ")")
	stmts, err := Parse(ok)
	require.NoError(t, err)
	require.Len(t, stmts, 1)

	for _, c := range []struct {
		name, src string
		col       int
		msg       string
	}{
		// the 1001st "(" of ABS( is at 7 + 1000*4 + 4
		{"functions", deep(100_000, "ABS(", "v", ")"), len(prefix) + MaxNesting*4 + 4, "parentheses nested more than 1000 levels deep"},
		{"parentheses", deep(MaxNesting+1, "(", "v", ")"), len(prefix) + MaxNesting + 1, "parentheses nested more than 1000 levels deep"},
		{"a chain", prefix + "v" + strings.Repeat(" + 1", 100_000) + " FROM t", len(prefix) + 1, "expressions nested more than 1000 levels deep"},
		{"NOT", deep(MaxNesting+1, "NOT ", "b", ""), len(prefix) + 4*MaxNesting + 1, "expressions nested more than 1000 levels deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := parseError(t, c.src)
			require.ErrorIs(t, e, ErrUnsupported)
			require.Contains(t, e.Msg, c.msg)
			require.Contains(t, e.Msg, "split the expression")
			require.Equal(t, 1, e.Pos.Line)
			require.Equal(t, c.col, e.Pos.Col, e.Error())
		})
	}

	_, err = ParseExpr(strings.Repeat("(", MaxNesting+1) + "1" + strings.Repeat(")", MaxNesting+1))
	require.ErrorContains(t, err, "1:1001: parentheses nested more than 1000 levels deep")
}

// A column position on a long line costs no rescan of the line: the
// position of every token of a 100,000-item IN list comes from the index
// of runes, and agrees with counting them.
func TestPositionsOnALongLine(t *testing.T) {
	text := "SELECT 'é', " + strings.Repeat("'ü' , ", 1000) + "x"
	s := newSource(text)
	for off := 0; off <= len(text); off++ {
		want := len([]rune(text[:off])) + 1
		if off < len(text) && !isRuneStart(text[off]) {
			continue
		}
		require.Equal(t, want, s.pos(off).Col, "offset %d", off)
	}
	two := newSource("ab\ncdé\nf")
	require.Equal(t, Pos{Offset: 8, Line: 3, Col: 1}, two.pos(8))
	require.Equal(t, Pos{Offset: 7, Line: 2, Col: 4}, two.pos(7))
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// A misspelled word far longer than any candidate gets no suggestion, and
// finding that out does no edit-distance work: no allocation at all, where
// a distance table over a million-character word took minutes.
func TestSuggestionSkipsLongWords(t *testing.T) {
	long := "SELCT" + strings.Repeat("x", 1<<20)
	require.Equal(t, "", DidYouMean(long, typoKeywords))
	require.Zero(t, testing.AllocsPerRun(3, func() { DidYouMean(long, typoKeywords) }))
	require.Equal(t, "; did you mean SELECT?", DidYouMean("SELCT", typoKeywords))

	e := parseError(t, long+" FROM t")
	require.ErrorIs(t, e, ErrSyntax)
	require.NotContains(t, e.Msg, "did you mean")
}
