//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// waitExit requires the child to exit by itself with status 0.
func (c *signalledChild) waitExit(t *testing.T) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		t.Fatalf("wsql did not exit after its LIMIT; stdout:\n%s\nstderr:\n%s", c.output(t), c.stderr)
	}
	require.Equal(t, 0, c.cmd.ProcessState.ExitCode(), c.stderr.String())
}

// LIMIT ends the usual first query on an unbounded input: over an open,
// idle stdin pipe and over a followed file, wsql prints the rows and
// exits, the summary counting the rows read up to the last one.
func TestLimitEndsQueryOnUnboundedInput(t *testing.T) {
	var lines strings.Builder
	for n := 1; n <= 5; n++ {
		fmt.Fprintf(&lines, "%d,x\n", n)
	}
	t.Run("stdin", func(t *testing.T) {
		dir := t.TempDir()
		pr, pw, err := os.Pipe()
		require.NoError(t, err)
		defer pw.Close() // open and idle: the stream never ends
		c := startChild(t, dir, pr, "-e", `
			CREATE TABLE t (n INT, s STRING) WITH ('connector' = 'stdin', 'format' = 'csv');
			SELECT * FROM t LIMIT 3;`)
		pr.Close()
		_, err = pw.WriteString(lines.String())
		require.NoError(t, err)
		c.waitExit(t)
		require.Equal(t, "n,s\n1,x\n2,x\n3,x\n", c.output(t))
		require.Contains(t, c.stderr.String(), "wsql: 3 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows")
	})
	t.Run("followed file", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "log.csv"), []byte(lines.String()), 0o644))
		c := startChild(t, dir, nil, "-e", `
			CREATE TABLE t (n INT, s STRING) WITH ('connector' = 'filesystem', 'path' = 'log.csv',
				'format' = 'csv', 'source.monitor-interval' = '1 h');
			SELECT * FROM t WHERE n > 1 LIMIT 3;`)
		c.waitExit(t)
		require.Equal(t, "n,s\n2,x\n3,x\n4,x\n", c.output(t))
		require.Contains(t, c.stderr.String(), "wsql: 4 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows")
	})
}
