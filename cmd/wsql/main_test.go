package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
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

// A SQL error in `wsql run FILE` names the file, as errors in data files do.
func TestSQLErrorInFileNamesTheFile(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("q.sql", []byte("SELECT usr\nFORM clicks;"), 0o644))
	code, stdout, stderr := runCLI(t, "", "run", "q.sql")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.True(t, strings.HasPrefix(stderr, "error: q.sql:2:1: "), stderr)
	require.Contains(t, stderr, "\nFORM clicks;\n^")
}

// A long one-line statement's error shows a window of the line around the
// error, "..." where it is cut, with the caret under the misspelled name:
// from -e and from a file alike.
func TestSQLErrorInLongLineShowsAWindow(t *testing.T) {
	t.Chdir(t.TempDir())
	long := "SELECT usr, COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS biggest, MIN(amount) AS smallest FROM clicks " +
		"WHERE amount > 10 AND usr <> 'bob' GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE) " +
		"HAVING COUNT(*) > 1 AND SUM(amount) > 100 AND MAX(amount) < 1000 AND MIN(amount) > 0;"
	require.Greater(t, len(long), 250)
	src := createClicks + "\n" + long
	window := "\n...unt > 10 AND usr <> 'bob' GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE) HAVING C...\n" +
		strings.Repeat(" ", 43) + "^\n"

	code, stdout, stderr := runCLI(t, "", "-e", src)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "unknown function TUMBEL; did you mean TUMBLE?"+window)

	require.NoError(t, os.WriteFile("q.sql", []byte(src), 0o644))
	code, _, stderr = runCLI(t, "", "run", "q.sql")
	require.Equal(t, 1, code)
	require.True(t, strings.HasPrefix(stderr, "error: q.sql:"), stderr)
	require.Contains(t, stderr, "unknown function TUMBEL; did you mean TUMBLE?"+window)
	require.NotContains(t, stderr, long)
}

func TestUsageErrors(t *testing.T) {
	code, _, stderr := runCLI(t, "", "--format", "xml", "-e", "SELECT 1")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown format "xml"`)
	code, _, stderr = runCLI(t, "", "frobnicate")
	require.Equal(t, 2, code)
	require.Equal(t, "wsql: unknown command \"frobnicate\"\nrun 'wsql --help' for usage\n", stderr)
	code, _, _ = runCLI(t, "", "run")
	require.Equal(t, 2, code)
}

// --help and -h print the usage on stdout and succeed, anywhere a flag may
// be; a usage error is one line with the reason and where the usage is.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"-help"}, {"run", "--help"}, {"bench", "-h"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, 0, code, args)
		require.Equal(t, usage, stdout, args)
		require.Empty(t, stderr, args)
	}
	for _, args := range [][]string{{"--nope"}, {"run", "--nope", "q.sql"}, {"bench", "--rows", "x"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, 2, code, args)
		require.Empty(t, stdout, args)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		require.Len(t, lines, 2, stderr)
		require.True(t, strings.HasPrefix(lines[0], "wsql: "), stderr)
		require.Equal(t, "run 'wsql --help' for usage", lines[1])
	}
	code, _, stderr := runCLI(t, "", "--nope")
	require.Equal(t, 2, code)
	require.Equal(t, "wsql: flag provided but not defined: -nope\nrun 'wsql --help' for usage\n", stderr)
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

func TestJSONFormat(t *testing.T) {
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "", "--format", "json", "run", "testdata/examples/clicks.sql")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.Len(t, lines, 10)
	require.True(t, strings.HasPrefix(lines[0], `{"usr":"`), lines[0])
	require.Contains(t, stderr, "10 result rows")
}

// --format arrow --output FILE writes one Arrow IPC stream, read back
// with ipc.NewReader; the summary stays on stderr and stdout is empty.
func TestArrowFormatToOutputFile(t *testing.T) {
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "clicks.arrow")
	code, stdout, stderr := runCLI(t, "", "run", "--format", "arrow", "--output", out, "testdata/examples/clicks.sql")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "10 result rows")

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	rd, err := ipc.NewReader(f, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rd.Release()
	var names []string
	for _, fld := range rd.Schema().Fields() {
		names = append(names, fld.Name)
	}
	require.Equal(t, []string{"usr", "wstart", "wend", "n", "total"}, names)
	rows := int64(0)
	for rd.Next() {
		rows += rd.RecordBatch().NumRows()
	}
	require.NoError(t, rd.Err())
	require.Equal(t, int64(10), rows)
}

// --output with several results appends them in order; arrow refuses a
// second result.
func TestOutputFileAndArrowErrors(t *testing.T) {
	t.Chdir("../..")
	sql, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	twice := string(sql) + "\nSELECT COUNT(*) AS c FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' HOUR);"
	out := filepath.Join(t.TempDir(), "out.csv")
	require.NoError(t, os.WriteFile(out, []byte("old contents\n"), 0o644))
	code, stdout, stderr := runCLI(t, "", "--output", out, "-e", twice)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stdout)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "usr,wstart,wend,n,total\n"), string(b))
	require.Contains(t, string(b), "\nc\n", "the second result follows the first")
	require.NotContains(t, string(b), "old contents")
	require.Equal(t, 2, strings.Count(stderr, "wsql: "), stderr)

	code, _, stderr = runCLI(t, "", "--format", "arrow", "--output", filepath.Join(t.TempDir(), "x.arrow"), "-e", twice)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "--format arrow writes one result")

	code, _, stderr = runCLI(t, "", "--output", filepath.Join(t.TempDir(), "no-such-dir", "x.csv"), "-e", string(sql))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no-such-dir")

	code, _, stderr = runCLI(t, "", "--format", "xml", "--output", out, "-e", string(sql))
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown format "xml" (want table, csv, json or arrow)`)
}
