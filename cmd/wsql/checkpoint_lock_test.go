//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// lockScript follows a file (it never ends on its own) into an
// exactly-once sink, with a checkpoint every 10 ms.
const lockScript = `
CREATE TABLE events (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv', 'source.monitor-interval' = '10 ms');
CREATE TABLE per_window (usr STRING, wend TIMESTAMP(3), n BIGINT)
WITH ('connector' = 'filesystem', 'path' = '{dir}/per_window', 'format' = 'csv');
SET 'execution.checkpointing.interval' = '10 ms';
INSERT INTO per_window SELECT usr, TUMBLE_END(ts, INTERVAL '1' SECOND), COUNT(*)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '1' SECOND);
`

// waitForCheckpoint waits until a checkpoint of query 1 is written after
// since, and returns its path.
func waitForCheckpoint(t *testing.T, dir string, since time.Time) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "query-1-*.ckpt"))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.ModTime().After(since) {
				return f
			}
		}
	}
	t.Fatal("no checkpoint was written")
	return ""
}

// Two processes on one checkpoint directory: the second is refused while
// the first runs the query, naming the checkpoint and the process holding
// it, and writes nothing. Once the first is killed with SIGKILL (its lock
// file stays behind), a restart is not blocked: it resumes.
func TestSecondProcessOnACheckpointIsRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "in"), 0o755))
	var rows strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&rows, "2026-01-01 00:%02d:%02d.000,u%d,%d.5\n", i/60%60, i%60, i%7, i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "a.csv"), []byte(rows.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(strings.ReplaceAll(lockScript, "{dir}", dir)), 0o644))

	first := wsqlChild(t, dir)
	start := time.Now()
	require.NoError(t, first.Start())
	defer first.Process.Kill()
	ckpt := waitForCheckpoint(t, dir, start)

	second := wsqlChild(t, dir)
	require.NoError(t, second.Start())
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case err := <-done:
		require.Error(t, err, "the second process must be refused")
	case <-time.After(20 * time.Second):
		second.Process.Kill()
		<-done
		t.Fatalf("the second process was not refused; it ran beside the first:\n%s", second.Stderr)
	}
	stderr := second.Stderr.(*bytes.Buffer).String()
	require.Contains(t, stderr, fmt.Sprintf("another process (pid %d) is running this query with the checkpoint %s", first.Process.Pid, ckpt))
	require.Contains(t, stderr, "a checkpoint has one writer at a time")
	require.NotContains(t, stderr, "resuming")

	// killed with SIGKILL, the first leaves its lock file behind; the
	// kernel released the lock itself
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	require.FileExists(t, ckpt+".lock")

	third := wsqlChild(t, dir)
	restart := time.Now()
	require.NoError(t, third.Start())
	defer third.Process.Kill()
	waitForCheckpoint(t, dir, restart)
	require.NoError(t, third.Process.Signal(syscall.SIGTERM))
	_ = third.Wait()
	stderr = third.Stderr.(*bytes.Buffer).String()
	require.Contains(t, stderr, "resuming query 1", stderr)
	require.NotContains(t, stderr, "another process")
}
