package jdbc

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// table declares a table from its DDL.
func table(t *testing.T, ddl string) *catalog.Table { return parseTable(t, ddl) }

func parseTable(t testing.TB, ddl string) *catalog.Table {
	t.Helper()
	stmts, err := sql.Parse(ddl)
	require.NoError(t, err)
	tbl, err := catalog.NewTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	return tbl
}

// withOptions is a table of two columns with the WITH options given.
func withOptions(t *testing.T, opts string) *catalog.Table {
	return table(t, "CREATE TABLE r (id BIGINT, name STRING) WITH ('connector' = 'jdbc', "+opts+")")
}

func TestJDBCURLs(t *testing.T) {
	for _, c := range []struct{ url, user, host, db string }{
		{"jdbc:postgresql://db.example:6543/shop", "", "db.example:6543", "shop"},
		{"jdbc:postgresql://localhost/shop?user=ann&password=s3cret&sslmode=disable", "ann", "localhost:5432", "shop"},
		{"jdbc:postgresql:shop?user=bo", "bo", "localhost:5432", "shop"},
		{"postgres://cy:pw@127.0.0.1:5999/orders?sslmode=disable", "cy", "127.0.0.1:5999", "orders"},
		{"host=/run/pg port=5433 dbname=orders user=di sslmode=disable", "di", "/run/pg", "orders"},
	} {
		t.Run(c.url, func(t *testing.T) {
			cfg, err := readConfig(withOptions(t, "'url' = '"+c.url+"', 'table-name' = 'results'"))
			require.NoError(t, err)
			if c.user != "" {
				require.Equal(t, c.user, cfg.conn.User)
			}
			require.Equal(t, c.db, cfg.conn.Database)
			require.True(t, strings.HasSuffix(cfg.shown, "@"+c.host+"/"+c.db), cfg.shown)
			require.NotContains(t, cfg.shown, "s3cret")
			require.NotContains(t, cfg.shown, "pw")
		})
	}
	cfg, err := readConfig(withOptions(t, "'url' = 'jdbc:postgresql://h/d?ApplicationName=wsql&currentSchema=reports&connectTimeout=3', 'table-name' = 'x'"))
	require.NoError(t, err)
	require.Equal(t, "wsql", cfg.conn.RuntimeParams["application_name"])
	require.Equal(t, "reports", cfg.conn.RuntimeParams["search_path"])
	require.Equal(t, 3*time.Second, cfg.conn.ConnectTimeout)
}

func TestOptions(t *testing.T) {
	cfg, err := readConfig(withOptions(t, `'url' = 'jdbc:postgresql://h/d?user=u&password=p', 'table-name' = 'public.results',
		'username' = 'writer', 'password' = 'hunter2', 'sink.buffer-flush.max-rows' = '100',
		'sink.buffer-flush.interval' = '200 ms', 'sink.max-retries' = '0', 'driver' = 'org.postgresql.Driver'`))
	require.NoError(t, err)
	require.Equal(t, "public.results", cfg.table)
	require.Equal(t, "writer", cfg.conn.User, "'username' wins over the url's user")
	require.Equal(t, "hunter2", cfg.conn.Password)
	require.Equal(t, 100, cfg.maxRows)
	require.Equal(t, 200*time.Millisecond, cfg.interval)
	require.Equal(t, 0, cfg.maxRetries)

	cfg, err = readConfig(withOptions(t, "'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r'"))
	require.NoError(t, err)
	require.Equal(t, 20000, cfg.maxRows, "an append table's")
	require.Equal(t, time.Second, cfg.interval)
	require.Equal(t, 3, cfg.maxRetries)
	cfg, err = readConfig(table(t, "CREATE TABLE r (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r')"))
	require.NoError(t, err)
	require.Equal(t, 5000, cfg.maxRows, "an upsert table's")
	require.Equal(t, 1, cfg.lanes)
	cfg, err = readConfig(table(t, "CREATE TABLE r (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.parallelism' = '4')"))
	require.NoError(t, err)
	require.Equal(t, 4, cfg.lanes)
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct{ opts, msg, at string }{
		{"'table-name' = 'r'", "table r needs option 'url'", "CREATE"},
		{"'url' = 'jdbc:postgresql://h/d'", "table r needs option 'table-name'", "CREATE"},
		{"'url' = 'jdbc:mysql://h/d', 'table-name' = 'r'", "option 'url' names a database other than PostgreSQL", "'url'"},
		{"'url' = 'jdbc:postgresql://h/d?loginTimeout=3', 'table-name' = 'r'", "the JDBC property 'loginTimeout' is not supported", "'url'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'driver' = 'com.mysql.Driver'", "option 'driver' = 'com.mysql.Driver' is not supported", "'driver'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.buffer-flush.max-rows' = '-1'", "option 'sink.buffer-flush.max-rows' must not be negative", "'sink.buffer-flush.max-rows'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.buffer-flush.interval' = 'soon'", "option 'sink.buffer-flush.interval' must be a duration", "'sink.buffer-flush.interval'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.max-retry' = '1'", "unsupported option 'sink.max-retry' for connector 'jdbc'; did you mean sink.max-retries?", "'sink.max-retry'"},
		{"'url' = 'postgres://u:topsecret@h:notaport/d', 'table-name' = 'r'", "option 'url' is not a PostgreSQL address", "'url'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.parallelism' = '2'", "option 'sink.parallelism' above 1 is for a table with a PRIMARY KEY", "'sink.parallelism'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.parallelism' = '0'", "option 'sink.parallelism' must be between 1 and 64, not 0", "'sink.parallelism'"},
		{"'url' = 'jdbc:postgresql://h/d', 'table-name' = 'r', 'sink.parallelism' = 'two'", "option 'sink.parallelism' must be an integer", "'sink.parallelism'"},
	} {
		t.Run(c.msg, func(t *testing.T) {
			ddl := "CREATE TABLE r (id BIGINT, name STRING) WITH ('connector' = 'jdbc', " + c.opts + ")"
			tbl := table(t, ddl)
			_, err := readConfig(tbl)
			require.ErrorContains(t, err, c.msg)
			require.NotContains(t, err.Error(), "topsecret")
			var serr *sql.Error
			require.ErrorAs(t, err, &serr)
			require.Equal(t, strings.Index(ddl, c.at), serr.Pos.Offset, "the error's position")
		})
	}
}

func TestRedact(t *testing.T) {
	require.Equal(t, "failed for ******@h", redact("failed for hunter2@h", "hunter2"))
	require.Equal(t, "no password", redact("no password", ""))
	require.Equal(t, "'it''s'", quoteLiteral("it's"))
	require.Equal(t, `"a""b"`, quoteIdent(`a"b`))
}
