package wsql

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// An output that is an input of the script (the same file by any name, or
// a file in a directory the script reads) is refused when the query is
// planned, before any file is opened: the input keeps its bytes and the
// error names both paths.

// inputDir makes a temporary directory holding in/events.csv (the e2e
// events) and returns the directory and the events' bytes.
func inputDir(t *testing.T) (string, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/e2e/events.csv")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "events.csv"), data, 0o644))
	return dir, data
}

// eventsFrom is the DDL of the events table over path, and a windowed
// INSERT INTO results.
func eventsFrom(path string) string {
	return `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
`
}

const insertResults = `
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`

func resultsTo(path string) string {
	return `CREATE TABLE results (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
`
}

func TestOutputThatIsAnInputIsRefused(t *testing.T) {
	cases := []struct {
		name string
		// setup makes the links a case needs
		setup  func(t *testing.T, dir string)
		script string // $IN is the input's path, $DIR the directory
		want   []string
		runs   int // queries that run before the refused one
	}{
		{name: "sink path is the input",
			script: eventsFrom("$IN") + resultsTo("$IN") + insertResults,
			want:   []string{"sink table results", "'$IN' is the same file as '$IN'", "table events reads"}},
		{name: "sink path through ./",
			script: eventsFrom("$IN") + resultsTo("$DIR/./in/../in/events.csv") + insertResults,
			want:   []string{"'$DIR/./in/../in/events.csv' is the same file as '$IN'"}},
		{name: "sink path is a symbolic link to the input",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Symlink(filepath.Join(dir, "in", "events.csv"), filepath.Join(dir, "link.csv")))
			},
			script: eventsFrom("$IN") + resultsTo("$DIR/link.csv") + insertResults,
			want:   []string{"'$DIR/link.csv' is the same file as '$IN'"}},
		{name: "sink path is a hard link to the input",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Link(filepath.Join(dir, "in", "events.csv"), filepath.Join(dir, "hard.csv")))
			},
			script: eventsFrom("$IN") + resultsTo("$DIR/hard.csv") + insertResults,
			want:   []string{"'$DIR/hard.csv' is the same file as '$IN'"}},
		{name: "input read through a symbolic link",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Symlink(filepath.Join(dir, "in", "events.csv"), filepath.Join(dir, "link.csv")))
			},
			script: eventsFrom("$DIR/link.csv") + resultsTo("$IN") + insertResults,
			want:   []string{"'$IN' is the same file as '$DIR/link.csv'"}},
		{name: "late-data path is the input",
			script: "SET 'wsql.late-data.path' = '$IN';\n" + eventsFrom("$IN") + resultsTo("$DIR/out.csv") + insertResults,
			want:   []string{"'wsql.late-data.path' '$IN' is the same file as '$IN'"}},
		{name: "late-data path of a SELECT is the input",
			script: "SET 'wsql.late-data.path' = '$IN';\n" + eventsFrom("$IN") + "SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);",
			want:   []string{"'wsql.late-data.path' '$IN' is the same file as '$IN'"}},
		{name: "bad-rows path is the input",
			script: "SET 'wsql.bad-rows.path' = '$IN';\n" + eventsFrom("$IN") + resultsTo("$DIR/out.csv") + insertResults,
			want:   []string{"'wsql.bad-rows.path' '$IN' is the same file as '$IN'"}},
		{name: "bad-rows path of a plain SELECT is the input",
			script: "SET 'wsql.bad-rows.path' = '$IN';\n" + eventsFrom("$IN") + "SELECT k FROM events;",
			want:   []string{"'wsql.bad-rows.path' '$IN' is the same file as '$IN'"}},
		{name: "sink file inside the source directory",
			script: eventsFrom("$DIR/in") + resultsTo("$DIR/in/out.csv") + insertResults,
			want:   []string{"'$DIR/in/out.csv' lies inside '$DIR/in', the directory table events reads"}},
		{name: "sink file in a subdirectory of the source directory",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Mkdir(filepath.Join(dir, "in", "sub"), 0o755))
			},
			script: eventsFrom("$DIR/in") + resultsTo("$DIR/in/sub/out.csv") + insertResults,
			want:   []string{"'$DIR/in/sub/out.csv' lies inside '$DIR/in'"}},
		{name: "sink directory is the source directory",
			script: eventsFrom("$DIR/in") + resultsTo("$DIR/in/") + insertResults,
			want:   []string{"'$DIR/in/' lies inside '$DIR/in'"}},
		{name: "sink directory holds the input",
			script: eventsFrom("$IN") + resultsTo("$DIR/in") + insertResults,
			want:   []string{"sink table results", "'$DIR/in' is a directory holding '$IN', which table events reads"}},
		{name: "late-data file inside the source directory",
			script: "SET 'wsql.late-data.path' = '$DIR/in/late.csv';\n" + eventsFrom("$DIR/in") + resultsTo("$DIR/out.csv") + insertResults,
			want:   []string{"'wsql.late-data.path' '$DIR/in/late.csv' lies inside '$DIR/in'"}},
		{name: "bad-rows file inside the source directory through a link",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Symlink(filepath.Join(dir, "in"), filepath.Join(dir, "alias")))
			},
			script: "SET 'wsql.bad-rows.path' = '$DIR/alias/bad.txt';\n" + eventsFrom("$DIR/in") + resultsTo("$DIR/out.csv") + insertResults,
			want:   []string{"'wsql.bad-rows.path' '$DIR/alias/bad.txt' lies inside '$DIR/in'"}},
		{name: "checkpoint directory inside the source directory",
			script: "SET 'execution.checkpointing.dir' = '$DIR/in/ckpt';\n" + eventsFrom("$DIR/in") + resultsTo("$DIR/out") + insertResults,
			want:   []string{"'execution.checkpointing.dir' '$DIR/in/ckpt' lies inside '$DIR/in', the directory table events reads"}},
		{name: "an input of an earlier query of the script",
			script: eventsFrom("$IN") + resultsTo("$DIR/first.csv") + insertResults +
				"SET 'wsql.late-data.path' = '$IN';\n" +
				"CREATE TABLE other (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n" +
				"SELECT COUNT(*) FROM other GROUP BY TUMBLE(ts, INTERVAL '5' SECOND);",
			want: []string{"'wsql.late-data.path' '$IN' is the same file as '$IN', which table events reads"},
			runs: 1},
		{name: "EXPLAIN is refused too",
			script: eventsFrom("$IN") + resultsTo("$IN") + "EXPLAIN " + insertResults,
			want:   []string{"'$IN' is the same file as '$IN'"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, data := inputDir(t)
			if c.setup != nil {
				c.setup(t, dir)
			}
			in := filepath.ToSlash(filepath.Join(dir, "in", "events.csv"))
			slashDir := filepath.ToSlash(dir)
			script := strings.ReplaceAll(strings.ReplaceAll(c.script, "$IN", in), "$DIR", slashDir)
			out := runScript(t, script, 4096)
			for _, w := range c.want {
				w = strings.ReplaceAll(strings.ReplaceAll(w, "$IN", in), "$DIR", slashDir)
				require.Contains(t, out, w)
			}
			require.Equal(t, c.runs, strings.Count(out, "rows read"), "the query is refused before it runs")
			got, err := os.ReadFile(filepath.Join(dir, "in", "events.csv"))
			require.NoError(t, err)
			require.Equal(t, string(data), string(got), "the input is untouched")
			names, err := os.ReadDir(filepath.Join(dir, "in"))
			require.NoError(t, err)
			require.Len(t, names, 1+strings.Count(c.name, "subdirectory"), "nothing is added to the input directory")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				require.NotContains(t, []string{"out.csv", "out", "late.csv", "bad.txt"}, e.Name(), "nothing is written")
			}
		})
	}
}

// The results file (the CLI's --output) is checked before any statement
// runs, against the path of every filesystem table of the script: a
// result written to it before the query that reads it is planned (SHOW
// here) would already destroy the input.
func TestResultsFileThatIsAnInputIsRefused(t *testing.T) {
	dir, data := inputDir(t)
	in := filepath.Join(dir, "in", "events.csv")
	src := eventsFrom(filepath.ToSlash(in)) + "SHOW TABLES;\nSELECT k, COUNT(*) AS n FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);"
	var wrote bool
	err := New().Run(context.Background(), src, Output{
		ResultsFile: in,
		NewWriter: func(r ResultInfo) (ResultWriter, error) {
			wrote = true
			return NewCSVWriter(io.Discard, r.Schema, r.Location), nil
		},
	})
	require.Error(t, err)
	require.Contains(t, err.Error(), "the results file '"+in+"' is the same file as '"+filepath.ToSlash(in)+"', the 'path' of table events")
	require.False(t, wrote)
	got, err := os.ReadFile(in)
	require.NoError(t, err)
	require.Equal(t, string(data), string(got))
}

// Outputs beside the inputs, and a later query reading an earlier one's
// output, are fine.
func TestOutputsBesideInputsRun(t *testing.T) {
	dir, _ := inputDir(t)
	slashDir := filepath.ToSlash(dir)
	script := "SET 'wsql.late-data.path' = '$DIR/late.csv';\nSET 'wsql.bad-rows.path' = '$DIR/bad.txt';\n" +
		eventsFrom("$DIR/in/events.csv") + resultsTo("$DIR/out.csv") + insertResults +
		`CREATE TABLE again (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT) WITH ('connector' = 'filesystem', 'path' = '$DIR/out.csv', 'format' = 'csv');
SELECT k, n FROM again;`
	out := runScript(t, strings.ReplaceAll(script, "$DIR", slashDir), 4096)
	require.NotContains(t, out, "error")
	require.Contains(t, out, "6 result rows")
	require.Contains(t, out, "k,n\na,1\n")
}
