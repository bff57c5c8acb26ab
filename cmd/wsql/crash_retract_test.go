//go:build unix

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// retractCrashScript aggregates an update stream (the users' counts and
// totals) with aggregates whose retraction keeps values, arrival order or
// counts, into a debezium-json sink.
const retractCrashScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE changes (n BIGINT, first_usr STRING, last_usr STRING, low DECIMAL(12, 1), total DECIMAL(38, 1),
    spread DOUBLE, median DOUBLE, totals BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
SET 'execution.checkpointing.interval' = '1 ms';
CREATE VIEW users AS SELECT usr, COUNT(*) AS n, CAST(SUM(amount) AS DECIMAL(12, 1)) AS total FROM events GROUP BY usr;
INSERT INTO changes SELECT n, FIRST_VALUE(usr), LAST_VALUE(usr), MIN(total), SUM(total),
    STDDEV_POP(total), PERCENTILE(total, 0.5), COUNT(DISTINCT total) FROM users GROUP BY n;
`

// A GROUP BY over an update stream with retracting aggregates, crashed at
// each step of a checkpoint and restarted: the restart restores the
// aggregates' values, orders and counts, and its changes equal an
// uninterrupted run's.
func TestRetractingAggregatesCrashAndRestart(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 4_000)
	newRun := func(name string) string { return crashRun(t, base, name, retractCrashScript) }
	ref := newRun("ref")
	cmd := wsqlChild(t, ref)
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	want, _ := committedChangelog(t, ref)
	require.Contains(t, want, `"op":"d"`, "updates retract")
	for _, step := range []string{"pre-committed:2", "saved:2", "committed:2"} {
		dir := newRun(strings.ReplaceAll(step, ":", "-"))
		cmd := wsqlChild(t, dir)
		cmd.Env = append(cmd.Env, crashAtEnv+"="+step)
		require.Error(t, cmd.Run(), "the run ends at %s", step)
		again := wsqlChild(t, dir)
		require.NoError(t, again.Run(), "%s", again.Stderr)
		require.Contains(t, again.Stderr.(*bytes.Buffer).String(), "resuming query", "the restart resumes")
		got, _ := committedChangelog(t, dir)
		require.Equal(t, want, got, "crash at %s: the changes; the restart said:\n%s", step, again.Stderr)
	}
}
