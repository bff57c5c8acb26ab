package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const separatedScript = `CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2', 'rows-per-second' = '0', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '2');
SELECT k FROM g;
SELECT k AS none FROM g WHERE k > 5;
EXPLAIN SELECT k FROM g;
SHOW TABLES;
`

// The results of a script's statements in table format are separated by
// a blank line, as psql's are, each table with its header, an empty one
// too; CSV keeps each result's header row and adds no blank line.
func TestTableResultsAreSeparated(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "--format", "table", "-e", separatedScript)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `+------+
|    k |
+------+
|    1 |
|    2 |
+------+
2 rows

+------+
| none |
+------+
0 rows

Project(k)
+- TableSourceScan(table=[g], connector=[datagen], number-of-rows=[2], rows-per-second=[0], seed=[0], sequence=[k=1..2], splits=[1], fields=[k])

+------------+
| table name |
+------------+
| g          |
+------------+
1 row
`, stdout)

	// -i's results and the script's are one run's outputs
	init := filepath.Join(t.TempDir(), "init.sql")
	require.NoError(t, os.WriteFile(init, []byte("SHOW TABLES;"), 0o644))
	code, stdout, stderr = runCLI(t, "", "--format", "table", "-i", init, "-e", "SHOW TABLES;")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "+------------+\n| table name |\n+------------+\n0 rows\n\n+------------+\n| table name |\n+------------+\n0 rows\n", stdout)

	code, stdout, stderr = runCLI(t, "", "--format", "csv", "-e", separatedScript)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "k\n1\n2\nnone\nProject(k)\n+- TableSourceScan(table=[g], connector=[datagen], number-of-rows=[2], rows-per-second=[0], seed=[0], sequence=[k=1..2], splits=[1], fields=[k])\ntable name\ng\n", stdout)
}

// In the shell, the statements of one line print their tables apart, as
// a script's; a line's first table follows the prompt directly.
func TestShellTablesOfOneLineAreSeparated(t *testing.T) {
	r := runShellLines(t, nil, "SHOW TABLES; SHOW TABLES;", "SHOW TABLES;")
	require.Equal(t, 0, r.code, r.stderr)
	empty := "+------------+\n| table name |\n+------------+\n0 rows\n"
	require.Equal(t, empty+"\n"+empty+empty, r.stdout)

	r = runShellLines(t, func(s *shell) { s.format = "csv" }, "SHOW TABLES; SHOW TABLES;")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "table name\ntable name\n", r.stdout)
}
