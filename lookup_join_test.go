package wsql

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A lookup join reads its table again when the table's file changed:
// orders pushed after the change join the new rows.
func TestLookupJoinReadsTheTableAgainWhenItChanges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	users := filepath.Join(dir, "users.csv")
	require.NoError(t, os.WriteFile(users, []byte("alice,gold\nbob,silver\n"), 0o644))
	e := New()
	defer e.Close()
	orders, err := e.CreatePushTable(ctx, `CREATE TABLE orders (id STRING, usr STRING)`)
	require.NoError(t, err)
	require.NoError(t, e.Exec(ctx, `CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'filesystem',
		'path' = '`+users+`', 'format' = 'csv', 'lookup.join.cache.ttl' = '0 s');
		CREATE VIEW orders_p AS SELECT *, PROCTIME() AS pt FROM orders`))
	rows, err := e.Query(ctx, `SELECT o.id, u.tier FROM orders_p AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name`)
	require.NoError(t, err)
	defer rows.Close()
	next := func() (id, tier string) {
		t.Helper()
		require.True(t, rows.NextRow(), "%v", rows.Err())
		var ptier *string
		require.NoError(t, rows.Scan(&id, &ptier))
		if ptier != nil {
			tier = *ptier
		}
		return id, tier
	}

	require.NoError(t, orders.AppendRow(ctx, "o1", "alice"))
	require.NoError(t, orders.AppendRow(ctx, "o2", "carol"))
	id, tier := next()
	require.Equal(t, [2]string{"o1", "gold"}, [2]string{id, tier})
	id, tier = next()
	require.Equal(t, [2]string{"o2", ""}, [2]string{id, tier}, "carol has no row yet")

	require.NoError(t, os.WriteFile(users, []byte("alice,platinum\nbob,silver\ncarol,bronze\n"), 0o644))
	require.NoError(t, orders.AppendRow(ctx, "o3", "carol"))
	require.NoError(t, orders.AppendRow(ctx, "o4", "alice"))
	orders.Close()
	id, tier = next()
	require.Equal(t, [2]string{"o3", "bronze"}, [2]string{id, tier}, "the file's new row")
	id, tier = next()
	require.Equal(t, [2]string{"o4", "platinum"}, [2]string{id, tier}, "the file's changed row")
	require.False(t, rows.NextRow())
	require.NoError(t, rows.Err())
}

// A lookup join's mistakes are errors at their place in the query.
func TestLookupJoinErrors(t *testing.T) {
	const ddl = `CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
CREATE TABLE followed (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv', 'source.monitor-interval' = '1 s');
CREATE VIEW orders_p AS SELECT *, PROCTIME() AS pt FROM orders;
CREATE VIEW users_v AS SELECT * FROM users;
`
	for q, want := range map[string]string{
		`SELECT o.id FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.amount > 5`:         "9:32: a processing-time temporal join needs an equality of a column of users and the left side in ON",
		`SELECT o.id FROM orders_p AS o RIGHT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name`: "9:32: a processing-time temporal join is an INNER or a LEFT join, as in Flink",
		`SELECT o.id FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.amount = u.name`:    "9:78: the join key o.amount is INT but the table's column is STRING; CAST one side",
		`SELECT o.id FROM orders_p AS o JOIN followed FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name`:    "9:68: FOR SYSTEM_TIME AS OF a PROCTIME() column joins a table read whole from files or queried by key; table followed is followed",
		`SELECT o.id FROM orders_p AS o JOIN users_v FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name`:     "9:67: FOR SYSTEM_TIME AS OF a PROCTIME() column joins a table read whole from files or queried by key; users_v is a view",
		`CREATE TABLE k (a INT) WITH ('connector.type' = 'kafka', 'connector.topic' = 't')`:                 "9:30: the legacy 'connector.type' = 'kafka' is not supported; declare the table with 'connector' = 'kafka'",
		`CREATE TABLE f (a INT) WITH ('connector.type' = 'filesystem', 'format.schema' = 'a INT')`:          "9:63: legacy option 'format.schema' is not supported",
	} {
		e := New()
		err := e.Run(context.Background(), ddl+q, Output{})
		require.Error(t, err, q)
		assert.Contains(t, FormatError(ddl+q, err), "error: "+want, q)
		require.NoError(t, e.Close())
	}
}
