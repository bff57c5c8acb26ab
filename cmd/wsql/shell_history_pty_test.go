package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A statement typed over several lines is one history entry: the Up arrow
// recalls it whole, Enter runs it, and the history file keeps it on one
// line for the next session.
func TestShellHistoryRecallsAMultiLineStatementOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	init := filepath.Join(t.TempDir(), "init.sql")
	require.NoError(t, os.WriteFile(init, []byte(createClicks+"\n"), 0o644))
	history := filepath.Join(t.TempDir(), "history")
	const (
		create = `CREATE TABLE few (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');`
		count  = `SELECT COUNT(*) AS n FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' HOUR);`
	)

	s := startShell(t, bin, root, history, "-i", init)
	s.expect(`\q to quit`, ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE few (x INT)`)
	s.expect(contPrompt, ptyWait)
	s.line(`  WITH ('connector' = 'datagen',`)
	s.expect(contPrompt, ptyWait)
	s.line(`        'number-of-rows' = '3');`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT COUNT(*) AS n`)
	s.expect(contPrompt, ptyWait)
	s.line(`FROM clicks`)
	s.expect(contPrompt, ptyWait)
	s.line(`GROUP BY TUMBLE(ts, INTERVAL '1' HOUR);`)
	s.expect("|   42 |", ptyWait)
	s.expect(prompt, ptyWait)

	// Up recalls the whole SELECT, not its last line; Enter runs it
	s.send(keyUp)
	s.expect(count, ptyWait)
	s.send(keyEnter)
	s.expect(count+"\r\n", ptyWait)
	s.expect("|   42 |", ptyWait)
	s.expect(prompt, ptyWait)
	// Up twice: the CREATE before it (the SELECT run again is one entry)
	s.send(keyUp + keyUp)
	s.expect(create, ptyWait)
	s.send(keyCtrlU)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))

	b, err := os.ReadFile(history)
	require.NoError(t, err)
	require.Equal(t, []string{create, count, `\q`}, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))

	// the next session recalls the CREATE from the file and runs it
	s = startShell(t, bin, root, history)
	s.expect(prompt, ptyWait)
	s.send(keyUp + keyUp + keyUp)
	s.expect(create, ptyWait)
	s.send(keyEnter)
	s.expect(create+"\r\n", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`SELECT x FROM few;`)
	s.expect("3 rows", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}
