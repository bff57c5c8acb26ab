package driver_test

import (
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/driver"
)

const driverClicksDDL = `CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '../testdata/examples/clicks.csv', 'format' = 'csv')`

const driverTumble = `SELECT usr,
       TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart,
       TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend,
       COUNT(*) AS n, SUM(amount) AS total
FROM clicks
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`

// driverDB opens a DB over an engine with a checked allocator; the test
// ends by closing both and checking that every Arrow buffer came back.
func driverDB(t *testing.T, opts ...wsql.Option) (*sql.DB, *wsql.Engine) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	e := wsql.New(append([]wsql.Option{wsql.WithAllocator(mem)}, opts...)...)
	db := sql.OpenDB(driver.NewConnector(e))
	t.Cleanup(func() {
		require.NoError(t, db.Close())
		require.NoError(t, e.Close())
		mem.AssertSize(t, 0)
	})
	return db, e
}

func writeDriverFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestDriverOpenDSN(t *testing.T) {
	ctx := context.Background()
	init := writeDriverFile(t, "init.sql", driverClicksDDL+";\nSET 'table.exec.emit.allow-lateness' = '1 s';\n")
	db, err := sql.Open("wsql", "batch-size=7&table.local-time-zone=Asia%2FShanghai&init="+init)
	require.NoError(t, err)
	defer db.Close()
	var n int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) AS n FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)").Scan(&n))
	require.Equal(t, int64(42), n) // none late for an hour

	var zone string
	rows, err := db.QueryContext(ctx, "SET")
	require.NoError(t, err)
	for rows.Next() {
		var k, v sql.NullString
		require.NoError(t, rows.Scan(&k, &v))
		if k.String == "table.local-time-zone" {
			zone = v.String
		}
	}
	require.NoError(t, rows.Err())
	require.Equal(t, "Asia/Shanghai", zone)

	for _, dsn := range []string{"", "table.local-time-zone=Europe/Berlin&table.exec.emit.early-fire.delay=5+s"} {
		ok, err := sql.Open("wsql", dsn)
		require.NoError(t, err, dsn)
		require.NoError(t, ok.PingContext(ctx))
		require.NoError(t, ok.Close())
	}

	bad := writeDriverFile(t, "bad.sql", "CREATE TABLE t (x INT) WITH ('connector' = 'datagen');\nCREATE TABLE t (y INT) WITH ('connector' = 'datagen');\n")
	for _, c := range []struct{ dsn, msg string }{
		{"bogus=1", `unknown DSN key "bogus"`},
		{"batch-size=0", "DSN key batch-size"},
		{"batch-size=x", "DSN key batch-size"},
		{"batch-size=1&batch-size=2", `"batch-size" is given 2 times`},
		{"table.local-time-zone=Mars%2FOlympus", "DSN key table.local-time-zone"},
		{"table.exec.emit.early-fire.enabled=maybe", "DSN key table.exec.emit.early-fire.enabled"},
		{"init=", "DSN key init"},
		{"init=" + filepath.Join(t.TempDir(), "missing.sql"), "DSN key init"},
		{"init=" + bad, "init file " + bad + ": 2:"},
		{"a=%zz", "bad DSN"},
	} {
		db, err := sql.Open("wsql", c.dsn)
		require.Nil(t, db, c.dsn)
		require.ErrorContains(t, err, c.msg, c.dsn)
	}

	// the position of an init file's error is in the file
	_, err = sql.Open("wsql", "init="+bad)
	src, _ := os.ReadFile(bad)
	require.Contains(t, wsql.FormatError(string(src), err), "CREATE TABLE t (y INT)")

	// the bare sqldriver.Driver interface: a connection with its own engine
	c, err := driver.Driver{}.Open("")
	require.NoError(t, err)
	require.NoError(t, c.Close())
}

// DDL on one connection is visible to queries on another: the DB's
// connections share one engine.
func TestDriverSharedEngineAcrossConnections(t *testing.T) {
	ctx := context.Background()
	db, e := driverDB(t)
	c1, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c1.Close()
	c2, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c2.Close()

	_, err = c1.ExecContext(ctx, driverClicksDDL)
	require.NoError(t, err)
	var n int64
	require.NoError(t, c2.QueryRowContext(ctx, "SELECT COUNT(*) AS n FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' DAY)").Scan(&n))
	require.Equal(t, int64(42), n)
	require.Equal(t, []string{"clicks"}, e.TableNames())

	// a table the program registered on the engine is seen through the DB
	require.NoError(t, e.Exec(ctx, "CREATE VIEW alice AS SELECT * FROM clicks WHERE usr = 'alice'"))
	require.NoError(t, c1.QueryRowContext(ctx, "SELECT COUNT(*) AS n FROM alice GROUP BY TUMBLE(ts, INTERVAL '1' DAY)").Scan(&n))
	require.Equal(t, int64(14), n)

	_, err = db.BeginTx(ctx, nil)
	require.ErrorContains(t, err, "transactions are not supported")

	res, err := c1.ExecContext(ctx, "DROP VIEW alice")
	require.NoError(t, err)
	_, err = res.RowsAffected()
	require.Error(t, err)
}

// The TUMBLE example scanned into Go types, and the column type methods.
func TestDriverTumbleScan(t *testing.T) {
	ctx := context.Background()
	db, e := driverDB(t, wsql.WithBatchSize(5))
	_, err := db.ExecContext(ctx, driverClicksDDL)
	require.NoError(t, err)

	rows, err := db.QueryContext(ctx, driverTumble)
	require.NoError(t, err)
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.Equal(t, []string{"usr", "wstart", "wend", "n", "total"}, cols)
	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	var names []string
	for _, ct := range types {
		names = append(names, ct.DatabaseTypeName()+" "+ct.ScanType().String())
	}
	require.Equal(t, []string{"STRING string", "TIMESTAMP(3) time.Time", "TIMESTAMP(3) time.Time", "BIGINT int64", "DOUBLE float64"}, names)
	nullable, ok := types[3].Nullable()
	require.True(t, ok)
	require.False(t, nullable) // COUNT(*) is BIGINT NOT NULL
	nullable, ok = types[0].Nullable()
	require.True(t, ok)
	require.True(t, nullable)

	type window struct {
		usr          string
		wstart, wend time.Time
		n            int64
		total        float64
	}
	var got []window
	for rows.Next() {
		var w window
		require.NoError(t, rows.Scan(&w.usr, &w.wstart, &w.wend, &w.n, &w.total))
		got = append(got, w)
	}
	require.NoError(t, rows.Err())
	require.NoError(t, rows.Close())
	require.Len(t, got, 10)
	at := func(s string) time.Time {
		tm, err := time.Parse(time.DateTime, s)
		require.NoError(t, err)
		return tm
	}
	require.Equal(t, window{"carol", at("2024-03-01 09:00:00"), at("2024-03-01 09:01:00"), 3, 68.99000000000001}, got[0])
	require.Equal(t, window{"alice", at("2024-03-01 09:03:00"), at("2024-03-01 09:04:00"), 1, 3.84}, got[9])
	require.Equal(t, time.UTC, got[0].wstart.Location())

	// closing the DB of NewConnector leaves the caller's engine open
	require.NoError(t, db.Close())
	require.NoError(t, e.Exec(ctx, "DROP TABLE clicks"))
}

// Every type of wsql as the driver gives it, NULLs included.
func TestDriverTypes(t *testing.T) {
	ctx := context.Background()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	db, _ := driverDB(t, wsql.WithLocalTimeZone(shanghai))
	csv := writeDriverFile(t, "all.csv",
		"1,2,3,4,1.5,2.25,true,héllo,-0.05,-123456789012345678901.23,2024-03-01,09:15:30,2024-03-01 09:00:00.123,1709283600000\n"+
			",,,9,,,,,,,,,,\n")
	_, err = db.ExecContext(ctx, `CREATE TABLE t (
	  i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT NOT NULL, f FLOAT, d DOUBLE, b BOOLEAN, s STRING,
	  small DECIMAL(10, 2), big DECIMAL(38, 2), dt DATE, tm TIME, ts TIMESTAMP(3), epoch BIGINT,
	  ltz AS TO_TIMESTAMP_LTZ(epoch, 3)
	) WITH ('connector' = 'filesystem', 'format' = 'csv', 'path' = ?)`, csv)
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, "SELECT i8, i16, i32, i64, f, d, b, s, small, big, dt, tm, ts, ltz FROM t")
	require.NoError(t, err)
	defer rows.Close()

	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	var got []string
	for _, ct := range types {
		got = append(got, ct.DatabaseTypeName()+" "+ct.ScanType().String())
	}
	require.Equal(t, []string{
		"TINYINT int64", "SMALLINT int64", "INT int64", "BIGINT int64", "FLOAT float64", "DOUBLE float64",
		"BOOLEAN bool", "STRING string", "DECIMAL(10, 2) string", "DECIMAL(38, 2) string", "DATE time.Time",
		"TIME(0) string", "TIMESTAMP(3) time.Time", "TIMESTAMP_LTZ(3) time.Time",
	}, got)
	p, s, ok := types[9].DecimalSize()
	require.True(t, ok)
	require.Equal(t, []int64{38, 2}, []int64{p, s})
	_, _, ok = types[0].DecimalSize()
	require.False(t, ok)

	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	require.True(t, rows.Next())
	require.NoError(t, rows.Scan(ptrs...))
	require.Equal(t, []any{
		int64(1), int64(2), int64(3), int64(4), 1.5, 2.25, true, "héllo", "-0.05", "-123456789012345678901.23",
		time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), "09:15:30",
		time.Date(2024, 3, 1, 9, 0, 0, 123e6, time.UTC), time.Date(2024, 3, 1, 17, 0, 0, 0, shanghai),
	}, vals)
	require.Equal(t, shanghai, vals[13].(time.Time).Location())

	// the empty fields are NULL
	require.True(t, rows.Next(), rows.Err())
	var i8 sql.NullInt64
	var str sql.NullString
	var ts sql.NullTime
	var i64 int64
	var rest [10]any
	dest := []any{&i8, &rest[0], &rest[1], &i64, &rest[2], &rest[3], &rest[4], &str, &rest[5], &rest[6], &rest[7], &rest[8], &ts, &rest[9]}
	require.NoError(t, rows.Scan(dest...))
	require.False(t, i8.Valid)
	require.False(t, str.Valid)
	require.False(t, ts.Valid)
	require.Equal(t, int64(9), i64)
	require.Equal(t, [10]any{}, rest)
	require.False(t, rows.Next())
	require.NoError(t, rows.Err())
}

// An update stream's op column is a string like the others.
func TestDriverUpdateStreamOp(t *testing.T) {
	ctx := context.Background()
	db, _ := driverDB(t)
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, driverClicksDDL+";\nSET 'table.exec.emit.early-fire.enabled' = 'true';\nSET 'table.exec.emit.early-fire.delay' = '0 s'")
	require.NoError(t, err)
	rows, err := conn.QueryContext(ctx, "SELECT usr, COUNT(*) AS n FROM clicks WHERE usr = 'carol' GROUP BY usr, TUMBLE(ts, INTERVAL '5' MINUTE)")
	require.NoError(t, err)
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.Equal(t, "op", cols[0])
	var ops []string
	for rows.Next() {
		var op, usr string
		var n int64
		require.NoError(t, rows.Scan(&op, &usr, &n))
		ops = append(ops, op)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"+I", "-U", "+U"}, ops[:3])

	// the op column scans into a wsql.RowKind too (a sql.Scanner)
	rows, err = conn.QueryContext(ctx, "SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr")
	require.NoError(t, err)
	var kinds []wsql.RowKind
	for rows.Next() {
		var op wsql.RowKind
		var usr string
		var n int64
		require.NoError(t, rows.Scan(&op, &usr, &n))
		kinds = append(kinds, op)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []wsql.RowKind{wsql.RowKindInsert, wsql.RowKindInsert, wsql.RowKindUpdateBefore, wsql.RowKindUpdateAfter}, kinds[:4])
}

// Cancelling the query's context stops an endless query; so does closing
// its rows early.
func TestDriverCancelEndlessQuery(t *testing.T) {
	db, _ := driverDB(t, wsql.WithBatchSize(16))
	_, err := db.ExecContext(context.Background(), "CREATE TABLE g (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '0')")
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	rows, err := db.QueryContext(ctx, "SELECT x FROM g")
	require.NoError(t, err)
	for n := 0; rows.Next(); n++ {
		if n < 100 {
			var x sql.NullInt64
			require.NoError(t, rows.Scan(&x))
		} else if n == 100 {
			// database/sql may close the rows at once: no Scan after this
			cancel()
		}
	}
	require.ErrorIs(t, rows.Err(), context.Canceled)
	require.NoError(t, rows.Close())

	rows, err = db.QueryContext(context.Background(), "SELECT x FROM g")
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, rows.Close())

	// a deadline, with nobody reading
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rows, err = db.QueryContext(ctx, "SELECT x FROM g")
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	for rows.Next() {
	}
	require.ErrorIs(t, rows.Err(), context.DeadlineExceeded)
}

// Errors are wsql's, with the position FormatError shows.
func TestDriverErrors(t *testing.T) {
	ctx := context.Background()
	db, e := driverDB(t)
	_, err := db.ExecContext(ctx, driverClicksDDL)
	require.NoError(t, err)

	q := "SELECT usr, COUNT(*) AS n\nFROM clikcs GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)"
	_, err = db.QueryContext(ctx, q)
	require.Error(t, err)
	require.Contains(t, wsql.FormatError(q, err), "error: 2:6: ")
	require.Contains(t, wsql.FormatError(q, err), "     ^")

	q = "CREATE TABLE x (a INTT) WITH ('connector' = 'datagen')"
	_, err = db.ExecContext(ctx, q)
	require.Error(t, err)
	require.Contains(t, wsql.FormatError(q, err), "^")

	_, err = db.ExecContext(ctx, "SELECT * FROM clicks")
	require.ErrorContains(t, err, "use Query")
	_, err = db.QueryContext(ctx, "DROP TABLE clicks")
	require.ErrorContains(t, err, "use Exec")

	// a failure while the query runs ends the rows with it
	_, err = db.ExecContext(ctx, "CREATE TABLE gone (x INT) WITH ('connector' = 'filesystem', 'format' = 'csv', 'path' = ?)",
		filepath.Join(t.TempDir(), "nothing-here.csv"))
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, "SELECT x FROM gone")
	if err == nil {
		require.False(t, rows.Next())
		err = rows.Err()
		rows.Close()
	}
	require.ErrorContains(t, err, "nothing-here.csv")

	// a closed engine: the pool's connections are bad, new ones refused
	require.NoError(t, e.Close())
	require.Error(t, db.PingContext(ctx))
	_, err = db.ExecContext(ctx, "DROP TABLE clicks")
	require.ErrorIs(t, err, wsql.ErrClosed)
}

// ? placeholders become literals, never inside strings, names or comments.
func TestDriverArguments(t *testing.T) {
	ctx := context.Background()
	db, _ := driverDB(t)
	_, err := db.ExecContext(ctx, driverClicksDDL)
	require.NoError(t, err)

	count := func(q string, args ...any) (int64, error) {
		var n int64
		err := db.QueryRowContext(ctx, q, args...).Scan(&n)
		return n, err
	}
	const byDay = " GROUP BY TUMBLE(ts, INTERVAL '1' DAY)"
	n, err := count("SELECT COUNT(*) AS n FROM clicks WHERE usr = ? AND amount >? AND ts >= ?"+byDay,
		"alice", 20.5, time.Date(2024, 3, 1, 9, 1, 0, 0, time.UTC))
	require.NoError(t, err)
	require.Positive(t, n)

	// a quote in a string argument stays in the string
	n, err = count("SELECT COUNT(*) AS n FROM clicks WHERE usr = ? OR usr = 'x'"+byDay, "alice' OR usr <> '")
	require.ErrorIs(t, err, sql.ErrNoRows)
	require.Zero(t, n)

	// ? in strings, quoted names and comments is text; -? does not become a comment
	var s, s2 string
	var m int64
	var f float64
	var b sql.NullBool
	q := "SELECT '?' AS `a?`, 'it''s ?' AS b, -- ?\n 1 -? AS m, /* ? */ ? * 2 AS f, ? AS nb FROM clicks WHERE usr = 'carol' AND amount < 15"
	require.NoError(t, db.QueryRowContext(ctx, q, int64(-4), 1.25, nil).Scan(&s, &s2, &m, &f, &b))
	require.Equal(t, []any{"?", "it's ?", int64(5), 2.5, false}, []any{s, s2, m, f, b.Valid})

	// a prepared statement runs anew with each set of arguments
	st, err := db.PrepareContext(ctx, "SELECT COUNT(*) AS n FROM clicks WHERE usr = ?"+byDay)
	require.NoError(t, err)
	defer st.Close()
	var alice, bob int64
	require.NoError(t, st.QueryRowContext(ctx, "alice").Scan(&alice))
	require.NoError(t, st.QueryRowContext(ctx, "bob").Scan(&bob))
	require.Equal(t, []int64{14, 13}, []int64{alice, bob})

	for _, c := range []struct {
		q    string
		args []any
		msg  string
	}{
		{"SELECT usr FROM clicks WHERE usr = ?", nil, "parameters (?) are not supported"},
		{"SELECT usr FROM clicks WHERE usr = ? AND usr = ?", []any{"a"}, "more ? placeholders than the 1 arguments"},
		{"SELECT usr FROM clicks WHERE usr = '?'", []any{"a"}, "1 arguments given for 0 ? placeholders"},
		{"SELECT usr FROM clicks WHERE usr = ?", []any{sql.Named("u", "a")}, "positional ? arguments only"},
		{"SELECT usr FROM clicks WHERE usr = ?", []any{[]byte("a")}, "argument 1: []byte"},
		{"SELECT usr FROM clicks WHERE ts = ?", []any{time.Unix(0, 1)}, "milliseconds"},
	} {
		_, err := db.QueryContext(ctx, c.q, c.args...)
		require.ErrorContains(t, err, c.msg, c.q)
	}
}

// The sqldriver.Rows contract as database/sql sees it: values, then io.EOF.
func TestDriverRowsDecimals(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	c, err := driver.NewConnector(e).Connect(ctx)
	require.NoError(t, err)
	defer c.Close()
	_, err = c.(sqldriver.ExecerContext).ExecContext(ctx, "CREATE TABLE single (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')", nil)
	require.NoError(t, err)
	r, err := c.(sqldriver.QueryerContext).QueryContext(ctx, `SELECT CAST(1.5 AS DECIMAL(5, 3)) AS a, CAST(-7 AS DECIMAL(3, 0)) AS b,
	  CAST(-0.5 AS DECIMAL(4, 2)) AS c, CAST(0 AS DECIMAL(4, 2)) AS d FROM single`, nil)
	require.NoError(t, err)
	defer r.Close()
	dest := make([]sqldriver.Value, 4)
	require.NoError(t, r.Next(dest))
	require.Equal(t, []sqldriver.Value{"1.500", "-7", "-0.50", "0.00"}, dest)
	require.Equal(t, io.EOF, r.Next(dest))
	require.NoError(t, r.Close())
}

// A ? argument cast to a DECIMAL that cannot hold it gives NULL, as in
// Flink; the constant is folded while planning, where rescaling it used
// to panic inside Arrow's decimal128 and take the program down.
func TestDriverDecimalArgumentOverflowIsNull(t *testing.T) {
	ctx := context.Background()
	db, _ := driverDB(t)
	_, err := db.ExecContext(ctx, "CREATE TABLE single (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')")
	require.NoError(t, err)
	var rescaled, fromInt, fromFloat, kept sql.NullString
	err = db.QueryRowContext(ctx, `SELECT CAST(CAST(? AS DECIMAL(38, 0)) AS DECIMAL(38, 2)) AS rescaled,
	  CAST(? AS DECIMAL(38, 20)) AS from_int, CAST(? AS DECIMAL(38, 20)) AS from_float,
	  CAST(CAST(? AS DECIMAL(38, 0)) AS DECIMAL(38, 1)) AS kept FROM single`,
		"99999999999999999999999999999999999999", int64(math.MaxInt64), 1e30, "1234567890123456789012345678901234567").
		Scan(&rescaled, &fromInt, &fromFloat, &kept)
	require.NoError(t, err)
	require.Equal(t, []sql.NullString{{}, {}, {}, {String: "1234567890123456789012345678901234567.0", Valid: true}},
		[]sql.NullString{rescaled, fromInt, fromFloat, kept})
}
