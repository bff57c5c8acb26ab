package sql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Flink's forms of a statement set: EXECUTE STATEMENT SET BEGIN ... END,
// EXPLAIN STATEMENT SET BEGIN ... END and the SQL client's BEGIN
// STATEMENT SET; ...; END;.
func TestParseStatementSet(t *testing.T) {
	stmts, err := Parse("SET 'a' = 'b';\nEXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO s1 SELECT a FROM t;\n  INSERT INTO s2 SELECT b FROM t;\nEND;\nSHOW TABLES")
	require.NoError(t, err)
	require.Len(t, stmts, 3)
	set := stmts[1].(*StatementSet)
	require.Len(t, set.Inserts, 2)
	require.Equal(t, "2:1", set.At.String())
	require.Equal(t, "s2", set.Inserts[1].Table.Name)
	require.Equal(t, "5:3", set.Inserts[1].At.String())
	require.Equal(t, "6:1", set.End.String())

	stmts, err = Parse("EXPLAIN STATEMENT SET BEGIN INSERT INTO s1 SELECT a FROM t; END")
	require.NoError(t, err)
	ex := stmts[0].(*Explain)
	require.Len(t, ex.Stmt.(*StatementSet).Inserts, 1)
	stmts, err = Parse("EXPLAIN PLAN FOR EXECUTE STATEMENT SET BEGIN INSERT INTO s1 SELECT a FROM t; END;")
	require.NoError(t, err)
	require.Equal(t, "1:26", stmts[0].(*Explain).Stmt.Pos().String())

	stmts, err = Parse("BEGIN STATEMENT SET; INSERT INTO s1 SELECT a FROM t; end;")
	require.NoError(t, err)
	require.IsType(t, &BeginStatementSet{}, stmts[0])
	require.IsType(t, &Insert{}, stmts[1])
	require.IsType(t, &EndStatementSet{}, stmts[2])
}

func TestParseStatementSetErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO s1 SELECT a FROM t;\n  SELECT 1;\nEND;", "2:3: only INSERT statements are allowed in a statement set, found SELECT"},
		{"EXECUTE STATEMENT SET BEGIN INSERT INTO s1 SELECT a FROM t;", "1:59: expected END; to close the statement set begun at 1:1"},
		{"EXECUTE STATEMENT SET BEGIN END;", "1:29: expected an INSERT statement in the statement set, found END"},
		{"EXECUTE STATEMENT SET INSERT INTO s1 SELECT a FROM t; END;", "1:23: expected BEGIN after STATEMENT SET, found INSERT"},
		{"BEGIN STATEMENT SET x", "1:21: expected the end of the statement, found x"},
	} {
		_, err := Parse(tc.src)
		require.Error(t, err, tc.src)
		require.Equal(t, tc.msg, err.Error(), tc.src)
	}
}
