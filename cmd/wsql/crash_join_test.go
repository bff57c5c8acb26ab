//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// joinCrashScripts are joins of every kind over the crash test's input,
// each into a debezium-json sink: a FULL join of two aggregations (update
// streams, retracted as they change), an interval self-join with a window
// over it, a LEFT window join of two window aggregations, a LEFT
// event-time temporal join, an IN subquery (a semi join), and a LEFT
// lookup join with a table of files (of the events read twice, so the
// run takes several checkpoints).
var joinCrashScripts = map[string]string{
	"regular": `
CREATE VIEW counts AS SELECT usr, COUNT(*) AS n FROM events GROUP BY usr;
CREATE VIEW big AS SELECT usr, CAST(SUM(amount) AS DECIMAL(12, 1)) AS total FROM events WHERE amount > 90 GROUP BY usr;
CREATE TABLE changes (usr STRING, n BIGINT, total DECIMAL(12, 1))
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT c.usr, c.n, b.total FROM counts c FULL JOIN big b ON c.usr = b.usr;`,
	"temporal": `
CREATE TABLE versions (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE, PRIMARY KEY (usr) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE changes (usr STRING, amount DOUBLE, latest DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT e.usr, e.amount, v.amount FROM events AS e
LEFT JOIN versions FOR SYSTEM_TIME AS OF e.ts AS v ON e.usr = v.usr;`,
	"lookup": `
CREATE TABLE tiers (usr STRING, tier STRING) WITH ('connector' = 'filesystem', 'path' = '{dir}/../tiers.csv', 'format' = 'csv');
CREATE VIEW events_p AS SELECT *, PROCTIME() AS pt FROM (SELECT * FROM events UNION ALL SELECT * FROM events);
CREATE TABLE changes (usr STRING, amount DOUBLE, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT e.usr, e.amount, t.tier FROM events_p AS e
LEFT JOIN tiers FOR SYSTEM_TIME AS OF e.pt AS t ON e.usr = t.usr;`,
	"semi": `
CREATE TABLE changes (usr STRING, amount DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT usr, amount FROM events WHERE usr IN (SELECT e.usr FROM events AS e WHERE e.amount > 99);`,
	"interval": `
CREATE TABLE changes (w TIMESTAMP(3), pairs BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT TUMBLE_START(a.ts, INTERVAL '2' SECOND), COUNT(*)
FROM events a JOIN events b ON a.usr = b.usr AND b.ts BETWEEN a.ts - INTERVAL '1' SECOND AND a.ts
GROUP BY TUMBLE(a.ts, INTERVAL '2' SECOND);`,
	"window": `
CREATE TABLE changes (usr STRING, ws TIMESTAMP(3), n BIGINT, m BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/changes', 'format' = 'debezium-json');
INSERT INTO changes SELECT a.usr, a.window_start, a.n, b.n FROM
  (SELECT usr, window_start, window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY usr, window_start, window_end) a
LEFT JOIN
  (SELECT usr, window_start, window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND)) WHERE amount > 50 GROUP BY usr, window_start, window_end) b
ON a.usr = b.usr AND a.window_start = b.window_start AND a.window_end = b.window_end;`,
}

const joinCrashHeader = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
SET 'execution.checkpointing.interval' = '1 ms';
`

// Each join, crashed at each step of a checkpoint and restarted: the
// restart restores the join's rows (and what the union of its inputs held
// back), and the committed changes equal an uninterrupted run's.
func TestJoinsCrashAndRestart(t *testing.T) {
	base := t.TempDir()
	writeCrashInput(t, base, 20_000) // enough for several checkpoints of each run however fast it reads
	// One file: both inputs of a join read the table, and the rows of one
	// split come in one order, so a restart interleaves them as before.
	var all []byte
	for _, part := range []string{"part-0.csv", "part-1.csv"} {
		data, err := os.ReadFile(filepath.Join(base, "in", part))
		require.NoError(t, err)
		all = append(all, data...)
		require.NoError(t, os.Remove(filepath.Join(base, "in", part)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(base, "in", "events.csv"), all, 0o644))
	var tiers strings.Builder
	for u := range 150 { // half the users have a tier
		fmt.Fprintf(&tiers, "u%d,tier%d\n", u, u%7)
	}
	require.NoError(t, os.WriteFile(filepath.Join(base, "tiers.csv"), []byte(tiers.String()), 0o644))
	for name, body := range joinCrashScripts {
		t.Run(name, func(t *testing.T) {
			script := joinCrashHeader + body
			newRun := func(run string) string { return crashRun(t, base, name+"-"+run, script) }
			ref := newRun("ref")
			cmd := wsqlChild(t, ref)
			require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
			want, _ := committedChangelog(t, ref)
			require.NotEmpty(t, want)
			for _, step := range []string{"committed:2", "saved:2", "pre-committed:2"} {
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
		})
	}
}
