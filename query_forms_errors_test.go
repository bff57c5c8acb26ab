package wsql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// clicksTable is the example clicks table, for the query-form tests.
const clicksTable = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
`

// TestQueryFormErrors pins the positioned refusals of WITH, ORDER BY and
// LIMIT: each query is planned after the clicks table and fails with the
// message, at the line:column given.
func TestQueryFormErrors(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		// an expression reads only the ones before it
		{"WITH a AS (SELECT usr FROM b), b AS (SELECT usr FROM clicks) SELECT * FROM a", "4:28: table b does not exist"},
		{"WITH a (x, y) AS (SELECT usr FROM clicks) SELECT * FROM a", "4:6: view a names 2 columns but its query has 1"},
		// an expression the query never reads is still checked
		{"WITH a AS (SELECT nope FROM clicks) SELECT usr FROM clicks", "4:19: column nope not found in table clicks"},
		{"WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r", "4:6: WITH RECURSIVE is not supported"},
		// ORDER BY must start with the time attribute, ascending (Flink's reason)
		{"SELECT usr FROM clicks ORDER BY usr", "4:33: Sort on a non-time-attribute field is not supported. ORDER BY must start with the time attribute ascending; this query's result has no time attribute"},
		{"SELECT ts, usr FROM clicks ORDER BY ts DESC", "4:37: Sort on a non-time-attribute field is not supported. ORDER BY must start with the time attribute ascending, here ts"},
		{"SELECT ts, usr FROM clicks ORDER BY usr, ts", "4:37: Sort on a non-time-attribute field is not supported. ORDER BY must start with the time attribute ascending, here ts"},
		{"SELECT ts, usr FROM clicks ORDER BY usr LIMIT 2", "4:37: ORDER BY a column that is not a time attribute with LIMIT (Top-N) is not supported yet"},
		{"SELECT ts FROM clicks ORDER BY 2", "4:32: ORDER BY position 2 is not in the select list of 1 columns"},
		{"SELECT ts FROM clicks ORDER BY ts, UPPER(usr)", "4:36: ORDER BY UPPER(usr): sorting by what the select list does not show is not supported yet; select it"},
		// a LIMIT would end the read the set's INSERTs share
		{"CREATE TABLE a (usr STRING) WITH ('connector' = 'blackhole'); EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT usr FROM clicks LIMIT 2; INSERT INTO a SELECT usr FROM clicks; END", "4:128: LIMIT in a statement set is not supported yet"},
		// LIMIT and ORDER BY over an update stream
		{"SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr LIMIT 3", "4:52: LIMIT over the update stream of GroupAggregate(keys=[usr], aggs=[COUNT(*): BIGINT]) is not supported yet"},
		{"SELECT DISTINCT usr FROM clicks ORDER BY usr", "4:42: ORDER BY over the update stream of GroupAggregate(keys=[usr], aggs=[]) is not supported yet"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			out := runScript(t, clicksTable+tc.query+";\n", 4096)
			first, _, _ := strings.Cut(out, "\n")
			require.Equal(t, "error: "+tc.want, first, out)
		})
	}
}
