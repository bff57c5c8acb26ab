package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// The tests in this file run the real wsql binary on a pseudo-terminal and
// type at it: readline's line editing, completion, history and Ctrl-C are
// only there on a terminal, so the line-list tests of shell_test.go cannot
// reach them.

const (
	keyUp    = "\x1b[A"
	keyTab   = "\t"
	keyCtrlC = "\x03"
	keyCtrlU = "\x15"
	keyEnter = "\r"
	// ptyWait is how long expect waits for output: generous, for a loaded
	// machine running the tests with -race.
	ptyWait = 10 * time.Second
)

// wsqlBinary is the program the pseudo-terminal tests start: this test
// binary, which TestMain turns into wsql when benchChildEnv is set (see
// startShell), as the crash tests do. Building a separate wsql binary per
// test took most of the package's time under -race.
func wsqlBinary(t *testing.T) (bin, repoRoot string) {
	t.Helper()
	bin, err := os.Executable()
	require.NoError(t, err)
	repoRoot, err = filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return bin, repoRoot
}

// ptySession is a wsql shell running on a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	done chan struct{} // closed when the output is at its end

	exited  chan struct{} // closed when the shell has exited
	exitErr error         // cmd.Wait's, once exited is closed

	mu     sync.Mutex
	out    bytes.Buffer  // all the output so far
	seen   int           // how much of out expect has matched past
	notify chan struct{} // signalled when output arrives
}

func startShell(t *testing.T, bin, dir, history string, args ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), benchChildEnv+"=1", "WSQL_HISTORY="+history, "TERM=xterm")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	s := &ptySession{t: t, tty: tty, cmd: cmd, done: make(chan struct{}), exited: make(chan struct{}), notify: make(chan struct{}, 1)}
	go func() {
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				s.mu.Lock()
				s.out.Write(buf[:n])
				s.mu.Unlock()
				select {
				case s.notify <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return // EIO once the shell has exited
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // an error if it has exited already
		<-s.exited
		_ = tty.Close()
		<-s.done
	})
	return s
}

// send types keys at the shell.
func (s *ptySession) send(keys string) {
	s.t.Helper()
	_, err := s.tty.Write([]byte(keys))
	require.NoError(s.t, err)
}

// line types a line and Enter (expect the prompt first), and waits for
// readline to echo the whole line and go to the next one: readline redraws
// the prompt with each key, so only a prompt after that is a new one.
func (s *ptySession) line(text string) {
	s.t.Helper()
	s.send(text + keyEnter)
	s.expect(text+"\r\n", ptyWait)
}

// expect waits until want appears in the output after what earlier
// expects matched, and moves past it.
func (s *ptySession) expect(want string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		rest := s.out.String()[s.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			s.seen += i + len(want)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		select {
		case <-s.notify:
		case <-s.done:
			s.mu.Lock()
			found := strings.Contains(s.out.String()[s.seen:], want)
			s.mu.Unlock()
			if !found {
				s.t.Fatalf("the shell's output ended without %q; after the last match it was:\n%q", want, rest)
			}
		case <-deadline.C:
			s.t.Fatalf("no %q in the shell's output within %v; after the last match it was:\n%q", want, timeout, rest)
		}
	}
}

// wait waits for the shell to exit and returns its exit status.
func (s *ptySession) wait(timeout time.Duration) int {
	s.t.Helper()
	select {
	case <-s.exited:
		var exit *exec.ExitError
		if errors.As(s.exitErr, &exit) {
			return exit.ExitCode()
		}
		require.NoError(s.t, s.exitErr)
		return 0
	case <-time.After(timeout):
		s.mu.Lock()
		out := s.out.String()[s.seen:]
		s.mu.Unlock()
		s.t.Fatalf("the shell did not exit within %v; output after the last match:\n%q", timeout, out)
		return -1
	}
}

func TestShellOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	history := filepath.Join(t.TempDir(), "history")

	s := startShell(t, bin, root, history)
	s.expect(`\q to quit`, ptyWait)
	s.expect(prompt, ptyWait)

	// a statement over several lines, with the continuation prompt
	s.line(`CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,`)
	s.expect(contPrompt, ptyWait)
	s.line(`  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)`)
	s.expect(contPrompt, ptyWait)
	s.line(`WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n`)
	s.expect(contPrompt, ptyWait)
	s.line(`FROM clicks WHERE usr = 'alice' GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`)
	s.expect("| usr   | wend ", ptyWait)
	s.expect("| alice | 2024-03-01 09:01:00.000 |", ptyWait)
	s.expect("| alice | 2024-03-01 09:04:00.000 |", ptyWait)
	s.expect("4 rows", ptyWait)
	s.expect("wsql: 42 rows read,", ptyWait)
	s.expect(prompt, ptyWait)

	// Tab completes a keyword; Ctrl-U drops the line again
	s.send("SEL" + keyTab)
	s.expect("SELECT ", ptyWait)
	s.send(keyCtrlU)
	// and a table name after FROM
	s.send("SELECT usr FROM cl" + keyTab)
	s.expect("FROM clicks ", ptyWait)
	s.send("WHERE amount > 48;" + keyEnter)
	s.expect("SELECT usr FROM clicks WHERE amount > 48;\r\n", ptyWait)
	s.expect("| usr ", ptyWait)
	s.expect("| alice |\r\n", ptyWait)
	s.expect("1 row", ptyWait)
	s.expect(prompt, ptyWait)

	// Ctrl-C cancels a query that would run for ever
	s.line(`CREATE TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT x FROM gen;`)
	s.expect("rows/s)", ptyWait) // it is running: the status line shows
	s.send(keyCtrlC)
	s.expect("wsql: query cancelled", ptyWait)
	s.expect(prompt, ptyWait)

	// a line to recall in the next session
	s.line(`CREATE TABLE recalled (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');`)
	s.expect(prompt, ptyWait)

	// Ctrl-C twice at an empty prompt exits
	s.send(keyCtrlC)
	s.expect(ctrlCHint, ptyWait)
	s.expect(prompt, ptyWait)
	s.send(keyCtrlC)
	require.Equal(t, 0, s.wait(ptyWait))

	b, err := os.ReadFile(history)
	require.NoError(t, err)
	hist := string(b)
	for _, l := range []string{
		`CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,`,
		`FROM clicks WHERE usr = 'alice' GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`,
		`SELECT usr FROM clicks WHERE amount > 48;`,
		`SELECT x FROM gen;`,
		`CREATE TABLE recalled (x INT)`,
	} {
		require.Contains(t, hist, l)
	}

	// a second session recalls the last line with the Up arrow and runs it
	s = startShell(t, bin, root, history)
	s.expect(prompt, ptyWait)
	s.send(keyUp)
	s.expect(`CREATE TABLE recalled (x INT)`, ptyWait)
	s.send(keyEnter)
	s.expect("'number-of-rows' = '3');\r\n", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\d`)
	s.expect("recalled", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}

// -i runs its file before the first prompt, on the shell's session, as
// Flink's SQL client does: the table it creates is there to query.
func TestShellInitFileOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	init := filepath.Join(t.TempDir(), "init.sql")
	require.NoError(t, os.WriteFile(init, []byte(createClicks+"\n"), 0o644))

	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"), "-i", init)
	s.expect(`\q to quit`, ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`SELECT COUNT(*) AS n FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' HOUR);`)
	s.expect("|   42 |", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}
