package wsql

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

// An error about a table found by a query of a later Run (the shell's next
// line, a script after its init file) is the table's: it names its CREATE
// TABLE, and the caret is in that statement's text, not the query's.
func TestErrorOfAnEarlierCreateTable(t *testing.T) {
	ctx := context.Background()
	e := New() // no standard input
	create := "CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)\n" +
		"WITH ('connector' = 'stdin', 'format' = 'csv');"
	require.NoError(t, e.Run(ctx, create, Output{}), "stdin is looked for by the query")
	query := "SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND)"
	opened := false
	err := e.Run(ctx, query, Output{NewWriter: func(r ResultInfo) (ResultWriter, error) {
		opened = true
		return NewCSVWriter(io.Discard, r.Schema, r.Location), nil
	}})
	require.False(t, opened, "no result writer: nothing is written")
	var se *sql.Error
	require.True(t, errors.As(err, &se))
	require.Equal(t, &sql.Decl{Name: "CREATE TABLE clicks", Src: create}, se.Decl)
	require.Equal(t, "error: 2:7 of CREATE TABLE clicks: table clicks reads standard input, which is not available here: give the SQL with -e or run FILE.sql and pipe the data in\n"+
		"WITH ('connector' = 'stdin', 'format' = 'csv');\n"+
		"      ^", FormatError(query, err))

	// in one script, the position is the script's own
	err = New().Run(ctx, create+"\n"+query, Output{})
	require.Equal(t, "error: 2:7: table clicks reads standard input, which is not available here: give the SQL with -e or run FILE.sql and pipe the data in\n"+
		"WITH ('connector' = 'stdin', 'format' = 'csv');\n"+
		"      ^", FormatError(create+"\n"+query, err))
}

// A CREATE TABLE whose options are wrong fails, and the table is not
// created; one whose file is missing is created (the file may come later).
func TestCreateTableChecksItsOptions(t *testing.T) {
	ctx := context.Background()
	e := New()
	err := e.Run(ctx, "CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = 'many')", Output{})
	require.EqualError(t, err, "1:55: option 'rows-per-second' must be an integer, got 'many'")
	require.Empty(t, e.TableNames())

	require.NoError(t, e.Run(ctx, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'not-yet.csv', 'format' = 'csv')", Output{}))
	require.NoError(t, e.Run(ctx, "CREATE TABLE p (a INT) WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'parquet')", Output{}), "a table only written")
	require.NoError(t, e.Run(ctx, "CREATE TABLE s (a INT) WITH ('connector' = 'print')", Output{}))
	require.Equal(t, []string{"p", "s", "t"}, e.TableNames())
}
