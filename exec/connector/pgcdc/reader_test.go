package pgcdc

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/internal/pgtest"
	"github.com/wsql/wsql/sql"
)

func planTable(t *testing.T, ddl string, batchSize int) (*Source, error) {
	t.Helper()
	stmts, err := sql.Parse(ddl)
	require.NoError(t, err)
	tbl, err := catalog.NewTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	conn, _ := tbl.Options.Lookup(connector.KeyConnector)
	c, ok := connector.Lookup(conn.Value)
	require.True(t, ok)
	src, err := c.PlanSource(tbl, conn, &connector.Env{BatchSize: batchSize, Run: true})
	if err != nil {
		return nil, err
	}
	return src.(*Source), nil
}

func ddl(pg *pgtest.Server, columns, more string) string {
	return fmt.Sprintf(`CREATE TABLE t (%s) WITH ('connector' = 'postgres-cdc', 'hostname' = '127.0.0.1', 'port' = '%d',
  'username' = 'postgres', 'database-name' = '%s', 'table-name' = 't', 'slot.name' = 's_%s'%s)`, columns, pg.Port, pg.Database, pg.Database, more)
}

// readRows reads r until it has handed out n rows, as "kind,values" lines.
func readRows(t *testing.T, r exec.BatchReader, n int) []string {
	t.Helper()
	var out []string
	deadline := time.Now().Add(20 * time.Second)
	for len(out) < n {
		require.True(t, time.Now().Before(deadline), "only %d rows of %d: %v", len(out), n, out)
		b, err := r.Next()
		require.NoError(t, err)
		if b.Record == nil {
			continue
		}
		for i := 0; i < int(b.Record.NumRows()); i++ {
			var f []string
			for c := 0; c < int(b.Record.NumCols()); c++ {
				col := b.Record.Column(c)
				if col.IsNull(i) {
					f = append(f, "NULL")
				} else {
					f = append(f, col.ValueStr(i))
				}
			}
			out = append(out, strings.Join(f, ","))
		}
		b.Record.Release()
	}
	return out
}

// The read hands out the snapshot as +I, then the changes; a read resumed
// from its checkpoint reuses the slot and hands out only the changes
// after it, none twice; the checkpoint made durable is confirmed to the
// server. Arrow memory ends at zero.
func TestReadSnapshotChangesAndResume(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE t (id int PRIMARY KEY, name varchar(20), score numeric(6,2), ok boolean, day date, at timestamp, f float8, b bytea, j jsonb);
ALTER TABLE t REPLICA IDENTITY FULL;
INSERT INTO t VALUES (1, 'a', 1.5, true, '2024-02-29', '2024-01-01 10:00:00.123456', 0.25, '\x0102', '{"k": 1}'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := planTable(t, ddl(pg, `id INT, name STRING, score DECIMAL(6, 2), ok BOOLEAN, day DATE, at TIMESTAMP(6), f DOUBLE, b BYTES, j STRING,
  tbl STRING METADATA FROM 'table_name', PRIMARY KEY (id) NOT ENFORCED`, ""), 2)
	require.NoError(t, err)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	require.Equal(t, []string{
		`+I,1,a,1.5,true,2024-02-29,2024-01-01T10:00:00.123456,0.25,AQI=,{"k": 1},t`,
		`+I,2,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t`,
	}, readRows(t, r, 2))
	pg.Exec(t, pg.Database, `INSERT INTO t (id, name) VALUES (3, 'c'); UPDATE t SET name = 'b' WHERE id = 2; DELETE FROM t WHERE id = 1`)
	require.Equal(t, []string{
		`+I,3,c,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t`,
		`-U,2,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t`,
		`+U,2,b,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t`,
		`-D,1,a,1.5,true,2024-02-29,2024-01-01T10:00:00.123456,0.25,AQI=,{"k": 1},t`,
	}, readRows(t, r, 4))
	// a transaction of three changes, two of them handed out when the
	// checkpoint is taken: batches of 2
	pg.Exec(t, pg.Database, `BEGIN; INSERT INTO t (id) VALUES (10); INSERT INTO t (id) VALUES (11); INSERT INTO t (id) VALUES (12); COMMIT`)
	require.Equal(t, []string{"+I,10,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t", "+I,11,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t"}, readRows(t, r, 2))
	var e checkpoint.Encoder
	require.NoError(t, r.(exec.StateReader).SaveState(&e))
	r.(exec.CheckpointListener).CheckpointComplete()
	require.NoError(t, r.Close())
	confirmed := pg.QueryIn(t, pg.Database, "SELECT confirmed_flush_lsn FROM pg_replication_slots")
	require.Len(t, confirmed, 1)
	require.NotEqual(t, "NULL", confirmed[0])

	pg.Exec(t, pg.Database, `INSERT INTO t (id) VALUES (20)`)
	r, err = src.Open(mem, checkpoint.NewDecoder(e.Data()))
	require.NoError(t, err)
	require.Equal(t, []string{"+I,12,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t", "+I,20,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,t"}, readRows(t, r, 2))
	// nothing more: no change handed out twice
	for range 3 {
		b, err := r.Next()
		require.NoError(t, err)
		require.Nil(t, b.Record)
	}
	require.NoError(t, r.Close())
	require.Equal(t, []string{"1"}, pg.QueryIn(t, pg.Database, "SELECT count(*) FROM pg_replication_slots"), "the slot is reused")
	require.Equal(t, []string{"1"}, pg.QueryIn(t, pg.Database, "SELECT count(*) FROM pg_publication_tables WHERE pubname = 'dbz_publication' AND tablename = 't'"))
}

// The table's columns are checked against PostgreSQL's when the read
// opens: a missing column, a type mismatch and the replica identity are
// errors naming what to change.
func TestOpenChecksTheTable(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE t (id int PRIMARY KEY, n bigint)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	open := func(columns string) error {
		src, err := planTable(t, ddl(pg, columns, ""), 10)
		require.NoError(t, err)
		r, err := src.Open(mem, nil)
		if err == nil {
			r.Close()
		}
		return err
	}
	err := open(`id INT, n BIGINT, PRIMARY KEY (id) NOT ENFORCED`)
	require.ErrorContains(t, err, `table "public"."t" has REPLICA IDENTITY DEFAULT, without the whole row before each update and delete, which the update stream retracts: run ALTER TABLE "public"."t" REPLICA IDENTITY FULL`)
	pg.Exec(t, pg.Database, `ALTER TABLE t REPLICA IDENTITY FULL`)
	require.ErrorContains(t, open(`id INT, n INT, PRIMARY KEY (id) NOT ENFORCED`), `column n is int32, but column n of PostgreSQL table "public"."t" is bigint: declare it BIGINT`)
	require.ErrorContains(t, open(`id INT, m INT, PRIMARY KEY (id) NOT ENFORCED`), `column m is not a column of PostgreSQL table "public"."t"`)
	require.NoError(t, open(`ID INT, N BIGINT, PRIMARY KEY (ID) NOT ENFORCED`))
}

// Option errors are at the option, with Flink CDC's names.
func TestOptionErrors(t *testing.T) {
	pg := &pgtest.Server{Port: 5432, Database: "db"}
	for _, c := range []struct{ columns, more, err string }{
		{`id INT`, ``, `1:31: a postgres-cdc table needs a PRIMARY KEY ... NOT ENFORCED`},
		{`id INT, PRIMARY KEY (id) NOT ENFORCED`, `, 'decoding.plugin.name' = 'wal2json'`, `3:3: option 'decoding.plugin.name' = 'wal2json' is not supported: postgres-cdc decodes with PostgreSQL's own plugin only ('pgoutput')`},
		{`id INT, PRIMARY KEY (id) NOT ENFORCED`, `, 'scan.startup.mode' = 'snapshot'`, `3:3: option 'scan.startup.mode' = 'snapshot' is not supported`},
		{`id INT, PRIMARY KEY (id) NOT ENFORCED`, `, 'debezium.snapshot.mode' = 'never'`, `3:3: option 'debezium.snapshot.mode' is not supported: postgres-cdc reads the write-ahead log itself`},
		{`id INT, PRIMARY KEY (id) NOT ENFORCED`, `, 'slot.nam' = 'x'`, `3:3: `},
		{`id INT, PRIMARY KEY (id) NOT ENFORCED`, `, 'heartbeat.interval.ms' = '-1'`, `3:3: option 'heartbeat.interval.ms' must be a positive number of milliseconds`},
		{`id INT, a ARRAY<INT>, PRIMARY KEY (id) NOT ENFORCED`, ``, `column a is ARRAY<INT>, which postgres-cdc cannot read yet`},
	} {
		d := strings.Replace(ddl(pg, c.columns, "\n"+c.more), "'slot.name' = 's_db'", "'slot.name' = 's'", 1)
		_, err := planTable(t, d, 10)
		require.ErrorContains(t, err, c.err, c.more)
	}
	d := strings.Replace(ddl(pg, `id INT, PRIMARY KEY (id) NOT ENFORCED`, ""), "'port' = '5432'", "'port' = '0'", 1)
	_, err := planTable(t, d, 10)
	require.ErrorContains(t, err, `1:118: option 'port' must be a port between 1 and 65535, not 0`)
	d = strings.Replace(ddl(pg, `id INT, PRIMARY KEY (id) NOT ENFORCED`, ""), "'slot.name' = 's_db'", "'slot.name' = 'My-Slot'", 1)
	_, err = planTable(t, d, 10)
	require.ErrorContains(t, err, `option 'slot.name' = 'My-Slot' is not a replication slot name`)
	d = strings.Replace(ddl(pg, `id INT, PRIMARY KEY (id) NOT ENFORCED`, ""), ", 'slot.name' = 's_db'", "", 1)
	_, err = planTable(t, d, 10)
	require.ErrorContains(t, err, `needs option 'slot.name'`)
}

// A checkpoint taken while the snapshot is handed out keeps the rows
// handed out; a restart from it takes a new snapshot and turns it into
// changes of those rows: a changed row -U and +U, a deleted one -D, the
// rows not yet handed out +I, nothing twice; the stream follows.
func TestResumeDuringTheSnapshot(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE t (id int PRIMARY KEY, name text);
ALTER TABLE t REPLICA IDENTITY FULL;
INSERT INTO t SELECT i, 'n' || i FROM generate_series(1, 5) i;`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, err := planTable(t, ddl(pg, `id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED`, ""), 2)
	require.NoError(t, err)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	first := readRows(t, r, 2)
	require.Equal(t, []string{"+I,1,n1", "+I,2,n2"}, first)
	var e checkpoint.Encoder
	require.NoError(t, r.(exec.StateReader).SaveState(&e))
	require.NoError(t, r.Close())

	pg.Exec(t, pg.Database, `UPDATE t SET name = 'changed' WHERE id = 1; DELETE FROM t WHERE id = 2; UPDATE t SET name = 'x' WHERE id = 4; INSERT INTO t VALUES (6, 'n6')`)
	r, err = src.Open(mem, checkpoint.NewDecoder(e.Data()))
	require.NoError(t, err)
	got := readRows(t, r, 7)
	slices.Sort(got)
	require.Equal(t, []string{"+I,3,n3", "+I,4,x", "+I,5,n5", "+I,6,n6", "+U,1,changed", "-D,2,n2", "-U,1,n1"}, got)
	pg.Exec(t, pg.Database, `INSERT INTO t VALUES (7, 'n7')`)
	require.Equal(t, []string{"+I,7,n7"}, readRows(t, r, 1))
	require.NoError(t, r.Close())
}
