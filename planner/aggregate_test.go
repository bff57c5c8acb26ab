package planner

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

const aggTypesDDL = `CREATE TABLE m (
  ts TIMESTAMP(3), i INT, ti TINYINT, bi BIGINT, fl FLOAT, db DOUBLE,
  amt DECIMAL(10, 2), tiny DECIMAL(20, 8), s STRING, bo BOOLEAN, d DATE, ltz TIMESTAMP_LTZ(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'm.csv', 'format' = 'csv')`

// planAgg plans one aggregate over table m in a one-minute tumbling window.
// TiDB's grammar takes FIRST_VALUE and LAST_VALUE only with OVER, so they
// are written as MAX and renamed in the AST, which is what the planner
// will see once the sql package accepts them.
func planAgg(t *testing.T, agg string) (*Plan, error) {
	t.Helper()
	rename := ""
	for _, n := range []string{"FIRST_VALUE", "LAST_VALUE"} {
		if strings.HasPrefix(agg, n+"(") {
			rename, agg = n, "MAX("+strings.Repeat(" ", len(n)-3)+agg[len(n)+1:]
		}
	}
	stmts, err := sql.Parse(aggTypesDDL + ";\nSELECT " + agg + " AS x FROM m GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err, agg)
	sel := stmts[1].(*sql.Select)
	if rename != "" {
		sel.Items[0].Expr.(*sql.FuncCall).Name = rename
	}
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	return PlanSelect(sel, cat, Options{})
}

func TestAggregateResultTypes(t *testing.T) {
	dec := func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }
	ts := &arrow.TimestampType{Unit: arrow.Millisecond}
	ltz := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	cases := []struct {
		agg  string
		kind windowop.AggKind
		want arrow.DataType
	}{
		{"COUNT(*)", windowop.CountStar, arrow.PrimitiveTypes.Int64},
		{"COUNT(s)", windowop.Count, arrow.PrimitiveTypes.Int64},
		{"COUNT(DISTINCT s)", windowop.Count, arrow.PrimitiveTypes.Int64},
		{"SUM(i)", windowop.Sum, arrow.PrimitiveTypes.Int32},
		{"SUM(ti)", windowop.Sum, arrow.PrimitiveTypes.Int8},
		{"SUM(db)", windowop.Sum, arrow.PrimitiveTypes.Float64},
		{"SUM(amt)", windowop.Sum, dec(38, 2)},
		{"SUM(DISTINCT bi)", windowop.Sum, arrow.PrimitiveTypes.Int64},
		{"AVG(i)", windowop.Avg, arrow.PrimitiveTypes.Int32},
		{"AVG(bi)", windowop.Avg, arrow.PrimitiveTypes.Int64},
		{"AVG(fl)", windowop.Avg, arrow.PrimitiveTypes.Float32},
		{"AVG(db)", windowop.Avg, arrow.PrimitiveTypes.Float64},
		{"AVG(amt)", windowop.Avg, dec(38, 6)},
		{"AVG(tiny)", windowop.Avg, dec(38, 8)},
		{"AVG(DISTINCT amt)", windowop.Avg, dec(38, 6)},
		{"MIN(i)", windowop.Min, arrow.PrimitiveTypes.Int32},
		{"MAX(amt)", windowop.Max, dec(10, 2)},
		{"MIN(s)", windowop.Min, arrow.BinaryTypes.String},
		{"MAX(bo)", windowop.Max, arrow.FixedWidthTypes.Boolean},
		{"MIN(d)", windowop.Min, arrow.FixedWidthTypes.Date32},
		{"MAX(ts)", windowop.Max, ts},
		{"MIN(ltz)", windowop.Min, ltz},
		{"MAX(DISTINCT fl)", windowop.Max, arrow.PrimitiveTypes.Float32},
		{"FIRST_VALUE(s)", windowop.FirstValue, arrow.BinaryTypes.String},
		{"LAST_VALUE(amt)", windowop.LastValue, dec(10, 2)},
		{"STDDEV_POP(i)", windowop.StddevPop, arrow.PrimitiveTypes.Float64},
		{"STDDEV_SAMP(db)", windowop.StddevSamp, arrow.PrimitiveTypes.Float64},
		{"VAR_POP(amt)", windowop.VarPop, arrow.PrimitiveTypes.Float64},
		{"VAR_SAMP(DISTINCT bi)", windowop.VarSamp, arrow.PrimitiveTypes.Float64},
		{"LISTAGG(s)", windowop.ListAgg, arrow.BinaryTypes.String},
		{"LISTAGG(s, '; ')", windowop.ListAgg, arrow.BinaryTypes.String},
		{"LISTAGG(DISTINCT s, '; ')", windowop.ListAgg, arrow.BinaryTypes.String},
		{"PERCENTILE(i, 0.5)", windowop.Percentile, arrow.PrimitiveTypes.Float64},
		{"PERCENTILE(amt, 1, bi)", windowop.Percentile, arrow.PrimitiveTypes.Float64},
		{"PERCENTILE(db, 0)", windowop.Percentile, arrow.PrimitiveTypes.Float64},
		{"PERCENTILE(DISTINCT i, 0.5)", windowop.Percentile, arrow.PrimitiveTypes.Float64},
		{"COUNT(DISTINCT s, d, ts)", windowop.Count, arrow.PrimitiveTypes.Int64},
		{"SUM(i) FILTER (WHERE bo)", windowop.Sum, arrow.PrimitiveTypes.Int32},
		// Flink: ARRAY_AGG is ARRAY<T> (nullable elements), COLLECT
		// MULTISET<T>, PERCENTILE over an ARRAY of percentages ARRAY<DOUBLE>
		{"ARRAY_AGG(i)", windowop.ArrayAgg, arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true})},
		{"ARRAY_AGG(DISTINCT s IGNORE NULLS)", windowop.ArrayAgg, arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true})},
		{"ARRAY_AGG(amt RESPECT NULLS) FILTER (WHERE bo)", windowop.ArrayAgg, arrow.ListOfField(arrow.Field{Name: "element", Type: dec(10, 2), Nullable: true})},
		{"COLLECT(d)", windowop.Collect, multisetOf(arrow.FixedWidthTypes.Date32)},
		{"COLLECT(DISTINCT s)", windowop.Collect, multisetOf(arrow.BinaryTypes.String)},
		{"PERCENTILE(i, ARRAY[0.5, 0.9])", windowop.Percentile, arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Float64, Nullable: true})},
		{"PERCENTILE(amt, ARRAY[1], bi)", windowop.Percentile, arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Float64, Nullable: true})},
	}
	for _, c := range cases {
		p, err := planAgg(t, c.agg)
		require.NoError(t, err, c.agg)
		require.Len(t, p.Aggs, 1)
		require.Equal(t, c.kind, p.Aggs[0].Spec.Kind, c.agg)
		require.True(t, arrow.TypeEqual(c.want, p.Aggs[0].Type), "%s: %s, want %s", c.agg, p.Aggs[0].Type, c.want)
		require.True(t, arrow.TypeEqual(c.want, p.Schema().Field(0).Type), c.agg)
	}
}

// multisetOf is MULTISET<elem> as catalog stores it.
func multisetOf(elem arrow.DataType) arrow.DataType {
	m := arrow.MapOfWithMetadata(elem, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{catalog.MultisetMetadataKey}, []string{"count"}))
	m.SetItemNullable(false)
	return m
}

func TestAggregateSpecs(t *testing.T) {
	p, err := planAgg(t, "LISTAGG(s, ' | ')")
	require.NoError(t, err)
	require.Equal(t, windowop.AggSpec{Kind: windowop.ListAgg, Input: 8, Name: "agg0", Separator: " | "}, p.Aggs[0].Spec)
	require.Equal(t, "LISTAGG(s, ' | ')", p.Aggs[0].Text)

	p, err = planAgg(t, "LISTAGG(s)")
	require.NoError(t, err)
	require.Equal(t, ",", p.Aggs[0].Spec.Separator, "Flink's default separator")

	p, err = planAgg(t, "COUNT(DISTINCT s)")
	require.NoError(t, err)
	require.Equal(t, windowop.AggSpec{Kind: windowop.Count, Input: 8, Name: "agg0", Distinct: true}, p.Aggs[0].Spec)
	require.Equal(t, "COUNT(DISTINCT s)", p.Aggs[0].Text)

	// FIRST_VALUE's first value is always new to the distinct set
	p, err = planAgg(t, "FIRST_VALUE(DISTINCT s)")
	require.NoError(t, err)
	require.False(t, p.Aggs[0].Spec.Distinct)

	// COUNT(DISTINCT a, b): the further columns are read as they are, an
	// expression and the FILTER condition are computed before the window
	p, err = planAgg(t, "COUNT(DISTINCT s, i, i + 1) FILTER (WHERE bo)")
	require.NoError(t, err)
	spec := p.Aggs[0].Spec
	require.Equal(t, []int{1, p.Stream.NumFields() - 2}, spec.MoreInputs)
	require.True(t, spec.Filtered)
	require.Equal(t, p.Stream.NumFields()-1, spec.Filter)
	require.Equal(t, "COUNT(DISTINCT s, i, i + 1) FILTER (WHERE bo)", p.Aggs[0].Text)
	require.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Int64, p.Aggs[0].Type))

	// ARRAY_AGG's IGNORE NULLS, PERCENTILE's ARRAY of percentages, read
	// from the literals of ARRAY[...]
	p, err = planAgg(t, "ARRAY_AGG(DISTINCT s IGNORE NULLS)")
	require.NoError(t, err)
	require.Equal(t, windowop.AggSpec{Kind: windowop.ArrayAgg, Input: 8, Name: "agg0", Distinct: true, IgnoreNulls: true}, p.Aggs[0].Spec)
	require.Equal(t, "ARRAY_AGG(DISTINCT s IGNORE NULLS)", p.Aggs[0].Text)
	p, err = planAgg(t, "PERCENTILE(i, ARRAY[0.25, 1, 0.0])")
	require.NoError(t, err)
	require.Equal(t, windowop.AggSpec{Kind: windowop.Percentile, Input: 1, Name: "agg0", PercentageArray: true, Percentages: []float64{0.25, 1, 0}}, p.Aggs[0].Spec)
}

func TestAggregateArgumentErrors(t *testing.T) {
	cases := []struct {
		agg  string
		kind error
		msg  string
		col  int // column of the error in the query line
	}{
		{"AVG(s)", sql.ErrInvalid, "AVG expects a numeric argument, got STRING", 12},
		{"SUM(bo)", sql.ErrInvalid, "SUM expects a numeric argument, got BOOLEAN", 12},
		{"STDDEV_POP(d)", sql.ErrInvalid, "STDDEV_POP expects a numeric argument, got DATE", 19},
		{"VAR_SAMP(ts)", sql.ErrInvalid, "VAR_SAMP expects a numeric argument, got TIMESTAMP(3)", 17},
		{"LISTAGG(i)", sql.ErrInvalid, "LISTAGG expects a STRING argument, got INT", 16},
		{"LISTAGG(s, s)", sql.ErrUnsupported, "the separator of LISTAGG must be a string literal", 19},
		{"LISTAGG(s, ',', ';')", sql.ErrInvalid, "LISTAGG takes one or two arguments", 8},
		{"LAST_VALUE(DISTINCT s)", sql.ErrUnsupported, "LAST_VALUE(DISTINCT ...) is not supported yet", 8},
		{"COUNT(*) FILTER (WHERE i)", sql.ErrInvalid, "a condition must be BOOLEAN, got INT", 31},
		{"COUNT(*) FILTER (WHERE SUM(i) > 1)", sql.ErrInvalid, "the FILTER of COUNT cannot contain an aggregate call", 31},
		{"COUNT(*) FILTER (WHERE nope)", sql.ErrInvalid, "nope", 31},
		{"UPPER(s) FILTER (WHERE i > 1)", sql.ErrInvalid, "FILTER (WHERE ...) belongs to aggregate calls; UPPER is not an aggregate", 31},
		{"MAXX(s)", sql.ErrInvalid, "unknown function MAXX", 8},
		{"PERCENTILE(i, 1.5)", sql.ErrInvalid, "the percentage of PERCENTILE must be a numeric literal between 0.0 and 1.0", 22},
		{"PERCENTILE(i, -0.5)", sql.ErrInvalid, "the percentage of PERCENTILE must be a numeric literal between 0.0 and 1.0", 22},
		{"PERCENTILE(i, s)", sql.ErrInvalid, "the percentage of PERCENTILE must be a numeric literal", 22},
		{"PERCENTILE(i)", sql.ErrInvalid, "PERCENTILE takes two or three arguments", 8},
		{"PERCENTILE(s, 0.5)", sql.ErrInvalid, "PERCENTILE expects a numeric argument, got STRING", 19},
		{"PERCENTILE(i, 0.5, db)", sql.ErrInvalid, "the frequency of PERCENTILE must be an integer, got DOUBLE", 27},
		{"PERCENTILE(i, ARRAY[0.5, 2])", sql.ErrInvalid, "the percentage of PERCENTILE must be a numeric literal between 0.0 and 1.0, or an ARRAY of them", 33},
		{"PERCENTILE(i, ARRAY[0.5, i])", sql.ErrInvalid, "the percentage of PERCENTILE must be a numeric literal", 33},
		{"ARRAY_AGG(s, i)", sql.ErrInvalid, "ARRAY_AGG takes exactly one argument", 8},
		{"RANK()", sql.ErrUnsupported, "function RANK is not supported yet: it runs only in an OVER window, which wsql does not run yet", 8},
		{"LAG(i, 1)", sql.ErrUnsupported, "function LAG is not supported yet: it runs only in an OVER window", 8},
		{"GROUPING(s)", sql.ErrInvalid, "the argument s of GROUPING must be a grouping expression of GROUP BY", 17},
		{"GROUP_ID(s)", sql.ErrInvalid, "GROUP_ID takes no arguments", 8},
		{"AVG(nope)", sql.ErrInvalid, "nope", 12},
	}
	for _, c := range cases {
		_, err := planAgg(t, c.agg)
		require.ErrorIs(t, err, c.kind, c.agg)
		require.ErrorContains(t, err, c.msg, c.agg)
		var se *sql.Error
		require.ErrorAs(t, err, &se, c.agg)
		require.Equal(t, 6, se.Pos.Line, c.agg)
		require.Equal(t, c.col, se.Pos.Col, c.agg)
	}
}
