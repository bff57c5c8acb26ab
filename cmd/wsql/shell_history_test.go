package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// fakeHistory is a LineSource over a script that keeps the history
// entries the shell saves.
type fakeHistory struct {
	*fakeLines
	entries []string
}

func (f *fakeHistory) SaveHistory(entry string) { f.entries = append(f.entries, entry) }

func historyOf(t *testing.T, lines ...string) (entries []string, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	in := &fakeHistory{fakeLines: &fakeLines{lines: lines}}
	sh := newShell(wsql.New(), in, &out, &errOut)
	require.Equal(t, 0, sh.run(context.Background()))
	return in.entries, out.String(), errOut.String()
}

// A statement typed over several lines is one history entry, on one line
// (a history file keeps an entry a line), and that line runs as the lines
// did.
func TestShellHistoryKeepsAStatementAsOneEntry(t *testing.T) {
	t.Chdir("../..")
	entries, stdout, stderr := historyOf(t, script(createClicks, selectClicks)...)
	require.NotContains(t, stderr, "error")
	require.Equal(t, []string{
		`CREATE TABLE clicks ( ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND ) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`,
		`SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`,
	}, entries)

	// the entries, recalled and run, give what the lines gave
	_, again, stderr := historyOf(t, entries...)
	require.NotContains(t, stderr, "error")
	require.Equal(t, stdout, again)
	require.Contains(t, again, "| alice | 2024-03-01 09:00:00.000 |")
}

func TestShellHistoryEntries(t *testing.T) {
	// (the statements run; what they print does not change the history)
	entries, _, _ := historyOf(t,
		"help",
		"SELECT 1 AS a;",
		"SELECT 2 AS b; SELECT",
		"  3 AS c;",
		"",
		"SELECT 4 AS d,",
		`\timing`, // a meta command in the middle of a statement is an entry of its own
		"  5 AS e -- the fifth",
		";",
		"-- a comment alone",
		"SELECT 'two",
		"lines' AS s;",
		"SELECT 6",
		"  AS f"+ctrlC, // Ctrl-C keeps the lines entered, not the one it cut
		`\q`,
	)
	require.Equal(t, []string{
		"help",
		"SELECT 1 AS a;",
		"SELECT 2 AS b; SELECT 3 AS c;",
		`\timing`,
		"SELECT 4 AS d, 5 AS e /* the fifth */ ;",
		"-- a comment alone",
		// a line break inside a string is part of its value: the lines
		// stay lines
		"SELECT 'two",
		"lines' AS s;",
		"SELECT 6",
		`\q`,
	}, entries)
}

func TestHistoryEntry(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
		ok    bool
	}{
		{[]string{"SELECT 1;  "}, "SELECT 1;", true},
		{[]string{"SELECT a,", "\t b", "FROM t;"}, "SELECT a, b FROM t;", true},
		{[]string{"SELECT a -- first", "FROM t; -- done"}, "SELECT a /* first */ FROM t; -- done", true},
		{[]string{"SELECT a -- a */ b", "FROM t;"}, "SELECT a FROM t;", true},
		{[]string{"SELECT a --", "FROM t;"}, "SELECT a FROM t;", true},
		{[]string{"SELECT /* a", "   b */ a", "FROM t;"}, "SELECT /* a b */ a FROM t;", true},
		{[]string{"SELECT '--x' AS `a", "b` FROM t;"}, "", false},
		{[]string{"SELECT '--x', 'it''s'", "FROM t;"}, "SELECT '--x', 'it''s' FROM t;", true},
	} {
		got, ok := historyEntry(tc.lines)
		require.Equal(t, tc.ok, ok, "%q", tc.lines)
		require.Equal(t, tc.want, got, "%q", tc.lines)
	}
}
