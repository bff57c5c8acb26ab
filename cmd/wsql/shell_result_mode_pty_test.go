package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const clicksDDL = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`

// On a terminal an update stream is shown in Flink's table result mode
// by default: the materialised rows, drawn over themselves as they
// change, so the screen ends with the final table alone, not the 81
// changes.
func TestShellShowsAnUpdateStreamAsAMaterialisedTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(clicksDDL)
	s.expect(prompt, ptyWait)

	s.line(`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr;`)
	mark := s.mark()
	s.expect(" result rows in ", ptyWait)
	s.expect("\r\n", ptyWait)
	out := s.since(mark)
	require.Contains(t, out, "A\x1b[J", "the live table is drawn over")
	screen := renderTerminal(out)
	require.Equal(t, []string{
		"+-------+------+",
		"| usr   |    n |",
		"+-------+------+",
		"| carol |   15 |",
		"| bob   |   13 |",
		"| alice |   14 |",
		"+-------+------+",
		"3 rows",
	}, screen[:8])
	require.True(t, strings.HasPrefix(screen[8], "wsql: 42 rows read, "), "%q", screen)
	s.expect(prompt, ptyWait)

	// the other modes, by SET as in Flink's SQL client (any case)
	s.line(`SET 'sql-client.execution.result-mode' = 'CHANGELOG';`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr;`)
	mark = s.mark()
	s.expect(" result rows in ", ptyWait)
	screen = renderTerminal(s.since(mark))
	require.Equal(t, []string{" op    usr       n", " +I    carol     1", " +I    alice     1", " -U    carol     1", " +U    carol     2"}, screen[:5])
	require.Equal(t, " +U    alice    14", screen[81])
	s.expect(prompt, ptyWait)

	s.line(`SET 'sql-client.execution.result-mode' = 'tableau';`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr;`)
	mark = s.mark()
	s.expect("81 rows\r\n", ptyWait)
	screen = renderTerminal(s.since(mark))
	require.Equal(t, []string{"+------+-------+------+", "| op   | usr   |    n |", "+------+-------+------+", "| +I   | carol |    1 |"}, screen[:4])
	s.expect(prompt, ptyWait)

	// an append-only query keeps the table that grows as rows arrive
	s.line(`RESET 'sql-client.execution.result-mode';`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT usr FROM clicks WHERE amount > 48;`)
	mark = s.mark()
	s.expect("1 row\r\n", ptyWait)
	require.NotContains(t, s.since(mark), "A\x1b[J")
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}

// A live table of an unbounded query: refreshed in place, its last rows
// as the terminal's 40 lines allow; Ctrl-C stops the query, which leaves
// the whole table, once, and the usual cancellation.
func TestShellLiveTableFitsTheTerminalAndStopsOnCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '400', 'fields.x.kind' = 'sequence', 'fields.x.start' = '0', 'fields.x.end' = '100000000');`)
	s.expect(prompt, ptyWait)

	s.line(`SELECT x % 50 AS k, COUNT(*) AS n FROM gen GROUP BY x % 50;`)
	mark := s.mark()
	s.expect("50 rows, the last 34 shown\r\n", ptyWait)
	live := renderTerminal(s.since(mark))
	require.LessOrEqual(t, len(live), 40, "the live table fits the terminal: %q", live)
	s.send(keyCtrlC)
	s.expect("wsql: query cancelled\r\n", ptyWait)
	screen := renderTerminal(s.since(mark))
	require.Equal(t, []string{"+------+------+", "|    k |    n |", "+------+------+"}, screen[:3], "%q", screen)
	require.Equal(t, []string{"+------+------+", "50 rows"}, screen[53:55], "%q", screen)
	require.True(t, strings.HasPrefix(screen[55], "wsql: "), "%q", screen)
	require.Equal(t, []string{"wsql: query cancelled", ""}, screen[56:])
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}
