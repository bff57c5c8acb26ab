//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stopWait is how long a signalled wsql may take to exit: generous, for a
// loaded machine; a run that ignores the signal never exits at all.
const stopWait = 5 * time.Second

// signalledChild is this test binary run as wsql (see TestMain), its
// results in a file the test reads while it runs.
type signalledChild struct {
	cmd    *exec.Cmd
	stdout string // the file stdout goes to
	stderr *bytes.Buffer
	done   chan error
}

// startChild starts wsql on args in dir, reading stdin (nil: no input).
func startChild(t *testing.T, dir string, stdin *os.File, args ...string) *signalledChild {
	t.Helper()
	c := &signalledChild{stdout: filepath.Join(dir, fmt.Sprintf("stdout-%d", time.Now().UnixNano())), stderr: new(bytes.Buffer), done: make(chan error, 1)}
	out, err := os.Create(c.stdout)
	require.NoError(t, err)
	defer out.Close()
	c.cmd = exec.Command(os.Args[0], args...)
	c.cmd.Dir = dir
	c.cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = stdin, out, c.stderr
	require.NoError(t, c.cmd.Start())
	go func() { c.done <- c.cmd.Wait() }()
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// output is what the child wrote to stdout so far.
func (c *signalledChild) output(t *testing.T) string {
	b, err := os.ReadFile(c.stdout)
	require.NoError(t, err)
	return string(b)
}

// waitForOutput waits until stdout holds line, a whole line.
func (c *signalledChild) waitForOutput(t *testing.T, line string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains("\n"+c.output(t), "\n"+line+"\n") {
		select {
		case err := <-c.done:
			c.done <- err
			t.Fatalf("wsql ended (%v) before it wrote %q:\n%s", err, line, c.stderr)
		case <-time.After(5 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "no %q within a minute; stdout:\n%s", line, c.output(t))
	}
}

// stop sends sig and requires the child to exit with 130 within stopWait;
// it returns stderr.
func (c *signalledChild) stop(t *testing.T, sig syscall.Signal) string {
	t.Helper()
	require.NoError(t, c.cmd.Process.Signal(sig))
	select {
	case <-c.done:
	case <-time.After(stopWait):
		require.NoError(t, c.cmd.Process.Kill())
		<-c.done
		t.Fatalf("wsql did not stop within %v of %v; stderr:\n%s", stopWait, sig, c.stderr)
	}
	stderr := c.stderr.String()
	require.Equal(t, 130, c.cmd.ProcessState.ExitCode(), stderr)
	require.Contains(t, stderr, "wsql: interrupted")
	return stderr
}

// A signal stops a query reading an idle stdin pipe (tail -f log | wsql,
// stopped by a supervisor that signals only wsql), and the summary counts
// every line read, not only those the WHERE passed.
func TestSignalStopsQueryOnIdleStdin(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			pr, pw, err := os.Pipe()
			require.NoError(t, err)
			defer pw.Close() // open and idle until the end: the stream does not end
			c := startChild(t, dir, pr, "-e", `
				CREATE TABLE lines (n INT, s STRING) WITH ('connector' = 'stdin', 'format' = 'csv');
				SELECT n, s FROM lines WHERE n % 14 = 0;`)
			pr.Close()
			var in strings.Builder
			for n := 1; n <= 42; n++ {
				fmt.Fprintf(&in, "%d,x\n", n)
			}
			_, err = pw.WriteString(in.String())
			require.NoError(t, err)
			c.waitForOutput(t, "42,x") // the last line passes: every line was read

			stderr := c.stop(t, sig)
			require.Equal(t, "n,s\n14,x\n28,x\n42,x\n", c.output(t))
			require.Contains(t, stderr, "wsql: 42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows")
		})
	}
}

// A signal stops a query following a file ('source.monitor-interval')
// with its final checkpoint: the next run goes on after the rows of the
// first, exactly once.
func TestSignalStopsFollowedFileWithCheckpoint(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "log.csv"), []byte("1,a\n2,b\n"), 0o644))
	const script = `
		CREATE TABLE log (n INT, s STRING) WITH ('connector' = 'filesystem', 'path' = 'log.csv',
			'format' = 'csv', 'source.monitor-interval' = '1 h');
		SET 'execution.checkpointing.interval' = '1 h';
		SELECT n, s FROM log;`
	args := []string{"--checkpoint-dir", "checkpoints", "-e", script}
	c := startChild(t, dir, nil, args...)
	c.waitForOutput(t, "2,b")
	stderr := c.stop(t, syscall.SIGTERM)
	require.Contains(t, stderr, "wsql: 2 rows read")
	require.Regexp(t, `wsql: stopped; checkpoint 1 is in checkpoints: run the same command again to resume`, stderr)

	f, err := os.OpenFile(filepath.Join(dir, "log.csv"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("3,c\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	again := startChild(t, dir, nil, args...)
	again.waitForOutput(t, "3,c")
	stderr = again.stop(t, syscall.SIGINT)
	require.Contains(t, stderr, "resuming query 1 from checkpoint 1")
	require.Contains(t, stderr, "wsql: 3 rows read", "counted over both runs")
	require.Equal(t, "n,s\n3,c\n", again.output(t), "the resumed run reads on from the checkpoint")
}

// A signal stops a paced generator in its wait for the next row, with its
// final checkpoint; the next run continues the sequence.
func TestSignalStopsPacedGeneratorWithCheckpoint(t *testing.T) {
	dir := t.TempDir()
	const script = `
		CREATE TABLE ticks (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1',
			'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000');
		SET 'execution.checkpointing.interval' = '1 h';
		SELECT n FROM ticks;`
	args := []string{"--checkpoint-dir", "checkpoints", "-e", script}
	c := startChild(t, dir, nil, args...)
	c.waitForOutput(t, "1")
	stderr := c.stop(t, syscall.SIGINT)
	require.Regexp(t, `wsql: stopped; checkpoint \d+ is in checkpoints: run the same command again to resume`, stderr)
	first := c.output(t)

	again := startChild(t, dir, nil, args...)
	next := len(strings.Split(strings.TrimSpace(first), "\n")) // the header and rows 1..next-1
	again.waitForOutput(t, fmt.Sprint(next))
	stderr = again.stop(t, syscall.SIGTERM)
	require.Contains(t, stderr, "resuming query 1 from checkpoint")
	require.True(t, strings.HasPrefix(again.output(t), fmt.Sprintf("n\n%d\n", next)), "the resumed run goes on at row %d:\n%s", next, again.output(t))
}

// The summary of an interrupted plain filter query counts the rows read,
// not the rows the WHERE passed: 42 lines read, 3 of them results.
func TestInterruptedFilterQueryCountsEveryRowRead(t *testing.T) {
	dir := t.TempDir()
	var in strings.Builder
	for n := 1; n <= 42; n++ {
		fmt.Fprintf(&in, "%d,x\n", n)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "log.csv"), []byte(in.String()), 0o644))
	c := startChild(t, dir, nil, "-e", `
		CREATE TABLE log (n INT, s STRING) WITH ('connector' = 'filesystem', 'path' = 'log.csv',
			'format' = 'csv', 'source.monitor-interval' = '10 ms');
		SELECT n, s FROM log WHERE n % 14 = 0;`)
	c.waitForOutput(t, "42,x")
	stderr := c.stop(t, syscall.SIGINT)
	require.Contains(t, stderr, "wsql: 42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows")
}
