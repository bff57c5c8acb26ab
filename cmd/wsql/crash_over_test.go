//go:build unix

package main

import (
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

// overCrashScript writes an OVER aggregation (ROWS and RANGE frames on
// one rowtime; late rows dropped) to an exactly-once csv sink.
const overCrashScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE moving (usr STRING, ts TIMESTAMP(3), amount DOUBLE, last4 DOUBLE, n BIGINT, top DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/moving', 'format' = 'csv');
CREATE TABLE recent (usr STRING, ts TIMESTAMP(3), total DOUBLE, n BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '{dir}/recent', 'format' = 'csv');
SET 'execution.checkpointing.interval' = '5 ms';
INSERT INTO moving SELECT usr, ts, amount, SUM(amount) OVER w, COUNT(*) OVER w, MAX(amount) OVER w
FROM events WINDOW w AS (PARTITION BY usr ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW);
INSERT INTO recent SELECT usr, ts,
  SUM(amount) OVER (PARTITION BY usr ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW),
  COUNT(*) OVER (PARTITION BY usr ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW)
FROM events;
`

// committedOver is what a reader of the two sinks sees.
func committedOver(t *testing.T, dir string) string {
	var b strings.Builder
	for _, sink := range []string{"moving", "recent"} {
		names, _ := filepath.Glob(filepath.Join(dir, sink, "part-*"))
		sort.Strings(names)
		fmt.Fprintf(&b, "-- %s\n", sink)
		for _, n := range names {
			data, err := os.ReadFile(n)
			require.NoError(t, err)
			b.Write(data)
		}
	}
	return b.String()
}

// An OVER aggregation killed with SIGKILL at random moments and restarted
// from its checkpoints until it finishes commits exactly the rows of an
// uninterrupted run: its frames, the rows waiting for the watermark and
// its accumulators are in the checkpoints.
func TestOverAggregationCrashAndRestartExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times")
	}
	base := t.TempDir()
	newRun := func(name string) string { return crashRun(t, base, name, overCrashScript) }
	writeCrashInput(t, base, 20_000)
	ref := newRun("ref")
	cmd := wsqlChild(t, ref)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	want := committedOver(t, ref)
	require.Greater(t, strings.Count(want, "\n"), 30_000, "both sinks have a row per row on time")

	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	resumed, kills := 0, 0
	dir := newRun("crash")
	var log strings.Builder
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 30, "the run never finished")
		cmd := wsqlChild(t, dir)
		err, killed := startOrKill(t, cmd, dir, kills < 4, kills%2 == 0, took, rnd)
		if resumedFrom(cmd) {
			resumed++
		}
		if killed {
			kills++
			fmt.Fprintf(&log, "attempt %d, killed:\n%s", attempt, cmd.Stderr)
			got := committedOver(t, dir)
			for _, part := range strings.SplitAfter(got, "-- recent\n") {
				part = strings.TrimSuffix(part, "-- recent\n")
				require.Contains(t, want, part, "kill %d: a sink holds rows an uninterrupted run does not have at that point", kills)
			}
			continue
		}
		require.NoError(t, err, "%s", cmd.Stderr)
		break
	}
	require.Equalf(t, want, committedOver(t, dir), "after %d kills; the runs said:\n%s", kills, log.String())
	t.Logf("%d kills, %d runs resumed from a checkpoint", kills, resumed)
	require.Positive(t, resumed, "no run resumed from a checkpoint")
}
