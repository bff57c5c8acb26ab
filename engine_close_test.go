package wsql_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

func TestCloseStopsRunningQueries(t *testing.T) {
	e := wsql.New()
	ctx := context.Background()
	rows, err := e.Query(ctx, `
		CREATE TABLE n (x BIGINT) WITH ('connector' = 'datagen', 'fields.x.kind' = 'sequence',
		  'fields.x.start' = '1', 'fields.x.end' = '1000000000000');
		SELECT x FROM n`)
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, e.Close())
	for rows.Next() {
	}
	require.ErrorIs(t, rows.Err(), wsql.ErrClosed)
	require.ErrorIs(t, rows.Close(), wsql.ErrClosed)
	require.ErrorIs(t, e.Exec(ctx, "SET 'a' = 'b'"), wsql.ErrClosed)
	_, err = e.Query(ctx, "SHOW TABLES")
	require.ErrorIs(t, err, wsql.ErrClosed)
	require.NoError(t, e.Close(), "Close is idempotent")
}
