package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// The README's first command: the example prints its windows as CSV on
// stdout (not a terminal here) and the summary, with the late rows, on stderr.
func TestRunExampleFile(t *testing.T) {
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "", "run", "testdata/examples/clicks.sql")
	require.Equal(t, 0, code, stderr)
	golden, err := os.ReadFile("testdata/examples/clicks.out")
	require.NoError(t, err)
	// the golden ends with the summary line the e2e test renders; stdout holds only results
	wantRows := strings.SplitAfter(string(golden), "\n")
	require.Equal(t, strings.Join(wantRows[:len(wantRows)-2], ""), stdout)
	require.Regexp(t, `^wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 10 result rows in \S+\n$`, stderr)
}

func TestFlagsAfterRunAndTableFormat(t *testing.T) {
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "", "run", "--format", "table", "testdata/examples/clicks.sql")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "| usr   | wstart                  |")
	require.Contains(t, stdout, "10 rows")
}

func TestExecStringAndStdin(t *testing.T) {
	t.Chdir("../..")
	sql, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	code, fromE, stderr := runCLI(t, "", "-e", string(sql))
	require.Equal(t, 0, code, stderr)
	code, fromStdin, stderr := runCLI(t, string(sql))
	require.Equal(t, 0, code, stderr)
	require.Equal(t, fromE, fromStdin)
	require.True(t, strings.HasPrefix(fromE, "usr,wstart,wend,n,total\n"))
}

func TestSQLErrorGoesToStderrWithCaret(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "-e", "SELECT usr\nFORM clicks;")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "error: 2:1: ")
	require.Contains(t, stderr, "\nFORM clicks;\n^")
}

func TestUsageErrors(t *testing.T) {
	code, _, stderr := runCLI(t, "", "--format", "xml", "-e", "SELECT 1")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown format "xml"`)
	code, _, stderr = runCLI(t, "", "frobnicate")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "usage:")
	code, _, _ = runCLI(t, "", "run")
	require.Equal(t, 2, code)
}

func TestMissingFileIsAnError(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "run", "no-such-file.sql")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "no-such-file.sql")
}

// A 'stdin' table reads the data piped into `wsql -e`.
func TestStdinTableFromPipe(t *testing.T) {
	t.Chdir("../..")
	data, err := os.ReadFile("testdata/examples/clicks.csv")
	require.NoError(t, err)
	code, stdout, stderr := runCLI(t, string(data), "-e", `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
		WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'stdin', 'format' = 'csv');
		SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`)
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "usr,n\ncarol,3\nalice,5\nbob,4\n"), stdout)
	require.Contains(t, stderr, "42 rows read, 2 late rows dropped")
}
