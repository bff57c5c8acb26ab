package jdbc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/internal/pgtest"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// planLookupOf plans the lookup of the table ddl declares (its url
// '${url}' the server's) by the columns keys.
func planLookupOf(t testing.TB, pg *pgtest.Server, ddl string, keys ...string) (*lookupSource, *lookup.Plan) {
	t.Helper()
	tbl := parseTable(t, strings.ReplaceAll(ddl, "${url}", pg.JDBCURL()))
	p, err := planLookup(tbl, keys)
	require.NoError(t, err)
	return p.Source.(*lookupSource), p
}

// openLookuper opens a lookuper of s, closed when the test ends.
func openLookuper(t testing.TB, s *lookupSource, mem memory.Allocator) *lookuper {
	t.Helper()
	l, err := s.Open(mem)
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	return l.(*lookuper)
}

// keyBatch is a batch of one BIGINT key column.
func keyBatch(mem memory.Allocator, keys ...int64) arrow.RecordBatch {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(keys, nil)
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, int64(len(keys)))
}

// rowsText is a batch's rows, a line each, values as Arrow prints them.
func rowsText(rec arrow.RecordBatch) []string {
	var out []string
	for i := range int(rec.NumRows()) {
		var cells []string
		for _, c := range rec.Columns() {
			cells = append(cells, c.ValueStr(i))
		}
		out = append(out, strings.Join(cells, ","))
	}
	return out
}

// TestLookupJoinQueriesOnceABatch joins batches of 4096 probe rows with a
// PostgreSQL table: the first batch's 1200 keys (1000 in the table, one
// with three rows) are one query, the second batch, of the same keys, is
// answered by the cache.
func TestLookupJoinQueriesOnceABatch(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE dim (id bigint, name text);
		INSERT INTO dim SELECT i, 'n' || i FROM generate_series(0, 999) i;
		INSERT INTO dim VALUES (7, 'seven'), (7, 'sept');
		CREATE INDEX ON dim (id)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src, plan := planLookupOf(t, pg, `CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'dim',
		'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '100000')`, "id")
	require.Equal(t, lookup.CacheOptions{Partial: true, MaxRows: 100000, CacheMissingKey: true}, plan.Cache)
	counting := &countingSource{src: src}
	probe := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	cfg := joinop.LookupKeyConfig{
		LookupFileConfig: joinop.LookupFileConfig{Kind: joinop.LeftOuter, Left: probe, Table: src.schema,
			LeftKeys: []int{0}, TableKeys: []int{0}, Clock: rowtime.NewManualClock(time.Unix(0, 0))},
		Source: counting, Cache: plan.Cache,
	}
	out := &countRows{}
	op, err := joinop.NewLookupKeyJoin(cfg, mem, out)
	require.NoError(t, err)
	defer op.Close()
	keys := make([]int64, 4096)
	for i := range keys {
		keys[i] = int64(i % 1200)
	}
	for range 2 {
		rec := keyBatch(mem, keys...)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
		rec.Release()
	}
	require.Equal(t, int64(1), counting.l.queries, "one query for the first batch, none for the second")
	// 4096 probe rows a batch: key 7's four rows each add two (it has three rows)
	sevens := 0
	for _, k := range keys {
		if k == 7 {
			sevens++
		}
	}
	require.Equal(t, int64(2*(4096+2*sevens)), out.rows)
	st := op.Stats()
	require.Equal(t, int64(1200), st.LookupMisses)
	require.Equal(t, int64(2*4096-1200), st.LookupHits)
}

// countingSource keeps the lookuper it opens.
type countingSource struct {
	src *lookupSource
	l   *lookuper
}

func (c *countingSource) Open(mem memory.Allocator) (lookup.Lookuper, error) {
	l, err := c.src.Open(mem)
	if err == nil {
		c.l = l.(*lookuper)
	}
	return l, err
}

// countRows counts the rows it gets.
type countRows struct{ rows int64 }

func (c *countRows) ProcessBatch(b pipeline.Batch) error { c.rows += b.Record.NumRows(); return nil }
func (c *countRows) ProcessWatermark(int64) error        { return nil }
func (c *countRows) ProcessEnd() error                   { return nil }
func (c *countRows) Close()                              {}

// TestLookupReconnectsAfterALostConnection: a query whose connection the
// server ended is sent again on a new one; with no retries left, the
// error names the table.
func TestLookupReconnectsAfterALostConnection(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE dim (id bigint, name text); INSERT INTO dim VALUES (1, 'one'), (2, 'two')`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, retries := range []int{1, 0} {
		src, _ := planLookupOf(t, pg, fmt.Sprintf(`CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'dim',
			'lookup.max-retries' = '%d', 'password' = 'hunter2')`, retries), "id")
		l := openLookuper(t, src, mem)
		keys := keyBatch(mem, 2, 3, 1)
		rows, err := l.Lookup(keys)
		require.NoError(t, err)
		require.ElementsMatch(t, []string{"1,one", "2,two"}, rowsText(rows))
		rows.Release()
		pg.Exec(t, pg.Database, fmt.Sprintf("SELECT pg_terminate_backend(%d)", l.conn.PID()))
		rows, err = l.Lookup(keys)
		keys.Release()
		if retries == 0 {
			require.ErrorContains(t, err, "table dim (PostgreSQL table dim at ")
			require.ErrorContains(t, err, "lookup join: looking up 3 keys: ")
			require.NotContains(t, err.Error(), "hunter2")
			continue
		}
		require.NoError(t, err)
		require.ElementsMatch(t, []string{"1,one", "2,two"}, rowsText(rows))
		rows.Release()
		require.Equal(t, int64(1), l.reconnects)
		require.Equal(t, int64(3), l.queries, "the first, the one that failed, and the one sent again")
	}
}

// TestLookupReadsEveryType writes a row of every type the connector
// maps (and one of NULLs) with the sink and looks them up by a key of two
// columns: they come back as they were written.
func TestLookupReadsEveryType(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, pg.Database, `CREATE TABLE every_type (
		k integer, b boolean, i1 smallint, i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision,
		d numeric(12,4), s text, vc varchar(20), js jsonb, by bytea, dt date, tm time, ts timestamp(3), ltz timestamptz)`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ddl := `CREATE TABLE every_type (
		k INT, b BOOLEAN, i1 TINYINT, i2 SMALLINT, i4 INT, i8 BIGINT, f4 FLOAT, f8 DOUBLE,
		d DECIMAL(12, 4), s STRING, vc VARCHAR(20), js STRING, ` + "`by`" + ` BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3)
	) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'every_type')`
	s, w := openSink(t, pg, ddl, nil)
	rec := batch(t, mem, s.schema, `[
		{"k": 1, "b": true, "i1": -7, "i2": 300, "i4": -70000, "i8": 9000000000, "f4": 1.5, "f8": -2.25,
		 "d": "12345678.1234", "s": "héllo", "vc": "v", "js": "{\"a\": [1, 2]}", "by": "AAH/",
		 "dt": "1999-12-31", "tm": "23:59:58.123", "ts": "2024-02-29 12:34:56.789", "ltz": "2024-01-01T00:00:00.001Z"},
		{"k": 2, "s": "x"}
	]`)
	defer rec.Release()
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())

	src, _ := planLookupOf(t, pg, ddl, "k", "s")
	l := openLookuper(t, src, mem)
	require.Contains(t, l.query, `("k", "s") IN (SELECT * FROM unnest($1::integer[], $2::text[]))`)
	kb := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil))
	kb.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2, 1}, nil)
	kb.Field(1).(*array.StringBuilder).AppendValues([]string{"héllo", "x", "x"}, nil)
	keys := kb.NewRecordBatch()
	kb.Release()
	defer keys.Release()
	got, err := l.Lookup(keys)
	require.NoError(t, err)
	defer got.Release()
	require.True(t, got.Schema().Equal(rec.Schema()), "%s", got.Schema())
	require.Equal(t, rowsText(rec), rowsText(got))
}

func TestLookupOptionErrors(t *testing.T) {
	for _, c := range []struct{ opts, msg, at string }{
		{"'lookup.cache' = 'SOME'", "option 'lookup.cache' must be 'NONE' or 'PARTIAL', got 'SOME'", "'lookup.cache'"},
		{"'lookup.cache' = 'FULL'", "option 'lookup.cache' = 'FULL' is not supported yet", "'lookup.cache'"},
		{"'lookup.partial-cache.max-rows' = '-1'", "option 'lookup.partial-cache.max-rows' must not be negative", "'lookup.partial-cache.max-rows'"},
		{"'lookup.partial-cache.expire-after-write' = 'soon'", "option 'lookup.partial-cache.expire-after-write' must be a duration", "'lookup.partial-cache.expire-after-write'"},
		{"'lookup.partial-cache.expire-after-access' = '1 fortnight'", "option 'lookup.partial-cache.expire-after-access' must be a duration", "'lookup.partial-cache.expire-after-access'"},
		{"'lookup.partial-cache.cache-missing-key' = 'yes'", "option 'lookup.partial-cache.cache-missing-key' must be 'true' or 'false'", "'lookup.partial-cache.cache-missing-key'"},
		{"'lookup.max-retries' = 'x'", "option 'lookup.max-retries' must be an integer", "'lookup.max-retries'"},
		{"'lookup.cache.ttl' = '-'", "option 'lookup.cache.ttl' must be a duration", "'lookup.cache.ttl'"},
		{"'lookup.partial-cache.max-row' = '1'", "unsupported option 'lookup.partial-cache.max-row' for connector 'jdbc'", "'lookup.partial-cache.max-row'"},
	} {
		t.Run(c.msg, func(t *testing.T) {
			ddl := "CREATE TABLE r (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', " + c.opts + ")"
			tbl := table(t, ddl)
			for _, plan := range []func() error{
				func() error { _, err := readConfig(tbl); return err }, // CREATE TABLE checks the sink's
				func() error { _, err := planLookup(tbl, []string{"id"}); return err },
			} {
				err := plan()
				require.ErrorContains(t, err, c.msg)
				var serr *sql.Error
				require.ErrorAs(t, err, &serr)
				require.Equal(t, strings.Index(ddl, c.at), serr.Pos.Offset, "the error's position")
			}
		})
	}
}

func TestLookupOptions(t *testing.T) {
	plan := func(opts string) lookupConfig {
		tbl := withOptions(t, "'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r'"+opts)
		p, err := planLookup(tbl, []string{"id"})
		require.NoError(t, err)
		return p.Source.(*lookupSource).lcfg
	}
	require.Equal(t, lookupConfig{cache: lookup.CacheOptions{CacheMissingKey: true}, maxRetries: 3}, plan(""))
	require.Equal(t, lookupConfig{cache: lookup.CacheOptions{Partial: true, MaxRows: 10, ExpireAfterWrite: time.Minute,
		ExpireAfterAccess: time.Second, CacheMissingKey: false}, maxRetries: 0},
		plan(`, 'lookup.cache' = 'partial', 'lookup.partial-cache.max-rows' = '10', 'lookup.partial-cache.expire-after-write' = '1 min',
		'lookup.partial-cache.expire-after-access' = '1 s', 'lookup.partial-cache.cache-missing-key' = 'false', 'lookup.max-retries' = '0'`))
	require.Equal(t, lookupConfig{cache: lookup.CacheOptions{Partial: true, MaxRows: 500, ExpireAfterWrite: 10 * time.Second}, maxRetries: 3},
		plan(`, 'lookup.cache.max-rows' = '500', 'lookup.cache.ttl' = '10 s', 'lookup.cache.caching-missing-key' = 'false'`), "Flink's legacy keys")
	require.Equal(t, "PARTIAL, max-rows=500, expire-after-write=10 s, cache-missing-key=false",
		plan(`, 'lookup.cache.max-rows' = '500', 'lookup.cache.ttl' = '10 s', 'lookup.cache.caching-missing-key' = 'false'`).cache.String())
}
