package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// \d on a terminal: the listing of tables and views with kind and
// connector, and a name that does not exist said plainly, with no
// statement echoed and no caret.
func TestShellDescribeOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`)
	s.expect(prompt, ptyWait)
	s.line(`CREATE VIEW big AS SELECT usr, amount FROM clicks WHERE amount > 40;`)
	s.expect(prompt, ptyWait)

	s.line(`\d`)
	mark := s.mark()
	s.expect("2 rows\r\n", ptyWait)
	require.Equal(t, []string{
		"+--------+-------+------------+",
		"| name   | kind  | connector  |",
		"+--------+-------+------------+",
		"| big    | view  | NULL       |",
		"| clicks | table | filesystem |",
		"+--------+-------+------------+",
		"2 rows",
		"",
	}, renderTerminal(s.since(mark)))
	s.expect(prompt, ptyWait)

	s.line(`\d nope`)
	mark = s.mark()
	s.expect("does not exist\r\n", ptyWait)
	require.Equal(t, []string{"error: table or view nope does not exist", ""}, renderTerminal(s.since(mark)))
	s.expect(prompt, ptyWait)

	s.line(`\d clikcs`)
	mark = s.mark()
	s.expect("?\r\n", ptyWait)
	require.Equal(t, []string{"error: table or view clikcs does not exist; did you mean clicks?", ""}, renderTerminal(s.since(mark)))
	s.expect(prompt, ptyWait)

	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}

// Ctrl-C while a query runs with the status line drawn: the status text
// (and the ^C the terminal echoes) is erased before what comes next, so
// the result's header, the summary and "query cancelled" each start a
// clean line.
func TestShellCtrlCLeavesACleanLineOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');`)
	s.expect(prompt, ptyWait)

	// a filter that passes no row: only the status line is on the screen
	s.line(`SELECT x FROM gen WHERE x = 5 AND x = 6;`)
	mark := s.mark()
	s.expect("rows/s)", ptyWait)
	s.expect(" late · ", ptyWait) // the whole status line is drawn
	s.send(keyCtrlC)
	s.expect("wsql: query cancelled\r\n", ptyWait)
	screen := renderTerminal(s.since(mark))
	require.Len(t, screen, 7, "%q", screen)
	require.Equal(t, []string{"+------+", "|    x |", "+------+", "0 rows"}, screen[:4])
	require.True(t, strings.HasPrefix(screen[4], "wsql: "), "%q", screen[4])
	require.Contains(t, screen[4], " rows read, ")
	require.Equal(t, []string{"wsql: query cancelled", ""}, screen[5:])
	s.expect(prompt, ptyWait)

	// the next statement prints on clean lines too
	s.line(`\d`)
	mark = s.mark()
	s.expect("1 row\r\n", ptyWait)
	require.Equal(t, "+------+-------+-----------+", renderTerminal(s.since(mark))[0])
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}

// mark is where the output expect has matched up to, for since.
func (s *ptySession) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

// since is the output from mark to what expect has matched up to.
func (s *ptySession) since(mark int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()[mark:s.seen]
}

// renderTerminal is what a terminal shows for out, written from the start
// of a line: one string per line, after carriage returns, backspaces,
// erase-line (ESC [K), erase-below (ESC [J) and cursor-up (ESC [nA). Other escape sequences
// are dropped.
func renderTerminal(out string) []string {
	lines := [][]rune{nil}
	row, col := 0, 0
	rs := []rune(out)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\r':
			col = 0
		case r == '\n':
			row++
			if row == len(lines) {
				lines = append(lines, nil)
			}
		case r == '\b':
			col = max(col-1, 0)
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
				j++
			}
			if j < len(rs) {
				switch rs[j] {
				case 'A': // cursor up n lines
					n, err := strconv.Atoi(string(rs[i+2 : j]))
					if err != nil {
						n = 1
					}
					row = max(row-n, 0)
				case 'K':
					lines[row] = lines[row][:min(col, len(lines[row]))]
				case 'J':
					lines[row] = lines[row][:min(col, len(lines[row]))]
					lines = lines[:row+1]
				}
			}
			i = j
		default:
			for len(lines[row]) <= col {
				lines[row] = append(lines[row], ' ')
			}
			lines[row][col] = r
			col++
		}
	}
	text := make([]string, len(lines))
	for i, l := range lines {
		text[i] = strings.TrimRight(string(l), " ")
	}
	return text
}
