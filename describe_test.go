package wsql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// ListTables lists every table and view with its kind and connector, a Go
// program's tables included; Describe takes a plain name and, for one that
// does not exist, says so without a position, suggesting a close name.
func TestListTablesAndDescribeByName(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	require.NoError(t, e.Exec(ctx, `
		CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
		CREATE TABLE Gen (x INT) WITH ('connector' = 'datagen');
		CREATE VIEW big AS SELECT usr, amount FROM clicks WHERE amount > 40;`))
	require.NoError(t, e.CreateReaderTable(ctx, `CREATE TABLE pushed (x INT) WITH ('format' = 'json')`, strings.NewReader("")))

	var out strings.Builder
	csv := wsql.Output{NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
		return wsql.NewCSVWriter(&out, r.Schema, r.Location), nil
	}}
	require.NoError(t, e.ListTables(ctx, csv))
	require.Equal(t, "name,kind,connector\nbig,view,\nclicks,table,filesystem\nGen,table,datagen\npushed,table,go\n", out.String())

	out.Reset()
	require.NoError(t, e.Describe(ctx, "GEN", csv))
	require.Equal(t, "name,type,null,key,extras,watermark\nx,INT,TRUE,,,\n", out.String())

	err := e.Describe(ctx, "clikcs", csv)
	require.Error(t, err)
	require.Equal(t, "error: table or view clikcs does not exist; did you mean clicks?", wsql.FormatError("", err))
	require.Equal(t, "error: q.sql: table or view clikcs does not exist; did you mean clicks?", wsql.FormatFileError("q.sql", "", err))

	require.NoError(t, e.Close())
	require.ErrorIs(t, e.ListTables(ctx, csv), wsql.ErrClosed)
	require.ErrorIs(t, e.Describe(ctx, "clicks", csv), wsql.ErrClosed)
}
