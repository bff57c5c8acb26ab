package sql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// setShape writes a lifted set operation as its operators and queries'
// positions, nested as grouped.
func setShape(s *Select) string {
	if s.Set == nil {
		return s.At.String()
	}
	out := s.Set.Kind.String() + "("
	for i, q := range s.Set.Queries {
		if i > 0 {
			out += ", "
		}
		out += setShape(q)
	}
	return out + ")"
}

// INTERSECT and EXCEPT, with and without ALL, lift as set operations of
// two queries each, left to right, parentheses grouping; INTERSECT after
// another operator needs them (it binds tighter).
func TestIntersectExceptLift(t *testing.T) {
	for src, want := range map[string]string{
		"SELECT a FROM t INTERSECT SELECT b FROM u":                              "INTERSECT(1:1, 1:27)",
		"SELECT a FROM t INTERSECT ALL SELECT b FROM u":                          "INTERSECT ALL(1:1, 1:31)",
		"SELECT a FROM t EXCEPT SELECT b FROM u EXCEPT ALL SELECT c FROM v":      "EXCEPT ALL(EXCEPT(1:1, 1:24), 1:51)",
		"SELECT a FROM t INTERSECT SELECT b FROM u UNION SELECT c FROM v":        "UNION(INTERSECT(1:1, 1:27), 1:49)",
		"SELECT a FROM t EXCEPT (SELECT b FROM u INTERSECT SELECT c FROM v)":     "EXCEPT(1:1, INTERSECT(1:25, 1:51))",
		"SELECT a FROM t INTERSECT SELECT b FROM u INTERSECT SELECT c FROM v":    "INTERSECT(INTERSECT(1:1, 1:27), 1:53)",
		"SELECT a FROM t UNION ALL SELECT b FROM u UNION ALL SELECT c FROM v":    "UNION ALL(1:1, 1:27, 1:53)",
		"SELECT * FROM (SELECT a FROM t EXCEPT ALL SELECT b FROM u) WHERE a > 1": "1:1",
	} {
		stmts, err := Parse(src)
		require.NoError(t, err, src)
		require.Equal(t, want, setShape(stmts[0].(*Select)), src)
	}
	_, err := Parse("SELECT a FROM t EXCEPT SELECT b FROM u INTERSECT SELECT c FROM v")
	require.ErrorContains(t, err, "1:40: INTERSECT after EXCEPT needs parentheses")
}
