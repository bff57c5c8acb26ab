package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A CREATE TABLE with a misspelled WITH key fails as it is typed, at the
// key, and the table is not created; the query that would have read it
// says so, not the option.
func TestShellBadCreateTableFailsAtOnce(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil,
		"CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)",
		"WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv', 'csv.ignore-parse-error' = 'true');",
		`\d`)
	require.Equal(t, 0, r.code)
	require.Equal(t, "error: 2:94: unsupported option 'csv.ignore-parse-error' for connector 'filesystem'; did you mean csv.ignore-parse-errors?\n"+
		"...data/examples/clicks.csv', 'format' = 'csv', 'csv.ignore-parse-error' = 'true');\n"+ // a long line shows a window
		"                                                ^\n", r.stderr)
	require.Equal(t, "no tables yet: create one with CREATE TABLE\n", r.stdout)
}

// A table whose file does not exist is created (the file may come later);
// a query of it, typed later, fails before printing anything, naming the
// table and the path, with the caret in the CREATE TABLE typed before, not
// under the query.
func TestShellMissingFileShowsTheCreateTable(t *testing.T) {
	t.Chdir(t.TempDir())
	create := []string{
		"CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)",
		"WITH ('connector' = 'filesystem', 'path' = 'data/clicks.csv', 'format' = 'csv');",
	}
	query := "SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);"
	r := runShellLines(t, nil, append(create, query)...)
	require.Equal(t, 0, r.code)
	require.Empty(t, r.stdout, "no header")
	require.Equal(t, "error: 2:35 of CREATE TABLE clicks: table clicks: path 'data/clicks.csv' (relative to the working directory) does not exist\n"+
		create[1]+"\n"+
		"                                  ^\n", r.stderr)

	// created since, the file is read
	require.NoError(t, os.Mkdir("data", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("data", "clicks.csv"), []byte("2024-05-01 10:00:01,ann\n"), 0o644))
	r = runShellLines(t, nil, append(create, `\format csv`, query)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "Format is csv.\nusr,EXPR$1\nann,1\n", r.stdout)
}

// wsql run: a missing data file is an error before any output, so stdout
// holds no CSV header, and it names the file of SQL, the table and path.
func TestRunMissingDataFileWritesNoHeader(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	script := "CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)\n" +
		"WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');\n" +
		"SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);\n"
	require.NoError(t, os.WriteFile("q.sql", []byte(script), 0o644))
	for _, format := range []string{"csv", "table", "json"} {
		code, stdout, stderr := runCLI(t, "", "run", "q.sql", "--format", format)
		require.Equal(t, 1, code)
		require.Empty(t, stdout, format)
		require.Equal(t, "error: q.sql:2:35: table clicks: path 'clicks.csv' (relative to the working directory) does not exist\n"+
			"WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');\n"+
			"                                  ^\n", stderr, "no summary either")
	}
}
