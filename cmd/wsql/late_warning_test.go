package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const shuffledClicksSQL = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_shuffled.csv', 'format' = 'csv');
SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`

// The warning about the shuffled clicks, after the summary line.
const shuffledClicksWarning = `wsql: warning: 28 of 42 rows (67%) were dropped as late: the watermark had passed their windows by up to 1 min 55 s, typically about 57 s
  a watermark delay of 2 min 1 s would have kept at least 90% of them:
    WATERMARK FOR ts AS ts - INTERVAL '121' SECOND
  or keep late rows in a file: SET 'wsql.late-data.path' = 'late.csv';
`

// Most rows of a shuffled file are late: stderr says so with numbers and
// the DDL line that keeps them, apart from the summary line; the line it
// proposes does keep them.
func TestRunWarnsWhenMostRowsAreLate(t *testing.T) {
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "", "-e", shuffledClicksSQL)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 5, strings.Count(stdout, "\n"), "the header and 4 windows")
	summary, warning, ok := strings.Cut(stderr, "\n")
	require.True(t, ok)
	require.Regexp(t, `^wsql: 42 rows read, 28 late rows dropped, 0 bad rows skipped, 4 result rows in \S+$`, summary)
	require.Equal(t, shuffledClicksWarning, warning)

	fixed := strings.Replace(shuffledClicksSQL, "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND", "WATERMARK FOR ts AS ts - INTERVAL '121' SECOND", 1)
	code, _, stderr = runCLI(t, "", "-e", fixed)
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `^wsql: 42 rows read, 0 late rows dropped, 0 bad rows skipped, 10 result rows in \S+\n$`, stderr)
}

func TestRunWarnsAboutRowsInNoWindow(t *testing.T) {
	t.Chdir("../..")
	ddl, _, _ := strings.Cut(shuffledClicksSQL, "SELECT")
	ddl = strings.Replace(ddl, "'5' SECOND", "'1000' SECOND", 1)
	code, _, stderr := runCLI(t, "", "-e", ddl+"SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, COUNT_WINDOW(10);")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `^wsql: 42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows, 12 rows in no emitted window in \S+
wsql: warning: 12 of 42 rows \(29%\) are in COUNT windows that never filled, which are not emitted:
  COUNT_WINDOW\(n\) emits a key's window when its n-th row arrives; use a smaller n, or a time window to see partial groups
$`, stderr)

	code, _, stderr = runCLI(t, "", "-e", ddl+"SELECT COUNT(*) AS n FROM clicks GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '30' SECOND);")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, `, 19 rows in no emitted window in `)
	require.Contains(t, stderr, `
wsql: warning: 19 of 42 rows (45%) fell in the gaps between HOP windows and reached no window:
  the slide is larger than the size; HOP(time, slide, size) takes the slide first: swap them, or make the size at least the slide
`)
}

// The shell prints the same warning after the query's summary.
func TestShellWarnsWhenMostRowsAreLate(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, script(shuffledClicksSQL)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Regexp(t, `wsql: 42 rows read, 28 late rows dropped, 0 bad rows skipped, 4 result rows in \S+\n`+`wsql: warning: 28 of 42 rows`, r.stderr)
	require.True(t, strings.HasSuffix(r.stderr, shuffledClicksWarning), r.stderr)
}
