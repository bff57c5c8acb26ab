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
