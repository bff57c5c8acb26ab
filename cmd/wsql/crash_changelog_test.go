//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// changelogCrashScript writes a GROUP BY without a window, an update
// stream, to a debezium-json sink (part files of changes) and to an upsert
// csv sink (one file, rewritten at each checkpoint).
const changelogCrashScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE changes (usr STRING, n BIGINT, total DOUBLE, top DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
CREATE TABLE totals (usr STRING, n BIGINT, total DOUBLE, top DOUBLE, PRIMARY KEY (usr) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/totals.csv', 'format' = 'csv');
SET 'execution.checkpointing.interval' = '5 ms';
INSERT INTO changes SELECT usr, COUNT(*), SUM(amount), MAX(amount) FROM events GROUP BY usr;
INSERT INTO totals SELECT usr, COUNT(*), SUM(amount), MAX(amount) FROM events GROUP BY usr;
`

// committedChangelog is what a reader sees: the debezium-json part files
// in name order, concatenated, and the upsert file.
func committedChangelog(t *testing.T, dir string) (changes, totals string) {
	names, _ := filepath.Glob(filepath.Join(dir, "changes", "part-*"))
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(n)
		require.NoError(t, err)
		b.Write(data)
	}
	data, err := os.ReadFile(filepath.Join(dir, "totals.csv"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		require.NoError(t, err)
	}
	return b.String(), string(data)
}

// materialise applies debezium-json changes by their first field (the
// key): "c" puts the row of after, "d" removes it; the rows of the keys
// left, as "key:after".
func materialise(t *testing.T, changes string) map[string]string {
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(changes, "\n"), "\n") {
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, `{"before":null,"after":`):
			row := strings.TrimSuffix(strings.TrimPrefix(line, `{"before":null,"after":`), `,"op":"c"}`)
			rows[keyOf(row)] = row
		case strings.HasSuffix(line, `,"after":null,"op":"d"}`):
			row := strings.TrimSuffix(strings.TrimPrefix(line, `{"before":`), `,"after":null,"op":"d"}`)
			require.Equal(t, row, rows[keyOf(row)], "a delete retracts the row put last")
			delete(rows, keyOf(row))
		default:
			t.Fatalf("not a change of Flink's debezium-json: %s", line)
		}
	}
	return rows
}

func keyOf(row string) string { return strings.SplitN(row, ",", 2)[0] }

// A GROUP BY without a window into a debezium-json sink and into an upsert
// csv sink, killed with SIGKILL at random moments and restarted from its
// checkpoints until it finishes: the committed changes are exactly those
// of an uninterrupted run (a prefix of them at each kill), and the upsert
// file holds the same rows as theirs.
func TestChangelogSinksCrashAndRestartExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times")
	}
	base := t.TempDir()
	newRun := func(name string) string { return crashRun(t, base, name, changelogCrashScript) }
	writeCrashInput(t, base, 20_000)

	ref := newRun("ref")
	cmd := wsqlChild(t, ref)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	wantChanges, wantTotals := committedChangelog(t, ref)
	require.Contains(t, wantChanges, `"op":"d"`, "updates retract")
	final := materialise(t, wantChanges)
	require.Len(t, final, strings.Count(wantTotals, "\n"), "the upsert file has a row per key")
	for _, line := range strings.Split(strings.TrimSuffix(wantTotals, "\n"), "\n") {
		usr := strings.SplitN(line, ",", 2)[0]
		require.Contains(t, final, `{"usr":"`+usr+`"`, "the upsert file's keys are the changes' keys")
	}

	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	resumed := 0
	for round := range 2 {
		dir := newRun(fmt.Sprintf("crash-%d", round))
		kills := 0
		var log strings.Builder
		for attempt := 0; ; attempt++ {
			require.Less(t, attempt, 30, "the run never finished")
			cmd := wsqlChild(t, dir)
			err, killed := startOrKill(t, cmd, dir, kills < 4, kills%2 == 0, took, rnd)
			if killed {
				kills++
				fmt.Fprintf(&log, "attempt %d, killed:\n%s", attempt, cmd.Stderr)
				if resumedFrom(cmd) {
					resumed++
				}
				changes, _ := committedChangelog(t, dir)
				require.Truef(t, strings.HasPrefix(wantChanges, changes), "round %d, kill %d: the debezium-json sink holds changes an uninterrupted run does not have at that point", round, kills)
				continue
			}
			require.NoError(t, err, "%s", cmd.Stderr)
			fmt.Fprintf(&log, "attempt %d, finished:\n%s", attempt, cmd.Stderr)
			if resumedFrom(cmd) {
				resumed++
			}
			break
		}
		changes, totals := committedChangelog(t, dir)
		require.Equalf(t, wantChanges, changes, "round %d: the changes after %d kills; the runs said:\n%s", round, kills, log.String())
		require.Equalf(t, wantTotals, totals, "round %d: the upsert file after %d kills; the runs said:\n%s", round, kills, log.String())
		left, _ := filepath.Glob(filepath.Join(dir, "changes", ".part-*"))
		hidden, _ := filepath.Glob(filepath.Join(dir, ".totals.csv*"))
		require.Empty(t, append(left, hidden...), "no in-progress file is left")
	}
	t.Logf("%d runs resumed from a checkpoint", resumed)
	require.Positive(t, resumed, "no run resumed from a checkpoint")
}

// A crash at each step of a checkpoint of the changelog sinks (after the
// upsert file's hidden copy is written, after the checkpoint is saved,
// after the rename) is recovered from: the restart's output equals an
// uninterrupted run's.
func TestChangelogSinksCrashAtEveryCheckpointStep(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 4_000)
	// the crash comes in the script's first query: each sink's alone
	first := strings.Index(changelogCrashScript, "INSERT INTO changes")
	second := strings.Index(changelogCrashScript, "INSERT INTO totals")
	for _, c := range []struct{ name, script string }{
		{"debezium", changelogCrashScript[:second]},
		{"upsert", changelogCrashScript[:first] + changelogCrashScript[second:]},
	} {
		newRun := func(name string) string {
			return crashRun(t, base, c.name+"-"+name, strings.ReplaceAll(c.script, "'5 ms'", "'1 ms'"))
		}
		ref := newRun("ref")
		cmd := wsqlChild(t, ref)
		require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
		wantChanges, wantTotals := committedChangelog(t, ref)
		require.NotEmpty(t, wantChanges+wantTotals)
		for _, step := range []string{"pre-committed", "saved", "committed"} {
			dir := newRun(step)
			cmd := wsqlChild(t, dir)
			cmd.Env = append(cmd.Env, crashAtEnv+"="+step+":2")
			require.Error(t, cmd.Run(), "%s: the run ends at %s of checkpoint 2", c.name, step)
			again := wsqlChild(t, dir)
			require.NoError(t, again.Run(), "%s", again.Stderr)
			require.Contains(t, again.Stderr.(*bytes.Buffer).String(), "resuming query", "%s: the restart resumes", c.name)
			changes, totals := committedChangelog(t, dir)
			require.Equal(t, wantChanges, changes, "%s, crash at %s: the changes; the restart said:\n%s", c.name, step, again.Stderr)
			require.Equal(t, wantTotals, totals, "%s, crash at %s: the upsert file; the restart said:\n%s", c.name, step, again.Stderr)
		}
	}
}
