//go:build unix

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/pgtest"
)

// cdcCrashScript aggregates a postgres-cdc table by group into an upsert
// jdbc table, with a checkpoint every 50 ms: a change lost or read twice
// leaves a wrong sum or count.
const cdcCrashScript = `
CREATE TABLE accounts (id INT, grp STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'postgres-cdc', 'hostname' = '127.0.0.1', 'port' = '{port}', 'username' = 'postgres',
  'database-name' = '{db}', 'table-name' = 'accounts', 'slot.name' = '{db}_slot');
CREATE TABLE totals (grp STRING, total BIGINT, n BIGINT, PRIMARY KEY (grp) NOT ENFORCED)
  WITH ('connector' = 'jdbc', 'url' = '{url}', 'table-name' = 'totals');
SET 'execution.checkpointing.interval' = '50 ms';
INSERT INTO totals SELECT grp, SUM(balance), COUNT(*) FROM accounts GROUP BY grp;
`

// TestCDCCrashAndRestartEndsAsAnUninterruptedRun kills a wsql reading a
// PostgreSQL table's changes with SIGKILL, at random moments and soon
// after checkpoints, while the table keeps changing, and restarts it from
// its checkpoints: once the changes stop, the totals it upserts must be
// those of the table, as an uninterrupted run leaves them, and the slot
// must be the one the first run made, resumed from the checkpoints.
func TestCDCCrashAndRestartEndsAsAnUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times against a PostgreSQL server")
	}
	pg := pgtest.Start(t)
	db := pg.Database
	pg.Exec(t, db, `CREATE TABLE accounts (id int PRIMARY KEY, grp text NOT NULL, balance bigint NOT NULL);
ALTER TABLE accounts REPLICA IDENTITY FULL;
INSERT INTO accounts SELECT i, 'g' || (i % 5), i FROM generate_series(1, 20000) i;
CREATE TABLE totals (grp text PRIMARY KEY, total bigint, n bigint);`)
	dir := t.TempDir()
	script := strings.NewReplacer("{port}", fmt.Sprint(pg.Port), "{db}", db, "{url}", pg.JDBCURLOf(db)).Replace(cdcCrashScript)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(script), 0o644))

	// the changes, made while wsql runs and is killed (also during the
	// snapshot, several batches long): the first accounts change balance
	// and group, others come and go
	changed := make(chan struct{})
	go func() {
		defer close(changed)
		rnd := rand.New(rand.NewPCG(7, 7))
		for i := range 300 {
			var stmt string
			switch i % 4 {
			case 0:
				stmt = fmt.Sprintf("INSERT INTO accounts VALUES (%d, 'g%d', %d)", 100000+i, rnd.IntN(5), rnd.IntN(1000))
			case 1:
				stmt = fmt.Sprintf("UPDATE accounts SET balance = balance + %d WHERE id < 100 AND id %% 7 = %d", rnd.IntN(100), rnd.IntN(7))
			case 2:
				stmt = fmt.Sprintf("UPDATE accounts SET grp = 'g%d' WHERE id = %d", rnd.IntN(5), 1+rnd.IntN(30))
			default:
				stmt = fmt.Sprintf("DELETE FROM accounts WHERE id = %d", 100000+rnd.IntN(i+1))
			}
			pg.Exec(t, db, "BEGIN; "+stmt+"; UPDATE accounts SET balance = balance + 1 WHERE id = 1; COMMIT")
			time.Sleep(time.Duration(rnd.IntN(20)) * time.Millisecond)
		}
	}()
	want := func() []string {
		return pg.QueryIn(t, db, "SELECT grp, sum(balance), count(*) FROM accounts GROUP BY grp ORDER BY grp")
	}
	got := func() []string { return pg.QueryIn(t, db, "SELECT grp, total, n FROM totals ORDER BY grp") }

	kill := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	resumed, kills := 0, 0
	for {
		cmd := wsqlChild(t, dir)
		require.NoError(t, cmd.Start())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		finishing := false
		select {
		case <-changed:
			finishing = true
		default:
		}
		var wait <-chan time.Time
		stop := make(chan struct{})
		switch {
		case finishing:
			wait = time.After(time.Minute)
		case kills%2 == 0:
			wait = afterCheckpoint(dir, time.Now(), time.Duration(kill.Int64N(int64(20*time.Millisecond))), stop)
		default:
			wait = time.After(time.Duration(kill.Int64N(int64(1500 * time.Millisecond))))
		}
		if finishing {
			// the last run: it must catch up with the table
			deadline := time.Now().Add(time.Minute)
			for !slices.Equal(want(), got()) && time.Now().Before(deadline) {
				select {
				case err := <-done:
					t.Fatalf("the run ended: %v\n%s", err, cmd.Stderr)
				case <-time.After(100 * time.Millisecond):
				}
			}
		} else {
			select {
			case err := <-done:
				t.Fatalf("the run ended: %v\n%s", err, cmd.Stderr)
			case <-wait:
			}
		}
		close(stop)
		require.NoError(t, cmd.Process.Kill())
		<-done
		if resumedFrom(cmd) {
			resumed++
		}
		if finishing {
			require.Equal(t, want(), got(), "the totals after %d kills, %d runs resumed from a checkpoint\n%s", kills, resumed, cmd.Stderr)
			break
		}
		kills++
	}
	require.Greater(t, resumed, 0, "no run resumed from a checkpoint")
	require.Equal(t, []string{"1"}, pg.QueryIn(t, db, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"+db+"_slot'"))
	t.Logf("%d kills, %d runs resumed from a checkpoint", kills, resumed)
}
