package jdbc

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/internal/leakcheck"
	"github.com/wsql/wsql/internal/pgtest"
	"github.com/wsql/wsql/sql"
)

// TestSplitRanges splits bounds as Flink's
// JdbcNumericBetweenParametersProvider: ranges of ceil(count/num)
// values, the last ones one fewer, never more ranges than values.
func TestSplitRanges(t *testing.T) {
	for _, c := range []struct {
		lower, upper, num int64
		want              []valueRange
	}{
		{1, 20, 3, []valueRange{{1, 7}, {8, 14}, {15, 20}}},
		{-5, 5, 4, []valueRange{{-5, -3}, {-2, 0}, {1, 3}, {4, 5}}},
		{0, 9, 5, []valueRange{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}},
		{5, 6, 10, []valueRange{{5, 5}, {6, 6}}},
		{7, 7, 1, []valueRange{{7, 7}}},
		{-1 << 63, 1<<63 - 1, 2, []valueRange{{-1 << 63, -1}, {0, 1<<63 - 1}}},
	} {
		got := splitRanges(c.lower, c.upper, c.num)
		require.Equal(t, c.want, got, "%d..%d in %d", c.lower, c.upper, c.num)
	}
}

// TestRangeConditions: each range but the last ends before the next one
// starts, so no value between two ranges' integers is lost; the last
// includes the upper bound; dates and timestamps are literals.
func TestRangeConditions(t *testing.T) {
	tbl := table(t, `CREATE TABLE r (id BIGINT, d DATE, ts TIMESTAMP(3)) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db', 'table-name' = 'r',
		'scan.partition.column' = 'd', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '2024-01-01', 'scan.partition.upper-bound' = '2024-01-10')`)
	sc, err := readScan(tbl)
	require.NoError(t, err)
	p := sc.partition
	require.Equal(t, `"d" >= '2024-01-01' AND "d" < '2024-01-06'`, p.where(0, `"d"`))
	require.Equal(t, `"d" >= '2024-01-06' AND "d" <= '2024-01-10'`, p.where(1, `"d"`))

	tbl = table(t, `CREATE TABLE r (id BIGINT, ts TIMESTAMP(3)) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db', 'table-name' = 'r',
		'scan.partition.column' = 'ts', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '1969-12-31 23:59:59', 'scan.partition.upper-bound' = '1970-01-01 00:00:01')`)
	sc, err = readScan(tbl)
	require.NoError(t, err)
	require.Equal(t, `ts >= '1969-12-31 23:59:59' AND ts < '1970-01-01 00:00:00.000001'`, sc.partition.where(0, "ts"))
}

// TestScanOptionErrors: each bad scan option is refused at its position.
func TestScanOptionErrors(t *testing.T) {
	const head = `CREATE TABLE r (id BIGINT, name STRING, d DATE, ltz TIMESTAMP_LTZ(3)) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db', 'table-name' = 'r', `
	for _, c := range []struct{ opts, msg, at string }{
		{`'scan.partition.column' = 'id'`, "table r sets 'scan.partition.column' but not 'scan.partition.num', 'scan.partition.lower-bound', 'scan.partition.upper-bound'", "scan.partition.column"},
		{`'scan.partition.column' = 'nope', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '9'`, "option 'scan.partition.column' names column nope, which table r does not have", "scan.partition.column"},
		{`'scan.partition.column' = 'ltz', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '9'`, "a partition column of TIMESTAMP_LTZ is not supported yet", "scan.partition.column"},
		{`'scan.partition.column' = 'id', 'scan.partition.num' = '0', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '9'`, "option 'scan.partition.num' must be at least 1, got '0'", "scan.partition.num"},
		{`'scan.partition.column' = 'id', 'scan.partition.num' = 'x', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '9'`, "option 'scan.partition.num' must be an integer, got 'x'", "scan.partition.num"},
		{`'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '1.5', 'scan.partition.upper-bound' = '9'`, "option 'scan.partition.lower-bound' must be an integer for the BIGINT column id, got '1.5'", "scan.partition.lower-bound"},
		{`'scan.partition.column' = 'd', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '2024-01-01', 'scan.partition.upper-bound' = '2024-13-01'`, "option 'scan.partition.upper-bound' must be a date like '2024-01-31' for the DATE column d, got '2024-13-01'", "scan.partition.upper-bound"},
		{`'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '10', 'scan.partition.upper-bound' = '9'`, "option 'scan.partition.lower-bound' (10) is above option 'scan.partition.upper-bound' (9)", "scan.partition.lower-bound"},
		{`'scan.fetch-size' = '-1'`, "option 'scan.fetch-size' must not be negative, got '-1'", "scan.fetch-size"},
		{`'scan.auto-commit' = 'yes'`, "option 'scan.auto-commit' must be 'true' or 'false', got 'yes'", "scan.auto-commit"},
	} {
		tbl := table(t, head+c.opts+")")
		_, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 10})
		require.ErrorContains(t, err, c.msg)
		var serr *sql.Error
		require.ErrorAs(t, err, &serr)
		o, _ := tbl.Options.Lookup(c.at)
		require.Equal(t, o.At, serr.Pos, c.opts)
	}
	tbl := table(t, `CREATE TABLE r (id BIGINT, m MAP<STRING, INT>) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db', 'table-name' = 'r')`)
	_, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 10})
	require.ErrorContains(t, err, "column m of table r is MAP<STRING, INT>, which the jdbc connector cannot read from PostgreSQL")
}

// scanned is what a read delivered: the rows of each split as text,
// the steps' splits in order, the ends.
type scanned struct {
	rows    []string
	splits  []int
	ends    int
	batches int
}

// readAll plans and reads the jdbc table of ddl (its url '${url}' the
// server's), counting the statements each read sends, and checks that the
// read leaves no Arrow memory and no goroutine behind.
func readAll(t *testing.T, pg *pgtest.Server, ddl string, batchSize int) (scanned, []string) {
	t.Helper()
	before := runtime.NumGoroutine()
	defer leakcheck.Goroutines(t, before)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tbl := table(t, strings.ReplaceAll(ddl, "${url}", pg.JDBCURL()))
	src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: batchSize, Run: true})
	require.NoError(t, err)
	s := src.(*Source)
	var mu sync.Mutex
	var stmts []string
	s.onQuery = func(stmt string) {
		mu.Lock()
		defer mu.Unlock()
		stmts = append(stmts, stmt)
	}
	r, err := s.Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, s.NumSplits(), r.NumSplits())
	var out scanned
	for {
		st, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		out.splits = append(out.splits, st.Split)
		if st.End {
			out.ends++
			continue
		}
		require.LessOrEqual(t, int(st.Record.NumRows()), batchSize)
		out.batches++
		for i := range int(st.Record.NumRows()) {
			var f []string
			for _, c := range st.Record.Columns() {
				f = append(f, c.ValueStr(i))
			}
			out.rows = append(out.rows, strings.Join(f, "|"))
		}
		st.Record.Release()
	}
	require.Equal(t, int64(len(out.rows)), r.Stats().Rows)
	require.NoError(t, r.Close())
	return out, stmts
}

// TestPartitionedReadMakesAQueryARange: a read of N ranges sends N
// queries, over at most maxConnections connections, each range ended
// once; with fewer rows than the bounds span, only those inside are read.
func TestPartitionedReadMakesAQueryARange(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE nums (id integer, label text); INSERT INTO nums SELECT i, 'n' || i FROM generate_series(-10, 1010) i`)
	const ddl = `CREATE TABLE nums (id INT, label STRING) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'nums'`
	for _, c := range []struct {
		num, batch, rows int
		opts             string
	}{
		{1, 100, 1021, ""},
		{5, 64, 1000, ", 'scan.partition.column' = 'id', 'scan.partition.num' = '5', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '1000'"},
		{20, 1, 1000, ", 'scan.partition.column' = 'id', 'scan.partition.num' = '20', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '1000'"},
		{3, 4096, 1000, ", 'scan.partition.column' = 'id', 'scan.partition.num' = '3', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '1000', 'scan.fetch-size' = '7'"},
	} {
		got, stmts := readAll(t, pg, ddl+c.opts+")", c.batch)
		require.Len(t, got.rows, c.rows, c.opts)
		require.Equal(t, c.num, got.ends, "every range ends once")
		var selects int
		for _, s := range stmts {
			if strings.HasPrefix(s, "SELECT ") {
				selects++
			}
		}
		require.Equal(t, c.num, selects, "a query a range: %v", stmts)
		seen := map[string]bool{}
		for _, r := range got.rows {
			require.False(t, seen[r], "row %s read twice", r)
			seen[r] = true
		}
	}
}

// TestReadOrderIsTheSameAtEveryRead: the steps of the ranges come in
// turn, the same at every read.
func TestReadOrderIsTheSameAtEveryRead(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE nums (id integer); INSERT INTO nums SELECT generate_series(1, 300)`)
	const ddl = `CREATE TABLE nums (id INT) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'nums',
		'scan.partition.column' = 'id', 'scan.partition.num' = '12', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '300')`
	first, _ := readAll(t, pg, ddl, 7)
	for range 3 {
		again, _ := readAll(t, pg, ddl, 7)
		require.Equal(t, first, again)
	}
}

// TestPartitionsReadOneSnapshot: rows committed after the read opened
// are in none of its ranges, though the later ranges' queries start
// after the commit.
func TestPartitionsReadOneSnapshot(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE nums (id integer); INSERT INTO nums SELECT generate_series(1, 2000)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tbl := table(t, `CREATE TABLE nums (id INT) WITH ('connector' = 'jdbc', 'url' = '`+pg.JDBCURL()+`', 'table-name' = 'nums',
		'scan.partition.column' = 'id', 'scan.partition.num' = '16', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '4000')`)
	src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 1, Run: true})
	require.NoError(t, err)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	pg.Exec(t, pg.Database, `INSERT INTO nums SELECT generate_series(2001, 4000)`)
	n := 0
	for {
		st, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if st.Record != nil {
			n += int(st.Record.NumRows())
			st.Record.Release()
		}
	}
	require.Equal(t, 2000, n)
}

// TestCloseBeforeTheEnd: a read closed after its first batch releases
// what its connections built and ends their goroutines.
func TestCloseBeforeTheEnd(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE nums (id integer, s text); INSERT INTO nums SELECT i, repeat('x', i % 50) FROM generate_series(1, 100000) i`)
	before := runtime.NumGoroutine()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	tbl := table(t, `CREATE TABLE nums (id INT, s STRING) WITH ('connector' = 'jdbc', 'url' = '`+pg.JDBCURL()+`', 'table-name' = 'nums',
		'scan.partition.column' = 'id', 'scan.partition.num' = '4', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '100000')`)
	src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 100, Run: true})
	require.NoError(t, err)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	st, err := r.Next()
	require.NoError(t, err)
	st.Record.Release()
	require.NoError(t, r.Close())
	require.NoError(t, r.Close(), "Close is idempotent")
	leakcheck.Goroutines(t, before)
	mem.AssertSize(t, 0)
}

// TestValueErrorsNameTheColumn: a value the column cannot hold fails the
// read naming the column; a NULL in a NOT NULL column too.
func TestValueErrorsNameTheColumn(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE vals (id integer, amount numeric(20, 2), small smallint, d date);
		INSERT INTO vals VALUES (1, 1.5, 1, '2024-01-01'), (2, 123456.78, 300, 'infinity'), (NULL, 1, 1, NULL)`)
	for _, c := range []struct{ cols, msg string }{
		{"amount DECIMAL(5, 2)", "table vals: reading column amount (DECIMAL(5, 2)) of PostgreSQL table vals: 123456.78 does not fit DECIMAL(5, 2)"},
		{"small TINYINT", "table vals: reading column small (TINYINT) of PostgreSQL table vals: 300 is out of the range of TINYINT (-128 to 127)"},
		{"d DATE", "table vals: reading column d (DATE) of PostgreSQL table vals: infinity has no DATE value"},
		{"id INT NOT NULL", "table vals: column id is NOT NULL, but PostgreSQL table vals has a row with NULL in it"},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		tbl := table(t, `CREATE TABLE vals (`+c.cols+`) WITH ('connector' = 'jdbc', 'url' = '`+pg.JDBCURL()+`', 'table-name' = 'vals')`)
		src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 1, Run: true})
		require.NoError(t, err)
		r, err := src.Open(mem, nil)
		require.NoError(t, err)
		var readErr error
		for readErr == nil {
			var st exec.SplitBatch
			st, readErr = r.Next()
			if st.Record != nil {
				st.Record.Release()
			}
		}
		require.ErrorContains(t, readErr, c.msg)
		require.NoError(t, r.Close())
		mem.AssertSize(t, 0)
	}
}

// TestNumericRounding reads numerics into a DECIMAL of a smaller scale,
// rounded half up as Flink's DecimalData.fromBigDecimal, and of every
// size numeric(38, s) holds.
func TestNumericRounding(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE vals (v numeric); INSERT INTO vals VALUES (1.005), (-1.005), (0.004), (123456789012345678901234567890.12), (-0.5), (1e20), (0), (9999.9999)`)
	got, _ := readAll(t, pg, `CREATE TABLE vals (v DECIMAL(38, 2)) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'vals')`, 100)
	require.Equal(t, []string{"1.01", "-1.01", "0", "123456789012345678901234567890.12", "-0.5", "100000000000000000000", "0", "10000"}, trimmed(got.rows))
}

// trimmed is the decimals' text without trailing zeros of the fraction.
func trimmed(rows []string) []string {
	var out []string
	for _, r := range rows {
		if strings.Contains(r, ".") {
			r = strings.TrimRight(strings.TrimRight(r, "0"), ".")
		}
		out = append(out, r)
	}
	return out
}

// TestScanRefusesCheckpoints: a scan says why it cannot resume, before
// a query that checkpoints starts, naming the table.
func TestScanRefusesCheckpoints(t *testing.T) {
	tbl := table(t, `CREATE TABLE users (id STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db', 'table-name' = 'users')`)
	src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 10})
	require.NoError(t, err, "planned without a server")
	err = src.Checkpointable()
	require.ErrorIs(t, err, exec.ErrCheckpointUnsupported)
	require.ErrorContains(t, err, "for table users: a jdbc table is read once, whole, in one PostgreSQL snapshot")
	require.Equal(t, "connector=[jdbc], table-name=[users], splits=[1]", src.Explain())
}
