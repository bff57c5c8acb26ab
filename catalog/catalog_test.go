package catalog

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

func createTable(t *testing.T, c *Catalog, src string) (*Table, error) {
	t.Helper()
	stmts, err := sql.Parse(src)
	require.NoError(t, err)
	require.Len(t, stmts, 1)
	return c.CreateTable(stmts[0].(*sql.CreateTable))
}

func TestCreateTableTypesAndWatermark(t *testing.T) {
	c := New()
	tbl, err := createTable(t, c, `CREATE TABLE Clicks (
		ts TIMESTAMP(3) NOT NULL, usr STRING, n INT, big BIGINT, f FLOAT, d DOUBLE,
		dec DECIMAL(12, 2), day DATE, tod TIME, ltz TIMESTAMP_LTZ(3), ok BOOLEAN, tiny TINYINT, small SMALLINT,
		WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
	) WITH ('connector' = 'filesystem', 'path' = 'x.csv')`)
	require.NoError(t, err)
	want := []arrow.DataType{
		&arrow.TimestampType{Unit: arrow.Millisecond}, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		&arrow.Decimal128Type{Precision: 12, Scale: 2}, arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Time32s,
		&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, arrow.FixedWidthTypes.Boolean,
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16,
	}
	require.Equal(t, len(want), tbl.Schema().NumFields())
	for i, dt := range want {
		require.Truef(t, arrow.TypeEqual(dt, tbl.Schema().Field(i).Type), "column %d: %s", i, tbl.Schema().Field(i).Type)
	}
	require.False(t, tbl.Schema().Field(0).Nullable, "NOT NULL")
	require.True(t, tbl.Schema().Field(1).Nullable)
	require.Equal(t, "DECIMAL(12, 2)", tbl.Columns[6].SQLType)
	require.Equal(t, &Watermark{Column: "ts", Index: 0, Bounded: true, DelayMillis: 5000, Expr: tbl.Watermark.Expr, At: tbl.Watermark.At}, tbl.Watermark)
	v, ok := tbl.Options.Get("path")
	require.True(t, ok)
	require.Equal(t, "x.csv", v)

	require.Same(t, tbl, c.Table("clicks"), "table names are case-insensitive")
	require.Equal(t, 1, tbl.Column("USR"), "column lookup falls back to case-insensitive")
	require.Equal(t, -1, tbl.Column("nope"))
	require.Equal(t, []string{"Clicks"}, c.TableNames())
}

func TestWatermarkWithoutDelay(t *testing.T) {
	tbl, err := createTable(t, New(), `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector'='filesystem')`)
	require.NoError(t, err)
	require.Equal(t, int64(0), tbl.Watermark.DelayMillis)
}

func TestCreateTableErrors(t *testing.T) {
	cases := []struct{ src, err string }{
		{`CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR tss AS tss) WITH ('c' = 'v')`,
			`1:48: watermark column "tss" is not a column of table t; did you mean ts?`},
		{`CREATE TABLE t (ts BIGINT, WATERMARK FOR ts AS ts) WITH ('c' = 'v')`,
			`1:42: watermark column "ts" must be TIMESTAMP(3) or TIMESTAMP_LTZ(3), not BIGINT`},
		{`CREATE TABLE t (ts TIMESTAMP(10)) WITH ('c' = 'v')`,
			`1:20: TIMESTAMP(10) is invalid: the precision of TIMESTAMP must be 0 to 9`},
		{`CREATE TABLE t (ts TIMESTAMP(6), WATERMARK FOR ts AS ts) WITH ('c' = 'v')`,
			`1:48: watermark column "ts" is TIMESTAMP(6): the precision of a rowtime attribute must be at most 3, as in Flink; declare it TIMESTAMP(3)`},
		{`CREATE TABLE t (ts TIMESTAMP(0), WATERMARK FOR ts AS ts) WITH ('c' = 'v')`,
			`1:48: watermark column "ts" is TIMESTAMP(0): event time is kept in milliseconds, declare it with a precision of 1 to 3, e.g. TIMESTAMP(3)`},
		{`CREATE TABLE t (t TIME(6)) WITH ('c' = 'v')`,
			`1:19: TIME(6) is not supported: TIME is kept in milliseconds of the day, as in Flink; declare TIME(3) or use TIMESTAMP(6)`},
		{`CREATE TABLE t (a INT, a STRING) WITH ('c' = 'v')`, `1:24: duplicate column a`},
		{`CREATE TABLE t (d DECIMAL(40, 2)) WITH ('c' = 'v')`, `1:19: DECIMAL(40, 2) is invalid: precision must be 1 to 38 and scale 0 to precision`},
		{`CREATE TABLE t (pt AS PROCTIME(), WATERMARK FOR pt AS pt) WITH ('c' = 'v')`,
			`1:49: watermark column "pt" is a processing-time attribute (PROCTIME()); declare the watermark on an event-time column`},
		{`CREATE TABLE t (a INT, x AS a + 1) WITH ('c' = 'v')`,
			"1:29: computed column x cannot be typed here"},
		{`CREATE TABLE t (s STRING, ts AS TO_TIMESTAMP_LTZ(s, 3)) WITH ('c' = 'v')`,
			"1:50: TO_TIMESTAMP_LTZ over STRING is not supported yet; use an integer column"},
		{`CREATE TABLE t (e BIGINT, ts AS TO_TIMESTAMP_LTZ(e, 6)) WITH ('c' = 'v')`,
			"1:53: the precision of TO_TIMESTAMP_LTZ must be 0 (epoch seconds) or 3 (epoch milliseconds)"},
		{`CREATE TABLE t (e BIGINT, ts AS TO_TIMESTAMP(e)) WITH ('c' = 'v')`,
			"1:46: TO_TIMESTAMP reads a STRING, not BIGINT"},
		{`CREATE TABLE t (e BIGINT, a AS e, b AS a) WITH ('c' = 'v')`,
			"1:40: computed column a cannot be used in another computed column"},
		{`CREATE TABLE t (e BIGINT, a AS f) WITH ('c' = 'v')`,
			"1:32: column f not found in table t; did you mean e?"},
	}
	for _, tc := range cases {
		_, err := createTable(t, New(), tc.src)
		require.EqualError(t, err, tc.err, tc.src)
	}
}

func TestDuplicateTableAndIfNotExists(t *testing.T) {
	c := New()
	first, err := createTable(t, c, `CREATE TABLE t (a INT) WITH ('c' = 'v')`)
	require.NoError(t, err)
	_, err = createTable(t, c, `CREATE TABLE T (b INT) WITH ('c' = 'v')`)
	require.ErrorIs(t, err, sql.ErrInvalid)
	require.ErrorContains(t, err, "table t already exists (declared at 1:1)")
	again, err := createTable(t, c, `CREATE TABLE IF NOT EXISTS t (b INT) WITH ('c' = 'v')`)
	require.NoError(t, err)
	require.Same(t, first, again)
}

func TestDuplicateOptionInBuiltStatement(t *testing.T) {
	// The parser already refuses this; statements built in Go are checked too.
	stmt := &sql.CreateTable{
		Name:    sql.Ident{Name: "t"},
		Columns: []sql.ColumnDef{{Name: sql.Ident{Name: "a"}, Type: sql.TypeName{Name: "INT", Precision: -1, Scale: -1}}},
		Options: []sql.Option{{Key: "k", Value: "1"}, {Key: "k", Value: "2", At: sql.Pos{Offset: 9, Line: 1, Col: 10}}},
	}
	_, err := NewTable(stmt)
	require.EqualError(t, err, "1:10: option 'k' is given twice")
}

func TestGeneralWatermarkExpressionIsKeptForThePlanner(t *testing.T) {
	tbl, err := createTable(t, New(), `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS CAST(ts AS TIMESTAMP(3))) WITH ('c' = 'v')`)
	require.NoError(t, err)
	require.False(t, tbl.Watermark.Bounded)
	require.NotNil(t, tbl.Watermark.Expr)
}

func TestComputedColumns(t *testing.T) {
	tbl, err := createTable(t, New(), `CREATE TABLE t (
		ts AS TO_TIMESTAMP_LTZ(epoch, 3),
		epoch BIGINT,
		s STRING,
		ts2 AS TO_TIMESTAMP(s, 'yyyy/MM/dd HH:mm'),
		pt AS PROCTIME(),
		alias AS s,
		WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
	) WITH ('c' = 'v')`)
	require.NoError(t, err)
	var types []string
	for _, c := range tbl.Columns {
		types = append(types, c.SQLType)
	}
	require.Equal(t, []string{"TIMESTAMP_LTZ(3)", "BIGINT", "STRING", "TIMESTAMP(3)", "TIMESTAMP_LTZ(3)", "STRING"}, types)
	require.True(t, tbl.Columns[4].Proctime)
	require.Equal(t, 6, tbl.Schema().NumFields())
	require.Equal(t, 2, tbl.PhysicalSchema().NumFields(), "only epoch and s are read by the source")
	require.Equal(t, 0, tbl.Watermark.Index)
	require.Equal(t, "yyyy/MM/dd HH:mm", TimestampFormat(tbl.Columns[3].Computed.(*sql.FuncCall)))
	require.Equal(t, 3, LTZPrecision(tbl.Columns[0].Computed.(*sql.FuncCall)))
}

func TestViewsAndDrop(t *testing.T) {
	c := New()
	_, err := createTable(t, c, `CREATE TABLE clicks (a INT) WITH ('c' = 'v')`)
	require.NoError(t, err)
	at := sql.Pos{Offset: 0, Line: 1, Col: 1}
	view := &sql.CreateView{At: at, Name: sql.Ident{Name: "per_minute", At: at}, Query: &sql.Select{}, QueryText: "SELECT 1"}
	v, err := c.CreateView(view)
	require.NoError(t, err)
	require.Equal(t, "SELECT 1", v.Text)
	require.Same(t, v, c.View("PER_MINUTE"))
	_, err = c.CreateView(view)
	require.ErrorContains(t, err, "view per_minute already exists")
	view.IfNotExists = true
	again, err := c.CreateView(view)
	require.NoError(t, err)
	require.Same(t, v, again)
	_, err = c.CreateView(&sql.CreateView{Name: sql.Ident{Name: "clicks"}, Query: &sql.Select{}})
	require.ErrorContains(t, err, "a table named clicks already exists")
	require.Equal(t, []string{"per_minute"}, c.ViewNames())

	require.EqualError(t, c.Drop(&sql.Drop{Name: sql.Ident{Name: "per_minute", At: at}}), "1:1: per_minute is not a table; use DROP VIEW")
	require.EqualError(t, c.Drop(&sql.Drop{Name: sql.Ident{Name: "click", At: at}}), "1:1: table click does not exist; did you mean clicks?")
	require.NoError(t, c.Drop(&sql.Drop{Name: sql.Ident{Name: "nope"}, IfExists: true}))
	require.NoError(t, c.Drop(&sql.Drop{View: true, Name: sql.Ident{Name: "per_minute"}}))
	require.NoError(t, c.Drop(&sql.Drop{Name: sql.Ident{Name: "CLICKS"}}))
	require.Empty(t, c.TableNames())
	require.Empty(t, c.ViewNames())
}

func TestWatermarkDelayFoldsIntervals(t *testing.T) {
	for src, want := range map[string]int64{
		"ts":                       0,
		"ts - INTERVAL '5' SECOND": 5000,
		"ts - INTERVAL '1' MINUTE - INTERVAL '500' SECOND(3)": 560_000,
		"ts + INTERVAL '1' SECOND":                            -1000,
		"INTERVAL '1' SECOND + ts - INTERVAL '3' SECOND":      2000,
	} {
		tbl, err := createTable(t, New(), "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS "+src+") WITH ('c' = 'v')")
		require.NoError(t, err, src)
		require.True(t, tbl.Watermark.Bounded, src)
		require.Equal(t, want, tbl.Watermark.DelayMillis, src)
	}
}
