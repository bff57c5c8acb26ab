package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The example's results as `wsql run` prints them in a pipe.
func exampleCSV(t *testing.T) string {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", "run", "testdata/examples/clicks.sql")
	require.Equal(t, 0, code, stderr)
	return stdout
}

// Flags go before or after the other arguments; a lone FILE.sql and
// Flink's -f FILE run the file as `run FILE` does.
func TestFlagsAnywhereAndFileForms(t *testing.T) {
	t.Chdir("../..")
	want := exampleCSV(t)
	for _, args := range [][]string{
		{"run", "testdata/examples/clicks.sql", "--format", "csv"},
		{"testdata/examples/clicks.sql"},
		{"testdata/examples/clicks.sql", "--format=csv"},
		{"--format", "csv", "testdata/examples/clicks.sql"},
		{"-f", "testdata/examples/clicks.sql"},
		{"--file", "testdata/examples/clicks.sql", "--format", "csv"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		require.Equal(t, want, stdout, args)
		require.Contains(t, stderr, "10 result rows", args)
	}
	code, stdout, stderr := runCLI(t, "", "run", "testdata/examples/clicks.sql", "--format", "json")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, `{"usr":"`), stdout)
}

func TestFileFormsUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-e", "SELECT 1", "q.sql"}, `wsql: -e and q.sql: give the SQL one way, -e, -f, run FILE or FILE.sql`},
		{[]string{"-f", "a.sql", "run", "b.sql"}, `wsql: -f a.sql and b.sql: give one file of SQL`},
		{[]string{"a.sql", "b.sql"}, `wsql: unexpected argument "b.sql" after a.sql: run one FILE.sql at a time`},
		{[]string{"run", "a.sql", "b.sql"}, `wsql: run takes exactly one FILE.sql`},
		{[]string{"q.txt"}, `wsql: unknown command "q.txt"`},
		{[]string{"-f"}, `wsql: flag needs an argument: -f`},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		require.Equal(t, 2, code, c.args)
		require.Empty(t, stdout, c.args)
		require.Equal(t, c.want+"\nrun 'wsql --help' for usage\n", stderr, c.args)
	}
}

// -i INIT runs its file first on the same session, then the script given
// by -e, -f, run FILE or stdin, as Flink's SQL client does.
func TestInitFileThenScript(t *testing.T) {
	t.Chdir("../..")
	sql, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	create, query, ok := strings.Cut(string(sql), "\nSELECT ")
	require.True(t, ok)
	query = "SELECT " + query
	dir := t.TempDir()
	initPath := filepath.Join(dir, "init.sql")
	queryPath := filepath.Join(dir, "query.sql")
	require.NoError(t, os.WriteFile(initPath, []byte(create), 0o644))
	require.NoError(t, os.WriteFile(queryPath, []byte(query), 0o644))

	want := exampleCSV(t)
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"-i", initPath, "-e", query}},
		{"", []string{"-f", queryPath, "-i", initPath}},
		{"", []string{"--init", initPath, "run", queryPath}},
		{"", []string{queryPath, "-i", initPath}},
		{query, []string{"-i", initPath}},
	} {
		code, stdout, stderr := runCLI(t, c.stdin, c.args...)
		require.Equal(t, 0, code, "%v: %s", c.args, stderr)
		require.Equal(t, want, stdout, c.args)
	}

	// an error in the init file says so, and the script does not run
	bad := filepath.Join(dir, "bad.sql")
	require.NoError(t, os.WriteFile(bad, []byte("CREATE TABEL t (x INT);"), 0o644))
	code, stdout, stderr := runCLI(t, "", "-i", bad, "-e", query)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "TABEL")
	require.True(t, strings.HasSuffix(stderr, "wsql: the init file "+bad+" failed\n"), stderr)

	code, _, stderr = runCLI(t, "", "-i", filepath.Join(dir, "missing.sql"), "-e", query)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "missing.sql")
}

// The shell's session runs the init file before its first prompt.
func TestShellRunsInitFile(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, func(sh *shell) {
		require.True(t, sh.runInit(t.Context(), initScript{path: "init.sql", text: createClicks}))
	}, script(selectClicks)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "| usr   | wstart ")

	r = runShellLines(t, func(sh *shell) {
		require.False(t, sh.runInit(t.Context(), initScript{path: "init.sql", text: "CREATE TABEL t (x INT);"}))
	})
	require.Contains(t, r.stderr, "wsql: the init file init.sql failed\n")
}
