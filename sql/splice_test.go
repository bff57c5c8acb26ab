package sql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSpliceMapToOrig(t *testing.T) {
	// "ab INTERVAL '5' SECOND" -> "ab __wsql_interval(0)"
	var m spliceMap
	m.add(splice{origStart: 0, origEnd: 2, rewStart: 0, rewEnd: 2})
	m.add(splice{origStart: 5, origEnd: 24, rewStart: 3, rewEnd: 21})
	require.Equal(t, 0, m.toOrig(0))
	require.Equal(t, 1, m.toOrig(1))  // inside a copied token: exact
	require.Equal(t, 5, m.toOrig(2))  // glue: the next original token
	require.Equal(t, 5, m.toOrig(3))  // start of a replacement
	require.Equal(t, 5, m.toOrig(10)) // inside a replacement: its start
	require.Equal(t, 24, m.toOrig(21))
	require.Equal(t, 24, m.toOrig(99)) // past the end
}

func TestRewriteRecordsEverySplice(t *testing.T) {
	src := newSource("SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE), CAST(x AS STRING), key\n FROM t GROUP BY SESSION(ts, INTERVAL '5' SECOND)")
	toks, err := lex(src)
	require.Nil(t, err)
	rw, err := rewrite(src, toks, "")
	require.Nil(t, err)
	require.Equal(t, "SELECT __wsql_tumble_start(ts, __wsql_interval(0)), __wsql_cast(x , 0), `key` FROM t GROUP BY __wsql_session(ts, __wsql_interval(1))", rw.text)
	require.Len(t, rw.intervals, 2)
	require.Equal(t, int64(60_000), rw.intervals[0].Millis)
	require.Equal(t, "STRING", rw.casts[0].Name)
	// Every rewritten token start maps to the original token start.
	for _, word := range []string{"__wsql_session", "FROM", "`key`", "__wsql_interval(1)"} {
		k := strings.Index(rw.text, word)
		orig := src.pos(rw.splices.toOrig(k))
		require.True(t, orig.IsValid())
		want := map[string]string{"__wsql_session": "SESSION(", "FROM": "FROM", "`key`": "key", "__wsql_interval(1)": "INTERVAL '5'"}[word]
		require.True(t, strings.HasPrefix(src.text[orig.Offset:], want), word)
	}
	require.Equal(t, Pos{Offset: strings.Index(src.text, "FROM"), Line: 2, Col: 2}, src.pos(rw.splices.toOrig(strings.Index(rw.text, "FROM"))))
}

func TestNearOffset(t *testing.T) {
	text := "SELECT a FORM clicks"
	require.Equal(t, 14, nearOffset(`line 1 column 20 near "clicks" `, text))
	require.Equal(t, len(text), nearOffset(`line 1 column 20 near "" `, text))
	require.Equal(t, -1, nearOffset("something else", text))

	// TiDB cuts the quoted rest at 2048 bytes and appends the full length.
	long := "SELECT a FORM x" + strings.Repeat(" ", 3000) + "y"
	_, off, err := tidbParse(long)
	require.Error(t, err)
	require.Equal(t, strings.Index(long, "x"), off)

	// A quote inside the rest does not confuse the search.
	text = `SELECT a FORM 'q" ' x`
	_, off, err = tidbParse(text)
	require.Error(t, err)
	require.Equal(t, strings.Index(text, "'"), off)
}
