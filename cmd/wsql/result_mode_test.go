package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SET 'sql-client.execution.result-mode' in a script whose output is no
// terminal: table prints the materialised rows once, at the end; changelog
// every change in the client's layout; tableau the boxed table of changes.
// Without the setting a pipe gets CSV with the op column, as before, and
// an explicit --format wins over the mode.
func TestResultModesOutsideATerminal(t *testing.T) {
	t.Chdir("../..")
	query := clicksDDL + ` SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr;`
	withMode := func(mode string) string {
		return clicksDDL + ` SET 'sql-client.execution.result-mode' = '` + mode + `'; SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr;`
	}

	code, stdout, stderr := runCLI(t, "", "-e", withMode("table"))
	require.Equal(t, 0, code, stderr)
	require.Equal(t, ""+
		"+-------+------+\n"+
		"| usr   |    n |\n"+
		"+-------+------+\n"+
		"| carol |   15 |\n"+
		"| bob   |   13 |\n"+
		"| alice |   14 |\n"+
		"+-------+------+\n"+
		"3 rows\n", stdout)
	require.Contains(t, stderr, "42 rows read, 0 late rows dropped, 0 bad rows skipped, 81 result rows")

	code, upper, stderr := runCLI(t, "", "-e", withMode("TABLE"))
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, upper)

	code, stdout, stderr = runCLI(t, "", "-e", withMode("changelog"))
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(stdout, "\n")
	require.Equal(t, []string{" op    usr       n", " +I    carol     1", " +I    alice     1", " -U    carol     1", " +U    carol     2"}, lines[:5])
	require.Len(t, lines, 83) // the header, 81 changes and the last newline

	code, stdout, stderr = runCLI(t, "", "-e", withMode("tableau"))
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "+------+-------+------+\n| op   | usr   |    n |\n+------+-------+------+\n| +I   | carol |    1 |\n"), stdout)
	require.True(t, strings.HasSuffix(stdout, "| +U   | alice |   14 |\n+------+-------+------+\n81 rows\n"), stdout)

	code, stdout, stderr = runCLI(t, "", "-e", query)
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "op,usr,n\n+I,carol,1\n+I,alice,1\n-U,carol,1\n"), stdout)

	code, stdout, stderr = runCLI(t, "", "--format", "csv", "-e", withMode("table"))
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "op,usr,n\n+I,carol,1\n"), stdout)

	// Top-N without the rank column: rows leave with -D
	code, stdout, stderr = runCLI(t, "", "-e", clicksDDL+` SET 'sql-client.execution.result-mode' = 'table';
		SELECT usr, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY amount DESC) AS rn FROM clicks) WHERE rn <= 2;`)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, ""+
		"+-------+--------+\n"+
		"| usr   | amount |\n"+
		"+-------+--------+\n"+
		"| alice |   47.9 |\n"+
		"| alice |  48.68 |\n"+
		"| carol |  41.87 |\n"+
		"| bob   |  44.99 |\n"+
		"| carol |  45.72 |\n"+
		"| bob   |  44.06 |\n"+
		"+-------+--------+\n"+
		"6 rows\n", stdout)
	require.Contains(t, stderr, "28 result rows")

	code, _, stderr = runCLI(t, "", "-e", withMode("tabel"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "'sql-client.execution.result-mode' must be 'table', 'changelog' or 'tableau', got 'tabel'")
}
