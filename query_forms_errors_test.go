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
	} {
		t.Run(tc.query, func(t *testing.T) {
			out := runScript(t, clicksTable+tc.query+";\n", 4096)
			first, _, _ := strings.Cut(out, "\n")
			require.Equal(t, "error: "+tc.want, first, out)
		})
	}
}
