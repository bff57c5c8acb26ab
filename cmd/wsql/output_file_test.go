package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --output naming a file the script reads, by any name, or a file in a
// directory it reads, is refused before the file is created or truncated:
// the input keeps its bytes and the error names both paths.
func TestOutputNamingAnInputIsRefused(t *testing.T) {
	data, err := os.ReadFile("../../testdata/examples/clicks.csv")
	require.NoError(t, err)
	dir := t.TempDir()
	in := filepath.Join(dir, "in", "clicks.csv")
	require.NoError(t, os.Mkdir(filepath.Dir(in), 0o755))
	require.NoError(t, os.WriteFile(in, data, 0o644))
	require.NoError(t, os.Symlink(in, filepath.Join(dir, "link.csv")))
	query := func(path string) string {
		return `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = '` + filepath.ToSlash(path) + `', 'format' = 'csv');
SHOW TABLES;
SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`
	}
	cases := []struct{ name, source, output, want string }{
		{"the input itself", in, in, "the results file '" + in + "' is the same file as '" + filepath.ToSlash(in) + "'"},
		{"a symbolic link to the input", in, filepath.Join(dir, "link.csv"), "the results file '" + filepath.Join(dir, "link.csv") + "' is the same file as"},
		{"a file in the source directory", filepath.Dir(in), filepath.Join(dir, "in", "out.csv"), "lies inside '" + filepath.ToSlash(filepath.Dir(in)) + "', the 'path' of table clicks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// kept for a restart with checkpoints: refused all the same
			code, _, stderr := runCLI(t, "", "--output", c.output, "--checkpoint-dir", filepath.Join(t.TempDir(), "ck"), "-e", query(c.source))
			require.Equal(t, 1, code, stderr)
			require.Contains(t, stderr, c.want)

			code, stdout, stderr := runCLI(t, "", "--output", c.output, "-e", query(c.source))
			require.Equal(t, 1, code, stderr)
			require.Empty(t, stdout)
			require.Contains(t, stderr, c.want)
			require.NotContains(t, stderr, "rows read")
			got, err := os.ReadFile(in)
			require.NoError(t, err)
			require.Equal(t, string(data), string(got), "the input is untouched")
			_, err = os.Stat(filepath.Join(dir, "in", "out.csv"))
			require.True(t, os.IsNotExist(err), "no output file is created")
		})
	}
	// elsewhere the same script runs, SHOW's table before the query's rows
	out := filepath.Join(dir, "out.csv")
	code, _, stderr := runCLI(t, "", "--output", out, "-e", query(in))
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "table name\nclicks\nusr,n\n"), string(b))
}

// A run that writes no result still leaves an empty --output file, as
// when the file was created at the start.
func TestOutputFileOfARunWithoutResults(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.csv")
	require.NoError(t, os.WriteFile(out, []byte("old\n"), 0o644))
	code, _, stderr := runCLI(t, "", "--output", out, "-e", "SET 'parallelism.default' = '2';")
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Empty(t, string(b))
}

// dirNames lists the names in dir, hidden ones included.
func dirNames(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// The first query's rows are written before the second fails: without
// checkpoints they go to a temporary file beside --output, which replaces
// it only when the run succeeds. A failed run leaves the file as it was
// (or absent) and no temporary file.
func TestOutputFileOfAFailedRunIsLeftAsItWas(t *testing.T) {
	const table = `CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'rows-per-second' = '0', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '3');
SELECT k FROM g;
`
	failing := table + "SELECT nope FROM g;"
	for _, format := range []string{"csv", "table"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.csv")
			code, stdout, stderr := runCLI(t, "", "--format", format, "--output", out, "-e", failing)
			require.Equal(t, 1, code, stderr)
			require.Empty(t, stdout)
			require.Contains(t, stderr, "wsql: 3 rows read", "the first query ran")
			require.Contains(t, stderr, "nope")
			require.Empty(t, dirNames(t, dir), "no file is created, no temporary file is left")

			require.NoError(t, os.WriteFile(out, []byte("old\n"), 0o600))
			code, _, stderr = runCLI(t, "", "--format", format, "--output", out, "-e", failing)
			require.Equal(t, 1, code, stderr)
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Equal(t, "old\n", string(b), "the file is left as it was")
			require.Equal(t, []string{"out.csv"}, dirNames(t, dir))

			code, _, stderr = runCLI(t, "", "--format", format, "--output", out, "-e", table)
			require.Equal(t, 0, code, stderr)
			b, err = os.ReadFile(out)
			require.NoError(t, err)
			want := "k\n1\n2\n3\n"
			if format == "table" {
				want = "+------+\n|    k |\n+------+\n|    1 |\n|    2 |\n|    3 |\n+------+\n3 rows\n"
			}
			require.Equal(t, want, string(b), "a successful run replaces the file")
			require.Equal(t, []string{"out.csv"}, dirNames(t, dir))
			st, err := os.Stat(out)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the file keeps its permissions")
		})
	}
}

// A temporary file left by a killed run (.NAME.tmp) is reused and renamed
// by the next run; through a symbolic link the linked file is replaced
// and the link kept.
func TestOutputFileTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".out.csv.tmp"), []byte("left by a killed run, longer than the results\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "real", "out.csv"), []byte("old\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join("real", "out.csv"), filepath.Join(dir, "out.csv")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "real", ".out.csv.tmp"), []byte("left by a killed run, longer than the results\n"), 0o644))

	code, _, stderr := runCLI(t, "", "--output", filepath.Join(dir, "out.csv"), "-e", "SHOW TABLES;")
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(filepath.Join(dir, "real", "out.csv"))
	require.NoError(t, err)
	require.Equal(t, "table name\n", string(b))
	st, err := os.Lstat(filepath.Join(dir, "out.csv"))
	require.NoError(t, err)
	require.NotZero(t, st.Mode()&os.ModeSymlink, "the link is kept")
	require.Equal(t, []string{"out.csv"}, dirNames(t, filepath.Join(dir, "real")))
	require.Equal(t, []string{".out.csv.tmp", "out.csv", "real"}, dirNames(t, dir), "only the linked file's directory is written")
}

// With checkpoints, a failed run also leaves --output as it was: the
// results its checkpoints committed stay in the hidden .NAME.partial for
// the next run, which continues them (a finished query is not run again)
// and replaces the file when it succeeds.
func TestOutputFileWithCheckpointsOfAFailedRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	ck := filepath.Join(dir, "ck")
	require.NoError(t, os.WriteFile(out, []byte("old\n"), 0o644))
	const table = `CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'rows-per-second' = '0', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '3');
SELECT k FROM g;
`
	code, _, stderr := runCLI(t, "", "--output", out, "--checkpoint-dir", ck, "-e", table+"SELECT nope FROM g;")
	require.Equal(t, 1, code, stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "old\n", string(b), "the file is left as it was")
	b, err = os.ReadFile(filepath.Join(dir, ".out.csv.partial"))
	require.NoError(t, err)
	require.Equal(t, "k\n1\n2\n3\n", string(b), "the committed results are kept for the next run")

	code, _, stderr = runCLI(t, "", "--output", out, "--checkpoint-dir", ck, "-e", table+"SELECT k * 10 AS t FROM g;")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "query 1 already finished")
	b, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "k\n1\n2\n3\nt\n10\n20\n30\n", string(b))
	require.Equal(t, []string{"ck", "out.csv"}, dirNames(t, dir), "no hidden file is left")
}
