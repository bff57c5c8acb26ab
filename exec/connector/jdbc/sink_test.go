package jdbc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/internal/pgtest"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// openSink plans the sink of ddl (its url '${url}' the server's) and
// opens it for a run; its writer is closed when the test ends.
func openSink(t *testing.T, pg *pgtest.Server, ddl string, run *connector.SinkRun) (*tableSink, writer.ResultWriter) {
	t.Helper()
	tbl := table(t, strings.ReplaceAll(ddl, "${url}", pg.JDBCURL()))
	ts, err := planSink(tbl, tbl.Options[0])
	require.NoError(t, err)
	s := ts.(*tableSink)
	s.Bind(tbl, tbl.Columns)
	if run == nil {
		run = &connector.SinkRun{}
	}
	run.Location = time.UTC
	w, err := s.Open(context.Background(), run)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return s, w
}

// batch builds a record of the schema's rows given as JSON.
func batch(t *testing.T, mem memory.Allocator, schema *arrow.Schema, rows string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(rows))
	require.NoError(t, err)
	return rec
}

// withKinds puts the row kinds before rec's columns, as an update stream
// comes to a sink.
func withKinds(mem memory.Allocator, rec arrow.RecordBatch, kinds ...windowop.RowKind) arrow.RecordBatch {
	k := windowop.RowKindColumn(mem, kinds)
	defer k.Release()
	fields := append([]arrow.Field{windowop.RowKindField()}, rec.Schema().Fields()...)
	cols := append([]arrow.Array{k}, rec.Columns()...)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

// TestEveryTypeRoundTrips writes a row of every type the connector maps,
// and one of NULLs, by COPY, and reads them back as PostgreSQL prints
// them.
func TestEveryTypeRoundTrips(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE every_type (
		b boolean, i1 smallint, i2 smallint, i4 integer, i8 bigint, i4w bigint, f4 real, f8 double precision, f4w double precision,
		d numeric(12,4), dneg numeric(38,10), dz numeric(5,0), s text, vc varchar(20), ch char(4), js jsonb, j json, by bytea,
		dt date, tm time, ts timestamp(3), tsn timestamp(6), ltz timestamptz, arr integer[], sarr text[])`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, w := openSink(t, pg, `CREATE TABLE every_type (
		b BOOLEAN, i1 TINYINT, i2 SMALLINT, i4 INT, i8 BIGINT, i4w INT, f4 FLOAT, f8 DOUBLE, f4w FLOAT,
		d DECIMAL(12, 4), dneg DECIMAL(38, 10), dz DECIMAL(5, 0), s STRING, vc VARCHAR(20), ch CHAR(4), js STRING, j STRING, `+"`by`"+` BYTES,
		dt DATE, tm TIME(3), ts TIMESTAMP(3), tsn TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, sarr ARRAY<STRING>
	) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'every_type')`, nil)
	rec := batch(t, mem, s.schema, `[
		{"b": true, "i1": -7, "i2": 300, "i4": -70000, "i8": 9000000000, "i4w": 5, "f4": 1.5, "f8": -2.25, "f4w": 0.5,
		 "d": "12345678.1234", "dneg": "-1234567890123456789012345678.0000000001", "dz": "0", "s": "héllo, \"w\"", "vc": "v", "ch": "ab",
		 "js": "{\"a\": [1, 2]}", "j": "{\"b\":1}", "by": "AAH/",
		 "dt": "1999-12-31", "tm": "23:59:58.123", "ts": "2024-02-29 12:34:56.789", "tsn": "1969-12-31 23:59:59.999999999",
		 "ltz": "2024-01-01T00:00:00.001Z", "arr": [1, null, 3], "sarr": ["a,b", "{x}", ""]},
		{"arr": [], "sarr": null, "d": "-0.0001", "dneg": "100", "dz": "-99999"}
	]`)
	defer rec.Release()
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	got := pg.Query(t, `SELECT b, i1, i2, i4, i8, i4w, f4, f8, f4w, d, dneg, dz, s, vc, ch, js, j, by, dt, tm, ts, tsn, ltz AT TIME ZONE 'UTC', arr, sarr FROM every_type ORDER BY b NULLS LAST`)
	require.Equal(t, []string{
		`t,-7,300,-70000,9000000000,5,1.5,-2.25,0.5,12345678.1234,-1234567890123456789012345678.0000000001,0,héllo, "w",v,ab  ,{"a": [1, 2]},{"b":1},\x0001ff,1999-12-31,23:59:58.123,2024-02-29 12:34:56.789,1969-12-31 23:59:59.999999,2024-01-01 00:00:00.001,{1,NULL,3},{"a,b","{x}",""}`,
		`NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,-0.0001,100.0000000000,-99999,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,{},NULL`,
	}, got)
}

// TestTypeMismatchNamesTheColumn: a column whose type PostgreSQL's table
// does not take, or that it lacks, is refused when the INSERT is planned
// to run (CheckRun), at the column's declaration; a PostgreSQL table that
// does not exist, at 'table-name'; a type with no PostgreSQL type at all
// is refused at plan time, at the column, with no server.
func TestTypeMismatchNamesTheColumn(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE r (id integer, name text, at timestamptz)`)
	for _, c := range []struct{ cols, msg, at string }{
		{"id BIGINT, name STRING", "table r: column id is BIGINT, but column id of PostgreSQL table r is integer; a BIGINT column is written to bigint", "1:17"},
		{"id INT, name INT", "table r: column name is INT, but column name of PostgreSQL table r is text; a INT column is written to integer, bigint", "1:25"},
		{"id INT, at TIMESTAMP(3)", "column at is TIMESTAMP(3), but column at of PostgreSQL table r is timestamp with time zone; a TIMESTAMP(3) column is written to timestamp", "1:25"},
		{"id INT, name ARRAY<STRING>", "column name is ARRAY<STRING>, but column name of PostgreSQL table r is text; a ARRAY<STRING> column is written to text[]", "1:25"},
		{"id INT, missing STRING", "table r: PostgreSQL table r has no column missing (its columns: id, name, at)", "1:25"},
	} {
		t.Run(c.cols, func(t *testing.T) {
			tbl := table(t, "CREATE TABLE r ("+c.cols+") WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'r', 'password' = 'hunter2')")
			ts, err := planSink(tbl, tbl.Options[0])
			require.NoError(t, err, "planned without a server")
			err = ts.(connector.RunChecker).CheckRun()
			require.ErrorContains(t, err, c.msg)
			require.NotContains(t, err.Error(), "hunter2")
			var serr *sql.Error
			require.ErrorAs(t, err, &serr)
			require.Equal(t, c.at, serr.Pos.String())
			// the sink checks again when it opens
			ts.Bind(tbl, tbl.Columns)
			_, err = ts.Open(context.Background(), &connector.SinkRun{Location: time.UTC})
			require.ErrorContains(t, err, c.msg)
		})
	}
	tbl := table(t, "CREATE TABLE r (id INT, m MAP<STRING, INT>) WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'r')")
	_, err := planSink(tbl, tbl.Options[0])
	require.ErrorContains(t, err, "column m of table r is MAP<STRING, INT>, which the jdbc connector cannot write to PostgreSQL")

	tbl = table(t, "CREATE TABLE nope (id INT) WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'nope')")
	ts, err := planSink(tbl, tbl.Options[0])
	require.NoError(t, err)
	err = ts.(connector.RunChecker).CheckRun()
	require.ErrorContains(t, err, `table nope: PostgreSQL table nope does not exist: relation "nope" does not exist`)
	var serr *sql.Error
	require.ErrorAs(t, err, &serr)
	require.Equal(t, tbl.Options[2].At, serr.Pos, "at 'table-name'")

	tbl = table(t, "CREATE TABLE r (id INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'r')")
	ts, err = planSink(tbl, tbl.Options[0])
	require.NoError(t, err)
	ts.Bind(tbl, tbl.Columns)
	_, err = ts.Open(context.Background(), &connector.SinkRun{Location: time.UTC})
	require.ErrorContains(t, err, `the PostgreSQL table needs a PRIMARY KEY or UNIQUE constraint on ("id"), the table's PRIMARY KEY`)
}

// TestWrongPasswordIsNotShown: a failed login names the user and the
// database, never the password.
func TestWrongPasswordIsNotShown(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE ROLE writer LOGIN PASSWORD 'right-one'; CREATE TABLE r (id integer)`)
	require.NoError(t, writeHBA(pg))
	tbl := table(t, "CREATE TABLE r (id INT) WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'r', 'username' = 'writer', 'password' = 'wrong-one')")
	ts, err := planSink(tbl, tbl.Options[0])
	require.NoError(t, err)
	ts.Bind(tbl, tbl.Columns)
	_, err = ts.Open(context.Background(), &connector.SinkRun{Location: time.UTC})
	require.ErrorContains(t, err, "table r (PostgreSQL table r at writer@127.0.0.1:")
	require.ErrorContains(t, err, "): connecting: ")
	require.ErrorContains(t, err, "password authentication failed")
	require.NotContains(t, err.Error(), "wrong-one")
}

// writeHBA asks for passwords from the user writer.
func writeHBA(pg *pgtest.Server) error { return pg.RequirePassword("writer") }

// TestUpsertAppliesEachKeysLastChange: +I and +U replace the key's row,
// -D deletes it, -U is skipped; several changes of a key within a flush
// end as the last of them, across batches and flushes.
func TestUpsertAppliesEachKeysLastChange(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE counts (w text, k bigint, n bigint, PRIMARY KEY (w, k))`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, w := openSink(t, pg, `CREATE TABLE counts (w STRING, k BIGINT, n BIGINT, PRIMARY KEY (w, k) NOT ENFORCED)
		WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'counts', 'sink.buffer-flush.max-rows' = '3', 'sink.buffer-flush.interval' = '0 s')`, nil)
	write := func(rows string, kinds ...windowop.RowKind) {
		rec := batch(t, mem, s.schema, rows)
		defer rec.Release()
		kr := withKinds(mem, rec, kinds...)
		defer kr.Release()
		require.NoError(t, w.WriteBatch(kr))
	}
	I, UB, UA, D := windowop.Insert, windowop.UpdateBefore, windowop.UpdateAfter, windowop.Delete
	write(`[{"w":"a","k":1,"n":1},{"w":"a","k":2,"n":1},{"w":"a","k":1,"n":1},{"w":"a","k":1,"n":2},{"w":"b","k":1,"n":5}]`, I, I, UB, UA, I)
	write(`[{"w":"a","k":2,"n":1},{"w":"a","k":1,"n":2},{"w":"a","k":1,"n":3},{"w":"b","k":1,"n":5},{"w":"b","k":1,"n":6}]`, D, UB, UA, D, I)
	require.Equal(t, []string{"a,1,3", "b,1,5"}, pg.Query(t, "SELECT * FROM counts ORDER BY w, k"), "two flushes of 3 rows each so far")
	require.NoError(t, w.Close())
	require.Equal(t, []string{"a,1,3", "b,1,6"}, pg.Query(t, "SELECT * FROM counts ORDER BY w, k"))
}

// TestTimedFlush: rows are written once they have waited the interval,
// without another batch or a checkpoint.
func TestTimedFlush(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE r (id bigint)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, w := openSink(t, pg, `CREATE TABLE r (id BIGINT) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'r', 'sink.buffer-flush.interval' = '20 ms')`, nil)
	rec := batch(t, mem, s.schema, `[{"id": 1}, {"id": 2}]`)
	defer rec.Release()
	require.NoError(t, w.WriteBatch(rec))
	require.Eventually(t, func() bool { return len(pg.Query(t, "SELECT * FROM r")) == 2 }, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	require.Equal(t, []string{"4"}, pg.Query(t, "SELECT count(*) FROM r"))
	require.ErrorIs(t, w.WriteBatch(rec), writer.ErrWriterClosed)
}

// TestAppendCommitsAtCheckpoints: with checkpoints, an append table's
// rows are seen only once the checkpoint after them is durable; a restart
// from a checkpoint commits the transaction it prepared if the crash came
// before the commit, and rolls back one of a checkpoint never saved.
func TestAppendCommitsAtCheckpoints(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE r (id bigint)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ddl := `CREATE TABLE r (id BIGINT) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'r', 'sink.buffer-flush.max-rows' = '1')`
	path := t.TempDir() + "/q.ckpt"
	s, w := openSink(t, pg, ddl, &connector.SinkRun{Checkpoint: &exec.Checkpointing{Path: path}})
	cw := w.(exec.CommittingWriter)
	rec := batch(t, mem, s.schema, `[{"id": 1}, {"id": 2}]`)
	defer rec.Release()
	count := func() []string { return pg.Query(t, "SELECT count(*) FROM r") }

	require.NoError(t, cw.WriteBatch(rec))
	require.Equal(t, []string{"0"}, count(), "flushed into the open transaction, not committed")
	require.NoError(t, cw.PreCommit())
	require.Equal(t, []string{"1"}, pg.Query(t, "SELECT count(*) FROM pg_prepared_xacts"))
	require.NotNil(t, snapshotOf(cw, 1))
	require.NoError(t, cw.Commit())
	require.Equal(t, []string{"2"}, count())

	// checkpoint 2 is prepared and saved, and the run dies before its
	// commit: the restart from it commits it
	require.NoError(t, cw.WriteBatch(rec))
	require.NoError(t, cw.PreCommit())
	state := snapshotOf(cw, 2)
	crash(w)
	require.Equal(t, []string{"1"}, pg.Query(t, "SELECT count(*) FROM pg_prepared_xacts"))
	require.Equal(t, []string{"2"}, count())
	_, w = openSink(t, pg, ddl, &connector.SinkRun{Checkpoint: &exec.Checkpointing{Path: path, Restore: state}})
	require.Equal(t, []string{"0"}, pg.Query(t, "SELECT count(*) FROM pg_prepared_xacts"))
	require.Equal(t, []string{"4"}, count(), "checkpoint 2's rows committed")

	// checkpoint 3 is prepared, and the run dies before it is saved: the
	// restart from checkpoint 2 rolls it back
	cw = w.(exec.CommittingWriter)
	require.NoError(t, cw.WriteBatch(rec))
	require.NoError(t, cw.PreCommit())
	require.Error(t, cw.PreCommit(), "a second checkpoint before the first is committed")
	crash(w)
	require.Equal(t, []string{"1"}, pg.Query(t, "SELECT count(*) FROM pg_prepared_xacts"))
	_, w = openSink(t, pg, ddl, &connector.SinkRun{Checkpoint: &exec.Checkpointing{Path: path, Restore: state}})
	require.Equal(t, []string{"0"}, pg.Query(t, "SELECT count(*) FROM pg_prepared_xacts"))
	require.Equal(t, []string{"4"}, count(), "checkpoint 3's rows rolled back")

	cw = w.(exec.CommittingWriter)
	require.NoError(t, cw.WriteBatch(rec))
	require.NoError(t, cw.PreCommit())
	require.NoError(t, cw.Commit())
	require.NoError(t, cw.Close())
	require.Equal(t, []string{"6"}, count())
}

// crash ends a writer's connection as a crash of wsql does: its prepared
// transaction stays, its open one is rolled back.
func crash(w writer.ResultWriter) {
	c := w.(*committingWriter)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn.Close(context.Background())
	c.conn = nil
	c.failed = errors.New("crashed")
}

// TestUpsertOfAnArrayColumnGoesThroughTheStage: a table with an ARRAY
// column is upserted through the temporary staging table, with the same
// result: each key's last change.
func TestUpsertOfAnArrayColumnGoesThroughTheStage(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE tags (id bigint PRIMARY KEY, tags text[], n integer)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, w := openSink(t, pg, `CREATE TABLE tags (id BIGINT, tags ARRAY<STRING>, n INT, PRIMARY KEY (id) NOT ENFORCED)
		WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'tags')`, nil)
	require.True(t, w.(*sinkWriter).mode.(*upsert).staged)
	rec := batch(t, mem, s.schema, `[{"id":1,"tags":["a"],"n":1},{"id":2,"tags":[],"n":1},{"id":1,"tags":["a","b"],"n":2},{"id":3,"tags":null,"n":null},{"id":2,"tags":[],"n":1}]`)
	defer rec.Release()
	kr := withKinds(mem, rec, windowop.Insert, windowop.Insert, windowop.UpdateAfter, windowop.Insert, windowop.Delete)
	defer kr.Release()
	require.NoError(t, w.WriteBatch(kr))
	require.NoError(t, w.Close())
	require.Equal(t, []string{"1,{a,b},2", "3,NULL,NULL"}, pg.Query(t, "SELECT * FROM tags ORDER BY id"))
}

// TestUpsertOverSeveralConnections: with 'sink.parallelism', each key's
// changes go to one of the connections, in order, so the table ends as
// one connection leaves it: random changes of 200 keys over batches,
// flushes and checkpoints end as each key's last change.
func TestUpsertOverSeveralConnections(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE counts (w text, k bigint, n bigint, PRIMARY KEY (w, k))`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s, w := openSink(t, pg, `CREATE TABLE counts (n BIGINT, k BIGINT, w STRING, PRIMARY KEY (w, k) NOT ENFORCED)
		WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'counts', 'sink.parallelism' = '3',
		'sink.buffer-flush.max-rows' = '40', 'sink.buffer-flush.interval' = '0 s')`, &connector.SinkRun{Checkpoint: &exec.Checkpointing{Path: "ckpt"}})
	require.Len(t, w.(committingLanes).lanes.lanes, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]int64{}
	for b := range 30 {
		var rows []string
		var kinds []windowop.RowKind
		for range 50 {
			w, k, n := string(rune('a'+rng.IntN(4))), rng.IntN(50), rng.Int64N(1000)
			key := fmt.Sprintf("%s,%d", w, k)
			kind := windowop.UpdateAfter
			switch rng.IntN(4) {
			case 0:
				kind = windowop.Delete
				delete(want, key)
			case 1:
				kind = windowop.UpdateBefore // skipped
			default:
				want[key] = n
			}
			rows = append(rows, fmt.Sprintf(`{"n":%d,"k":%d,"w":%q}`, n, k, w))
			kinds = append(kinds, kind)
		}
		rec := batch(t, mem, s.schema, "["+strings.Join(rows, ",")+"]")
		kr := withKinds(mem, rec, kinds...)
		require.NoError(t, w.WriteBatch(kr))
		kr.Release()
		rec.Release()
		if b%7 == 6 {
			require.NoError(t, w.(exec.CommittingWriter).PreCommit())
		}
	}
	require.NoError(t, w.(exec.CommittingWriter).PreCommit())
	var expected []string
	for key, n := range want {
		expected = append(expected, fmt.Sprintf("%s,%d", key, n))
	}
	sort.Strings(expected)
	got := pg.Query(t, "SELECT * FROM counts")
	sort.Strings(got)
	require.Equal(t, expected, got)
}
