//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/s3test"
)

// Two processes on one checkpoint in an object store: the second is
// refused while the first holds the checkpoint's lease. The first killed
// with SIGKILL leaves its lease behind, and a restart is refused saying
// when it expires (then it is taken over, which the lease's own tests
// show in moments).
func TestSecondProcessOnAnObjectStoreCheckpointIsRefused(t *testing.T) {
	s3 := s3test.Start(t)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "in"), 0o755))
	var rows strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&rows, "2026-01-01 00:%02d:%02d.000,u%d,%d.5\n", i/60%60, i%60, i%7, i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "a.csv"), []byte(rows.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(strings.ReplaceAll(lockScript, "{dir}", dir)), 0o644))
	child := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "--checkpoint-dir", "s3://"+s3test.Bucket+"/ckpt", "run", filepath.Join(dir, "q.sql"))
		cmd.Env = append(os.Environ(), benchChildEnv+"=1")
		cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
		return cmd
	}
	checkpointed := regexp.MustCompile(`^ckpt/query-1-[0-9a-f]{12}\.ckpt$`)
	waitForCheckpoint := func() {
		t.Helper()
		require.Eventually(t, func() bool {
			for _, key := range s3.Keys(t) {
				if checkpointed.MatchString(key) {
					return true
				}
			}
			return false
		}, 30*time.Second, 5*time.Millisecond, "no checkpoint was written")
	}
	refused := func() string {
		t.Helper()
		cmd := child()
		err := cmd.Run()
		require.Error(t, err, "refused: %s", cmd.Stderr)
		return cmd.Stderr.(*bytes.Buffer).String()
	}

	first := child()
	require.NoError(t, first.Start())
	defer first.Process.Kill()
	waitForCheckpoint()
	stderr := refused()
	require.Contains(t, stderr, fmt.Sprintf("another process (pid %d) is running this query with the checkpoint s3://bucket/ckpt/query-1-", first.Process.Pid))
	require.NotContains(t, stderr, "resuming")

	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	stderr = refused()
	require.Contains(t, stderr, fmt.Sprintf("another process (pid %d)", first.Process.Pid))
	require.Contains(t, stderr, "if it ended without letting go, its lease expires at")
}
