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
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// outputScript sends two queries' results and the text of EXPLAIN and
// SHOW to --output: a TUMBLE per user, then a plain filter with many
// result rows. Checkpoints come every 5 ms. Paths are relative to the
// run's directory, so every run writes the same EXPLAIN.
const outputScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
SET 'execution.checkpointing.interval' = '5 ms';
EXPLAIN SELECT usr, amount FROM events WHERE amount > 90;
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND) AS wend, COUNT(*) AS n, SUM(amount) AS total
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
SHOW TABLES;
SELECT usr, ts, amount FROM events WHERE amount > 60;
`

// newOutputRun makes a run directory over the shared input in base.
func newOutputRun(t *testing.T, base, name, interval string) string {
	dir := filepath.Join(base, name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(base, "in"), filepath.Join(dir, "in")))
	script := strings.ReplaceAll(outputScript, "'5 ms'", "'"+interval+"'")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(script), 0o644))
	return dir
}

// outputChild starts this test binary as wsql in dir, writing --output
// in format (with checkpoints unless plain).
func outputChild(dir, format string, plain bool) *exec.Cmd {
	args := []string{"--output", "out", "--format", format}
	if !plain {
		args = append(args, "--checkpoint-dir", "checkpoints")
	}
	cmd := exec.Command(os.Args[0], append(args, "run", "q.sql")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), new(bytes.Buffer)
	return cmd
}

func readOutput(t *testing.T, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "out"))
	require.NoError(t, err)
	return string(b)
}

// committedOutput is what a killed run leaves for the restart: the
// results up to its last checkpoint, in the hidden .out.partial (or, if
// it was killed just after renaming that over it, in out), while out is
// left as it was.
func committedOutput(t *testing.T, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".out.partial"))
	if errors.Is(err, os.ErrNotExist) {
		if b, err = os.ReadFile(filepath.Join(dir, "out")); errors.Is(err, os.ErrNotExist) {
			return "" // killed before its first output
		}
	}
	require.NoError(t, err)
	return string(b)
}

var summaryRows = regexp.MustCompile(`(?m)^wsql: .*, (\d+) result rows`)

// A crash at each step of taking a checkpoint (after draining, after the
// pre-commit, after the checkpoint is saved, after the commit), of a
// query's final checkpoint and of one taken mid-run, is recovered from:
// after the restart --output holds exactly what an uninterrupted run
// (with or without checkpoints) writes, in each format that can resume,
// and the resumed query's summary counts the rows the file holds.
func TestOutputFileCrashAtEveryCheckpointStep(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 20_000)
	for _, format := range []string{"csv", "json", "table"} {
		t.Run(format, func(t *testing.T) {
			plain := outputChild(newOutputRun(t, base, format+"-plain", "1 h"), format, true)
			// without checkpoints the interval setting is refused: drop it
			script := filepath.Join(base, format+"-plain", "q.sql")
			b, err := os.ReadFile(script)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(script, []byte(strings.ReplaceAll(string(b), "SET 'execution.checkpointing.interval' = '1 h';", "")), 0o644))
			require.NoError(t, plain.Run(), "%s", plain.Stderr)
			want := readOutput(t, filepath.Join(base, format+"-plain"))
			wantRows := summaryRows.FindAllStringSubmatch(plain.Stderr.(*bytes.Buffer).String(), -1)
			require.Len(t, wantRows, 2)
			require.Greater(t, strings.Count(want, "\n"), 5000)

			ref := newOutputRun(t, base, format+"-ref", "1 h")
			cmd := outputChild(ref, format, false)
			require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
			require.True(t, want == readOutput(t, ref), "with checkpoints the file holds what a run without them writes")

			for _, c := range []struct{ interval, which string }{
				{"1 h", "1"}, // only the end of the input takes one: the final checkpoint
				{"1 ms", "3"},
			} {
				for _, step := range []string{"drained", "pre-committed", "saved", "committed"} {
					dir := newOutputRun(t, base, format+"-"+step+"-"+c.which, c.interval)
					cmd := outputChild(dir, format, false)
					cmd.Env = append(cmd.Env, crashAtEnv+"="+step+":"+c.which)
					require.Error(t, cmd.Run(), "the run ends at %s of checkpoint %s", step, c.which)
					_, err := os.Stat(filepath.Join(dir, "out"))
					require.Truef(t, errors.Is(err, os.ErrNotExist), "crash at %s of checkpoint %s: the output file is not created before the run completes", step, c.which)
					crashed := committedOutput(t, dir)
					require.Truef(t, strings.HasPrefix(want, crashed), "crash at %s of checkpoint %s: the file holds what an uninterrupted run does not", step, c.which)
					again := outputChild(dir, format, false)
					require.NoError(t, again.Run(), "%s", again.Stderr)
					stderr := again.Stderr.(*bytes.Buffer).String()
					require.Truef(t, want == readOutput(t, dir), "crash at %s of checkpoint %s: the file differs from an uninterrupted run's; the restart said:\n%s", step, c.which, stderr)
					// the summaries count the rows in the file
					got := summaryRows.FindAllStringSubmatch(stderr, -1)
					require.NotEmpty(t, got)
					for i, m := range got {
						require.Equal(t, wantRows[len(wantRows)-len(got)+i][1], m[1], "summary %d of the restart:\n%s", i, stderr)
					}
					hidden, _ := filepath.Glob(filepath.Join(dir, ".out*"))
					require.Empty(t, hidden, "no in-progress or partial file is left")
				}
			}
		})
	}
}

// kill -9 at random moments, restarting until the run finishes: at each
// kill the file holds a prefix of an uninterrupted run's output (only
// committed results are visible), and at the end exactly that output.
func TestOutputFileCrashLoopExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times")
	}
	base := t.TempDir()
	writeCrashInput(t, base, 60_000)
	ref := newOutputRun(t, base, "ref", "5 ms")
	cmd := outputChild(ref, "csv", false)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	want := readOutput(t, ref)

	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	resumed, partial := 0, 0
	for round := range 3 {
		dir := newOutputRun(t, base, fmt.Sprintf("crash-%d", round), "5 ms")
		kills := 0
		var log strings.Builder
		for attempt := 0; ; attempt++ {
			require.Less(t, attempt, 50, "the run never finished")
			cmd := outputChild(dir, "csv", false)
			err, killed := startOrKill(t, cmd, dir, kills < 5, kills%2 == 0, took, rnd)
			if killed {
				kills++
				fmt.Fprintf(&log, "attempt %d, killed:\n%s", attempt, cmd.Stderr)
				if resumedFrom(cmd) {
					resumed++
				}
				got := committedOutput(t, dir)
				require.Truef(t, strings.HasPrefix(want, got), "round %d, kill %d: the file holds output an uninterrupted run does not have", round, kills)
				if got != "" && got != want {
					partial++
				}
				continue
			}
			require.NoError(t, err, "%s", cmd.Stderr)
			fmt.Fprintf(&log, "attempt %d, finished:\n%s", attempt, cmd.Stderr)
			if resumedFrom(cmd) {
				resumed++
			}
			break
		}
		require.Truef(t, want == readOutput(t, dir), "round %d after %d kills: the file differs; the runs said:\n%s", round, kills, log.String())
	}
	t.Logf("%d runs resumed from a checkpoint; %d kills left the file partly written", resumed, partial)
	require.Positive(t, resumed, "no run resumed from a checkpoint")
}

// An Arrow IPC stream cannot be cut back to a checkpoint and continued.
func TestOutputFileArrowWithCheckpointsRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.arrow")
	code, _, stderr := runCLI(t, "", "--format", "arrow", "--output", out, "--checkpoint-dir", filepath.Join(dir, "ck"), "-e", "SELECT 1")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--format arrow cannot resume after a restart")
	_, err := os.Stat(out)
	require.True(t, errors.Is(err, os.ErrNotExist), "nothing is written")
}
