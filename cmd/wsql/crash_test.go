//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// crashScript has two queries writing to exactly-once filesystem sinks:
// a TUMBLE over two files (two splits with their own watermarks, late
// rows to a file, bad rows to a dead-letter file) and a SESSION on two
// goroutines. Checkpoints come
// every 5 ms, so a run takes many.
const crashScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE per_window (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE, top DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/per_window', 'format' = 'csv');
CREATE TABLE sessions (usr STRING, sstart TIMESTAMP(3), send TIMESTAMP(3), n BIGINT, firstv DOUBLE, vals STRING)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/sessions', 'format' = 'json');
SET 'execution.checkpointing.interval' = '5 ms';
SET 'wsql.bad-rows.path' = '{dir}/bad.csv';
SET 'wsql.late-data.path' = '{dir}/late.csv';
INSERT INTO per_window
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount), MAX(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
RESET 'wsql.late-data.path';
SET 'parallelism.default' = '2';
INSERT INTO sessions
SELECT usr, SESSION_START(ts, INTERVAL '3' SECOND), SESSION_END(ts, INTERVAL '3' SECOND),
       COUNT(DISTINCT amount), FIRST_VALUE(amount), LISTAGG(CAST(amount AS STRING))
FROM events WHERE amount < 20 GROUP BY usr, SESSION(ts, INTERVAL '3' SECOND);
`

// writeCrashInput writes two CSV files of rows out of order by up to 3 s
// (some late), over 300 users, with a bad row now and then.
func writeCrashInput(t *testing.T, dir string, rows int) {
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "in"), 0o755))
	rnd := rand.New(rand.NewPCG(1, 2))
	for f := range 2 {
		var b strings.Builder
		ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() + int64(f)*700
		for i := range rows / 2 {
			ts += int64(rnd.IntN(40))
			at := time.UnixMilli(ts - int64(rnd.IntN(3000))).UTC().Format("2006-01-02 15:04:05.000")
			if i%997 == 0 {
				fmt.Fprintf(&b, "%s,u%d,not-a-number\n", at, rnd.IntN(300))
				continue
			}
			fmt.Fprintf(&b, "%s,u%d,%d.%d\n", at, rnd.IntN(300), rnd.IntN(100), rnd.IntN(10))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "in", fmt.Sprintf("part-%d.csv", f)), []byte(b.String()), 0o644))
	}
}

// wsqlChild starts this test binary as wsql (see TestMain) on the script.
func wsqlChild(t testing.TB, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "--checkpoint-dir", filepath.Join(dir, "checkpoints"), "run", filepath.Join(dir, "q.sql"))
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
	return cmd
}

// afterCheckpoint fires delay after a checkpoint file in dir is written
// later than since.
// It gives up when stop is closed.
func afterCheckpoint(dir string, since time.Time, delay time.Duration, stop <-chan struct{}) <-chan time.Time {
	c := make(chan time.Time, 1)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			files, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
			for _, f := range files {
				if st, err := os.Stat(f); err == nil && st.ModTime().After(since) {
					time.Sleep(delay)
					c <- time.Now()
					return
				}
			}
		}
	}()
	return c
}

// resumedFrom reports whether a run continued from a checkpoint.
func resumedFrom(cmd *exec.Cmd) bool {
	s := cmd.Stderr.(*bytes.Buffer).String()
	return strings.Contains(s, "resuming query") || strings.Contains(s, "already finished")
}

// committed is what a reader of the sinks sees: the part files of each
// sink in name order, concatenated.
func committed(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for _, sink := range []string{"per_window", "sessions"} {
		names, _ := filepath.Glob(filepath.Join(dir, sink, "part-*"))
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			data, err := os.ReadFile(n)
			require.NoError(t, err)
			b.Write(data)
		}
		out[sink] = b.String()
	}
	return out
}

// crashRun is the directory of one run under base: the shared input
// linked as in/, and script, with {dir} replaced by the directory, as
// q.sql.
func crashRun(t *testing.T, base, name, script string) string {
	dir := filepath.Join(base, name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(base, "in"), filepath.Join(dir, "in")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(strings.ReplaceAll(script, "{dir}", dir)), 0o644))
	return dir
}

// TestCrashAndRestartCommitsExactlyOnce kills a running wsql with SIGKILL
// at random moments and restarts it from its checkpoints until it
// finishes: every sink's committed output must then equal that of an
// uninterrupted run, and at each kill what is committed must be a prefix
// of it (nothing visible is ever taken back or repeated).
func TestCrashAndRestartCommitsExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times")
	}
	base := t.TempDir()
	newRun := func(name string) string { return crashRun(t, base, name, crashScript) }
	writeCrashInput(t, base, 60_000)

	// the uninterrupted run, timed to choose kill points
	ref := newRun("ref")
	cmd := wsqlChild(t, ref)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	want := committed(t, ref)
	wantBad, err := os.ReadFile(filepath.Join(ref, "bad.csv"))
	require.NoError(t, err)
	wantLate, err := os.ReadFile(filepath.Join(ref, "late.csv"))
	require.NoError(t, err)
	require.Greater(t, strings.Count(string(wantLate), "\n"), 1, "some rows are late")
	require.NotEmpty(t, want["per_window"])
	require.NotEmpty(t, want["sessions"])
	require.NotEmpty(t, wantBad)
	t.Logf("uninterrupted run: %v, %d + %d bytes of results", took, len(want["per_window"]), len(want["sessions"]))

	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	resumed, partial := 0, 0
	for round := range 4 {
		dir := newRun(fmt.Sprintf("crash-%d", round))
		kills := 0
		var last *exec.Cmd
		var log strings.Builder // each attempt's notices, for a failure message
		for attempt := 0; ; attempt++ {
			require.Less(t, attempt, 50, "the run never finished")
			cmd := wsqlChild(t, dir)
			last = cmd
			// Odd kills come at a random moment of the run; even ones soon
			// after this attempt wrote a checkpoint.
			err, killed := startOrKill(t, cmd, dir, kills < 5, kills%2 == 0, took, rnd)
			if killed {
				kills++
				fmt.Fprintf(&log, "attempt %d, killed:\n%s", attempt, cmd.Stderr)
				if resumedFrom(cmd) {
					resumed++
				}
				t.Logf("round %d: killed (kill %d)", round, kills)
				got := committed(t, dir)
				for sink, w := range want {
					require.Truef(t, strings.HasPrefix(w, got[sink]), "round %d, kill %d: %s holds output an uninterrupted run does not have at that point", round, kills, sink)
					if got[sink] != "" && got[sink] != w {
						partial++
					}
				}
				continue
			}
			require.NoError(t, err, "%s", cmd.Stderr)
			fmt.Fprintf(&log, "attempt %d, finished:\n%s", attempt, cmd.Stderr)
			break
		}
		if resumedFrom(last) {
			resumed++
		}
		got := committed(t, dir)
		for sink := range want {
			require.Equalf(t, want[sink], got[sink], "round %d: %s after %d kills; the runs said:\n%s", round, sink, kills, log.String())
		}
		bad, err := os.ReadFile(filepath.Join(dir, "bad.csv"))
		require.NoError(t, err)
		require.Equal(t, string(wantBad), string(bad), "round %d: the dead-letter file", round)
		late, err := os.ReadFile(filepath.Join(dir, "late.csv"))
		require.NoError(t, err)
		require.Equal(t, string(wantLate), string(late), "round %d: the late-data file", round)
		inprogress, _ := filepath.Glob(filepath.Join(dir, "*", ".part-*"))
		require.Empty(t, inprogress, "no in-progress part file is left")
	}
	t.Logf("%d runs resumed from a checkpoint; %d kills left a sink partly committed", resumed, partial)
	require.Positive(t, resumed, "no run resumed from a checkpoint: the kills came too early or too late")
}

// SIGTERM stops a run with a checkpoint; running the command again
// finishes it, and the output is that of an uninterrupted run.
func TestSigtermCheckpointsAndResumes(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 60_000)
	dirs := map[string]string{}
	for _, name := range []string{"ref", "stopped"} {
		dir := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.Symlink(filepath.Join(base, "in"), filepath.Join(dir, "in")))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(strings.ReplaceAll(crashScript, "{dir}", dir)), 0o644))
		dirs[name] = dir
	}
	ref := wsqlChild(t, dirs["ref"])
	require.NoError(t, ref.Run(), "%s", ref.Stderr)

	// The run holds at its first periodic checkpoint until the signal
	// cancels it, so SIGTERM always arrives while the run is in progress.
	cmd := wsqlChild(t, dirs["stopped"])
	paused := filepath.Join(base, "paused")
	cmd.Env = append(cmd.Env, pauseAtEnv+"="+paused)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(time.Minute)
	for {
		if _, err := os.Stat(paused); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before its first checkpoint:\n%s", err, cmd.Stderr)
		case <-deadline:
			require.NoError(t, cmd.Process.Kill())
			<-done
			t.Fatalf("the run took no checkpoint within a minute:\n%s", cmd.Stderr)
		case <-time.After(time.Millisecond):
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := <-done
	stderr := cmd.Stderr.(*bytes.Buffer).String()
	require.Error(t, err, "the run was stopped: %s", stderr)
	require.Equal(t, 130, cmd.ProcessState.ExitCode(), stderr)
	require.Regexp(t, `stopped; checkpoint \d+ is in .*: run the same command again to resume`, stderr)

	again := wsqlChild(t, dirs["stopped"])
	require.NoError(t, again.Run(), "%s", again.Stderr)
	require.Contains(t, again.Stderr.(*bytes.Buffer).String(), "resuming query")
	require.Equal(t, committed(t, dirs["ref"]), committed(t, dirs["stopped"]))
}

// A crash at each step of taking a checkpoint (after draining, after the
// sink's pre-commit, after the file is saved, after the commit), of a
// query's final checkpoint and of one taken mid-run, is recovered from:
// the restarted run's committed output equals an uninterrupted run's.
func TestCrashAtEveryCheckpointStep(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 20_000)
	newRun := func(name, interval string) string {
		return crashRun(t, base, name, strings.ReplaceAll(crashScript, "'5 ms'", "'"+interval+"'"))
	}
	ref := newRun("ref", "1 h")
	cmd := wsqlChild(t, ref)
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	want := committed(t, ref)

	for _, c := range []struct{ interval, which string }{
		{"1 h", "1"}, // only the end of the input takes one: the final checkpoint
		{"1 ms", "3"},
	} {
		for _, step := range []string{"drained", "pre-committed", "saved", "committed"} {
			dir := newRun(step+"-"+c.which, c.interval)
			cmd := wsqlChild(t, dir)
			cmd.Env = append(cmd.Env, crashAtEnv+"="+step+":"+c.which)
			require.Error(t, cmd.Run(), "the run ends at %s of checkpoint %s", step, c.which)
			again := wsqlChild(t, dir)
			require.NoError(t, again.Run(), "%s", again.Stderr)
			got := committed(t, dir)
			for sink := range want {
				require.Truef(t, want[sink] == got[sink], "crash at %s of checkpoint %s: %s differs; the restart said:\n%s", step, c.which, sink, again.Stderr)
			}
		}
	}
}

// crashLoop runs the wsql child of dir until a run finishes: the first
// kills runs are killed (every other one soon after a checkpoint), and
// afterKill checks what is committed after each kill, given its number.
// It returns how many runs resumed from a checkpoint.
func crashLoop(t *testing.T, dir string, kills int, took time.Duration, rnd *rand.Rand, afterKill func(kill int)) (resumed int) {
	t.Helper()
	killed := 0
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 50, "the run never finished")
		cmd := wsqlChild(t, dir)
		err, wasKilled := startOrKill(t, cmd, dir, killed < kills, killed%2 == 0, took, rnd)
		if resumedFrom(cmd) {
			resumed++
		}
		if wasKilled {
			killed++
			afterKill(killed)
			continue
		}
		require.NoError(t, err, "%s", cmd.Stderr)
		return resumed
	}
}

// startOrKill starts cmd and, unless kill is false, kills it with SIGKILL:
// at a random moment within took, or (atCheckpoint) soon after it wrote a
// checkpoint into dir, so that the restarts resume from one, under -race
// too. It returns the run's error when the run finished, and killed when
// the kill stopped it.
func startOrKill(t *testing.T, cmd *exec.Cmd, dir string, kill, atCheckpoint bool, took time.Duration, rnd *rand.Rand) (err error, killed bool) {
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if !kill {
		return <-done, false
	}
	stop := make(chan struct{})
	defer close(stop)
	wait := time.After(time.Duration(rnd.Int64N(int64(took))))
	if atCheckpoint {
		wait = afterCheckpoint(dir, time.Now(), time.Duration(rnd.Int64N(int64(20*time.Millisecond))), stop)
	}
	select {
	case err = <-done:
		return err, false
	case <-wait:
	}
	if serr := cmd.Process.Signal(syscall.SIGKILL); errors.Is(serr, os.ErrProcessDone) {
		return <-done, false // it finished as it was killed
	}
	<-done
	return nil, true
}
