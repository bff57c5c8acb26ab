package sql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLexTokens(t *testing.T) {
	src := "SELECT `a``b`, 'it''s', 1.5e3, .5 -- note\n/* multi\nline */ x<>y || z;"
	toks, err := lex(newSource(src))
	require.Nil(t, err)
	type tk struct {
		kind      tokenKind
		text      string
		line, col int
	}
	var got []tk
	for _, x := range toks {
		got = append(got, tk{x.kind, x.text, x.pos.Line, x.pos.Col})
		require.Equal(t, src[x.off:x.end], x.text)
	}
	require.Equal(t, []tk{
		{tokIdent, "SELECT", 1, 1},
		{tokQuotedIdent, "`a``b`", 1, 8},
		{tokOp, ",", 1, 14},
		{tokString, "'it''s'", 1, 16},
		{tokOp, ",", 1, 23},
		{tokNumber, "1.5e3", 1, 25},
		{tokOp, ",", 1, 30},
		{tokNumber, ".5", 1, 32},
		{tokIdent, "x", 3, 9},
		{tokOp, "<>", 3, 10},
		{tokIdent, "y", 3, 12},
		{tokOp, "||", 3, 14},
		{tokIdent, "z", 3, 17},
		{tokOp, ";", 3, 18},
	}, got)
	require.Equal(t, "a`b", toks[1].value())
	require.Equal(t, "it's", toks[3].value())
}

func TestLexColumnsCountRunes(t *testing.T) {
	toks, err := lex(newSource("'héllo' wörld\n  ünï x"))
	require.Nil(t, err)
	require.Equal(t, Pos{Offset: 9, Line: 1, Col: 9}, toks[1].pos)
	require.Equal(t, Pos{Offset: 18, Line: 2, Col: 3}, toks[2].pos)
	require.Equal(t, Pos{Offset: 24, Line: 2, Col: 7}, toks[3].pos)
	require.Equal(t, Pos{Offset: 25, Line: 2, Col: 8}, toks[3].endAt)
}

func TestLexStringsAndCommentsAreOpaque(t *testing.T) {
	toks, err := lex(newSource("'TUMBLE(; -- /*' /* TUMBLE( ; ' */ -- ; '\nx"))
	require.Nil(t, err)
	require.Len(t, toks, 2)
	require.Equal(t, tokString, toks[0].kind)
	require.Equal(t, "x", toks[1].text)
}

func TestLexErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"SELECT 'abc", "1:8: string is not closed: missing '"},
		{"SELECT\n  `abc", "2:3: quoted name is not closed: missing `"},
		{"a /* x", "1:3: comment is not closed: missing */"},
		{`SELECT "x"`, "1:8: double quotes are not allowed: write strings in 'single quotes' and names in `back-quotes`"},
		{"SELECT a # comment", "1:10: unexpected character '#'"},
		{"x ``", "1:3: empty quoted name"},
	} {
		_, err := lex(newSource(tc.src))
		require.NotNil(t, err, tc.src)
		require.Equal(t, tc.msg, err.Error(), tc.src)
		require.ErrorIs(t, err, ErrSyntax)
	}
}

func TestLexInvalidUTF8(t *testing.T) {
	_, err := lex(newSource("SELECT 'é\x8d'"))
	require.NotNil(t, err)
	require.Equal(t, "1:10: the text is not valid UTF-8", err.Error())
}
