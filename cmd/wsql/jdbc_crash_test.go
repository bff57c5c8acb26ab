//go:build unix

package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/pgtest"
)

// jdbcCrashScript writes PostgreSQL with a checkpoint every 5 ms: a
// TUMBLE per user with early firing on every row and late firing,
// upserted by its key (each checkpoint flushes the changes), and the
// large events appended (a transaction per checkpoint, prepared before
// the checkpoint is saved and committed after).
const jdbcCrashScript = `
CREATE TABLE events (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{dir}/in', 'format' = 'csv',
        'csv.ignore-parse-errors' = 'true');
CREATE TABLE per_window (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE, PRIMARY KEY (usr, wend) NOT ENFORCED)
  WITH ('connector' = 'jdbc', 'url' = '{url}', 'table-name' = 'per_window');
CREATE TABLE big_events (ts TIMESTAMP(3), usr STRING, amount DOUBLE)
  WITH ('connector' = 'jdbc', 'url' = '{url}', 'table-name' = 'big_events', 'sink.buffer-flush.max-rows' = '50');
SET 'execution.checkpointing.interval' = '5 ms';
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '2 s';
INSERT INTO per_window
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
INSERT INTO big_events SELECT ts, usr, amount FROM events WHERE amount >= 90;
`

// jdbcTables are the two tables as text, sorted.
var jdbcTables = map[string]string{
	"per_window": "SELECT usr, wend, n, total FROM per_window ORDER BY usr, wend",
	"big_events": "SELECT ts, usr, amount FROM big_events ORDER BY ts, usr, amount",
}

// TestJDBCCrashAndRestartEndsAsAnUninterruptedRun kills a wsql that
// upserts window results into PostgreSQL and appends rows to another
// table, with SIGKILL at random moments and soon after checkpoints, and
// restarts it from its checkpoints until it finishes: both tables must
// then hold exactly what an uninterrupted run leaves, and at each kill
// the append table only rows of that run, none twice, and no prepared
// transaction may be left behind at the end. It needs a PostgreSQL
// server (internal/pgtest) and fails without one.
func TestJDBCCrashAndRestartEndsAsAnUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times against a PostgreSQL server")
	}
	pg := pgtest.Start(t)
	base := t.TempDir()
	writeCrashInput(t, base, 40_000)
	newRun := func(name string) (dir, db string) {
		db = pg.NewDatabase(t)
		pg.Exec(t, db, `CREATE TABLE per_window (usr text, wend timestamp(3), n bigint, total double precision, PRIMARY KEY (usr, wend));
			CREATE TABLE big_events (ts timestamp(3), usr text, amount double precision)`)
		script := strings.ReplaceAll(jdbcCrashScript, "{url}", pg.JDBCURLOf(db))
		return crashRun(t, base, name, script), db
	}
	read := func(db, table string) []string { return pg.QueryIn(t, db, jdbcTables[table]) }

	ref, refDB := newRun("ref")
	cmd := wsqlChild(t, ref)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	want := map[string][]string{}
	for table := range jdbcTables {
		want[table] = read(refDB, table)
		require.Greater(t, len(want[table]), 100, table)
	}
	t.Logf("uninterrupted run: %v, %d windows, %d large events", took, len(want["per_window"]), len(want["big_events"]))

	kill := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	resumed := 0
	for round := range 3 {
		dir, db := newRun(fmt.Sprintf("crash-%d", round))
		resumed += crashLoop(t, dir, 5, took, kill, func(kills int) {
			got := read(db, "big_events")
			require.Subsetf(t, want["big_events"], got, "round %d, kill %d: the append table holds a row an uninterrupted run does not write", round, kills)
			require.Equalf(t, len(got), len(slices.Compact(slices.Clone(got))), "round %d, kill %d: a row committed twice", round, kills)
		})
		for table := range jdbcTables {
			require.Equalf(t, want[table], read(db, table), "round %d, table %s, after the kills", round, table)
		}
		require.Equal(t, []string{"0"}, pg.QueryIn(t, db, "SELECT count(*) FROM pg_prepared_xacts"), "round %d: a prepared transaction left", round)
	}
	t.Logf("%d runs resumed from a checkpoint", resumed)
}
