package wsql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

// A table hint's option is the query's: a mistake in it is shown in the
// query, even when the table was declared by an earlier Run (the shell's
// previous line), while a declared option the hint makes wrong is still
// shown in its CREATE TABLE.
func TestTableHintErrorsAreTheQuerys(t *testing.T) {
	ctx := context.Background()
	e := New()
	create := "CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)\n" +
		"WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv', 'csv.field-delimiter' = ',');"
	require.NoError(t, e.Run(ctx, create, Output{}))

	query := "SELECT k FROM t /*+ OPTIONS('csv.allow-coments' = 'true') */"
	err := e.Run(ctx, query, Output{})
	var se *sql.Error
	require.True(t, errors.As(err, &se))
	require.Nil(t, se.Decl)
	require.Equal(t, "error: 1:29: unsupported option 'csv.allow-coments' for connector 'filesystem'; did you mean csv.allow-comments?\n"+
		"SELECT k FROM t /*+ OPTIONS('csv.allow-coments' = 'true') */\n"+
		"                            ^", FormatError(query, err))

	// json has no csv.field-delimiter: the declared key is the one refused
	query = "SELECT k FROM t /*+ OPTIONS('format' = 'json') */"
	err = e.Run(ctx, query, Output{})
	require.True(t, errors.As(err, &se))
	require.Equal(t, &sql.Decl{Name: "CREATE TABLE t", Src: create}, se.Decl)
	require.Contains(t, FormatError(query, err), "error: 2:89 of CREATE TABLE t: option 'csv.field-delimiter' belongs to format 'csv', but table t has format 'json'")
}

// A hint on a view is refused, as in Flink: a view has no options. A table
// a Go program reads from an io.Reader takes its format's options.
func TestTableHintOnViewOrGoTable(t *testing.T) {
	ctx := context.Background()
	e := New()
	require.NoError(t, e.Run(ctx, "CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)\n"+
		"WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');\n"+
		"CREATE VIEW v AS SELECT k FROM t;", Output{}))
	err := e.Run(ctx, "SELECT k FROM v /*+ OPTIONS('a' = 'b') */", Output{})
	require.EqualError(t, err, "1:21: view v cannot take a table hint: OPTIONS only apply to tables")

	require.NoError(t, e.CreateReaderTable(ctx, "CREATE TABLE r (k STRING, n INT) WITH ('format' = 'csv')", strings.NewReader("a,1\nb,x\nc,3\n")))
	err = e.Run(ctx, "SELECT k FROM r /*+ OPTIONS('csv.ignore-parse-erors' = 'true') */", Output{})
	require.EqualError(t, err, "1:29: unsupported option 'csv.ignore-parse-erors' for a table registered from Go; did you mean csv.ignore-parse-errors?")
	var out strings.Builder
	require.NoError(t, e.Run(ctx, "SELECT k FROM r /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */", Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
	}))
	require.Equal(t, "k\na\nc\n", out.String())
}
