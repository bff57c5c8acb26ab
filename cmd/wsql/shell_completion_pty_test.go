package main

import (
	"path/filepath"
	"testing"
)

// Tab on the terminal: a WITH value from the connector registry, closed
// with its quote, and the column of the table a WHERE filters.
func TestShellCompletionOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(`\q to quit`, ptyWait)
	s.expect(prompt, ptyWait)

	s.send(`CREATE TABLE solo (only_col INT) WITH ('connector' = 'datag` + keyTab)
	s.expect(`'connector' = 'datagen'`, ptyWait)
	s.send(`, 'number-of-rows' = '2');` + keyEnter)
	s.expect(`'number-of-rows' = '2');`+"\r\n", ptyWait)
	s.expect(prompt, ptyWait)

	s.send(`SELECT * FROM solo WHERE ` + keyTab)
	s.expect(`WHERE only_col `, ptyWait)
	s.send(`IS NOT NULL;` + keyEnter)
	s.expect(`SELECT * FROM solo WHERE only_col IS NOT NULL;`+"\r\n", ptyWait)
	s.expect("only_col |", ptyWait)
	s.expect("2 rows", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	if code := s.wait(ptyWait); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}
