package nexmarkcheck

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseGoldenMaterialisesTheChangelog(t *testing.T) {
	g := parseGolden(`+I[a, 1]
+I[b, 1]
-U[a, 1]
+U[a, 2]
+I[c, 1]
-D[c, 1]
+I[b, 1]
-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 7 result rows
`)
	require.Equal(t, multiset{"a, 2": 1, "b, 1": 2}, g.rows)
	require.Equal(t, int64(2), g.late)
	require.Empty(t, g.err)
	require.Empty(t, g.broken)
}

func TestParseGoldenErrorAndBrokenChangelog(t *testing.T) {
	g := parseGolden("error: q3.sql:26:24: joins are not supported yet\n    auction AS A INNER JOIN person\n")
	require.Equal(t, "error: q3.sql:26:24: joins are not supported yet", g.err)

	g = parseGolden("+I[a]\n-D[b]\n")
	require.Equal(t, "line 2 retracts a row that is not there: -D[b]", g.broken)
}

func TestDiffNamesTheRowsOfEachSide(t *testing.T) {
	require.Empty(t, diff(multiset{"a": 2}, multiset{"a": 2}, 10))
	require.Equal(t, `3 rows only in the golden:
  [a] (2 times)
  [b]
1 rows only in DuckDB's result:
  [c]
`, diff(multiset{"a": 3, "b": 1}, multiset{"a": 1, "c": 1}, 10))
}
