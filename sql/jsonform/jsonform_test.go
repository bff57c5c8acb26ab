package jsonform

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// toks splits space-separated words: upper-case words are Words, the rest
// Ops or other tokens (strings, numbers).
func toks(s string) []Token {
	var out []Token
	for _, f := range strings.Fields(s) {
		switch {
		case strings.ToUpper(f) == f && f[0] >= 'A' && f[0] <= 'Z':
			out = append(out, Token{Word: f})
		case strings.ContainsAny(f[:1], "(),[]:"):
			out = append(out, Token{Op: f})
		default:
			out = append(out, Token{})
		}
	}
	return out
}

// apply writes the tokens with the edits applied: edited ones by their
// text, others as "x" or their word / operator.
func apply(ts []Token, edits map[int]Edit) string {
	var out []string
	for i := 0; i < len(ts); {
		if e, ok := edits[i]; ok {
			if e.Text != "" {
				out = append(out, e.Text)
			}
			i = e.End
			continue
		}
		switch {
		case ts[i].Word != "":
			out = append(out, ts[i].Word)
		case ts[i].Op != "":
			out = append(out, ts[i].Op)
		default:
			out = append(out, "x")
		}
		i++
	}
	return strings.Join(out, " ")
}

func TestCallEdits(t *testing.T) {
	typeEnd := func(j int) (int, bool) { return j + 1, true }
	for in, want := range map[string]string{
		"JSON_VALUE ( s , p RETURNING INT DEFAULT 0 ON EMPTY NULL ON ERROR )":       "f (7, x , x , x )",
		"JSON_QUERY ( s , p WITH CONDITIONAL ARRAY WRAPPER EMPTY OBJECT ON ERROR )": "f (7, x , x )",
		"JSON_OBJECT ( KEY k VALUE v , k2 : v2 ABSENT ON NULL )":                    "f (7, x , x , x , x )",
		"JSON_ARRAY ( )":                   "f (7 )",
		"JSON_ARRAYAGG ( v NULL ON NULL )": "f (7, x )",
	} {
		ts := toks(in)
		_, edits, err := Call(ts, "f", 7, typeEnd)
		require.Nil(t, err, in)
		require.Equal(t, want, apply(ts, edits), in)
	}
	c, _, _ := Call(toks("JSON_VALUE ( s , p RETURNING INT ERROR ON EMPTY DEFAULT 1 ON ERROR )"), "f", 0, typeEnd)
	require.Equal(t, Clauses{Returning: 6, OnEmpty: "ERROR", OnError: "DEFAULT"}, *c)
	_, _, err := Call(toks("JSON_VALUE ( s , p NULL ON ERROR NULL ON EMPTY )"), "f", 0, typeEnd)
	require.Equal(t, "ON EMPTY must come once, before ON ERROR", err.Msg)
}

func TestIsJSON(t *testing.T) {
	n, c := IsJSON(toks("IS NOT JSON OBJECT"))
	require.Equal(t, 4, n)
	require.Equal(t, Clauses{Returning: -1, Type: "OBJECT", Not: true}, *c)
	n, c = IsJSON(toks("IS JSON AND"))
	require.Equal(t, 2, n)
	require.Equal(t, "VALUE", c.Type)
	n, _ = IsJSON(toks("IS NOT NULL"))
	require.Equal(t, 0, n)
}
