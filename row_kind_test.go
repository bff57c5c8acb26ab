package wsql_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

const rowKindClicks = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`

// Rows.RowKind gives each row's change in an update stream, the op column
// scans into a RowKind (Scan, RowsOf), and applying the changes gives the
// batch answer: the count per user over the whole file.
func TestRowsRowKindOfAnUpdateStream(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := wsql.New(wsql.WithAllocator(mem), wsql.WithBatchSize(3))
	defer e.Close()
	require.NoError(t, e.Exec(ctx, rowKindClicks))
	const query = "SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr"

	rows, err := e.Query(ctx, query)
	require.NoError(t, err)
	require.True(t, wsql.IsUpdateStream(rows.Schema()))
	require.Equal(t, wsql.RowKindInsert, rows.RowKind(), "before the first row")
	var kinds []string
	counts := map[string]int64{}
	for rows.NextRow() {
		var op wsql.RowKind
		var usr string
		var n int64
		require.NoError(t, rows.Scan(&op, &usr, &n))
		require.Equal(t, op, rows.RowKind())
		kinds = append(kinds, rows.RowKind().String())
		switch rows.RowKind() {
		case wsql.RowKindInsert, wsql.RowKindUpdateAfter:
			counts[usr] = n
		case wsql.RowKindUpdateBefore, wsql.RowKindDelete:
			require.Equal(t, counts[usr], n, "a retraction repeats the row it takes back")
			delete(counts, usr)
		}
	}
	require.NoError(t, rows.Err())
	require.NoError(t, rows.Close())
	require.Equal(t, []string{"+I", "+I", "-U", "+U", "-U", "+U"}, kinds[:6])
	require.Len(t, kinds, 81)
	require.Equal(t, map[string]int64{"alice": 14, "bob": 13, "carol": 15}, counts)

	type change struct {
		Op  wsql.RowKind
		Usr string
		N   int64
	}
	rows, err = e.Query(ctx, query)
	require.NoError(t, err)
	all, err := wsql.Collect[change](rows)
	require.NoError(t, err)
	require.Equal(t, []change{{wsql.RowKindInsert, "carol", 1}, {wsql.RowKindInsert, "alice", 1}, {wsql.RowKindUpdateBefore, "carol", 1}, {wsql.RowKindUpdateAfter, "carol", 2}}, all[:4])
}

// Every row of an append-only result is an insertion.
func TestRowsRowKindOfAnAppendOnlyResult(t *testing.T) {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	require.NoError(t, e.Exec(ctx, rowKindClicks))
	rows, err := e.Query(ctx, "SELECT usr FROM clicks WHERE amount > 45")
	require.NoError(t, err)
	defer rows.Close()
	require.False(t, wsql.IsUpdateStream(rows.Schema()))
	n := 0
	for rows.NextRow() {
		require.Equal(t, wsql.RowKindInsert, rows.RowKind())
		n++
	}
	require.NoError(t, rows.Err())
	require.Positive(t, n)
}
