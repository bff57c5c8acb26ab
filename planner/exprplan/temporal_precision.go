package exprplan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/temporal"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/sql"
)

// millisTimestamp brings a TIMESTAMP of another precision to TIMESTAMP(3)
// (or TIMESTAMP_LTZ(3)) for EXTRACT, whose kernel reads epoch milliseconds
// (the registry's time functions do the same, function/timestamp_millis.go).
func (c *Compiler) millisTimestamp(x expr.Expr, pos sql.Pos) (expr.Expr, error) {
	tt, ok := x.DataType().(*arrow.TimestampType)
	if !ok || tt.Unit == arrow.Millisecond {
		return x, nil
	}
	if tt.TimeZone != "" {
		return c.to(x, tLTZ, pos)
	}
	return c.to(x, tTS, pos)
}

// fitPrecision truncates x, the result of CAST(... AS t), to the digits of
// t's precision when they fall between Arrow's units: TIMESTAMP(2) is kept
// in milliseconds, and Flink's CAST to it drops the third digit.
func (c *Compiler) fitPrecision(x expr.Expr, t sql.TypeName) (expr.Expr, error) {
	if !timeprecision.Between(x.DataType(), t.Precision) {
		return x, nil
	}
	// Not folded into a literal: the node tells the result's precision
	// (exprPrecision).
	return &temporal.FractionDigits{X: x, Digits: t.Precision}, nil
}

// resultField is the output column name of e over the input schema in: a
// TIMESTAMP or TIME whose precision lies between Arrow's units carries it
// (timeprecision), so it is written and described as Flink does.
func ResultField(name string, e expr.Expr, in *arrow.Schema) arrow.Field {
	column := func(x *expr.ColumnExpr) int {
		if in == nil || x.Index >= in.NumFields() {
			return -1
		}
		return timeprecision.Of(in.Field(x.Index))
	}
	return timeprecision.With(arrow.Field{Name: name, Type: e.DataType(), Nullable: true}, exprPrecision(e, column))
}

// exprPrecision is the precision e's value keeps, -1 for its unit's: a
// CAST's, a column's (column tells it), or for a value computed from values of its own type
// (CASE, COALESCE, ts + INTERVAL, FLOOR(ts TO unit)) the finest of theirs,
// as Flink's type inference takes the larger precision.
func exprPrecision(e expr.Expr, column func(*expr.ColumnExpr) int) int {
	switch x := e.(type) {
	case *temporal.FractionDigits:
		return x.Digits
	case *expr.ColumnExpr:
		return column(x)
	}
	p, same := -1, false
	for _, c := range expr.Children(e) {
		if c == nil || !arrow.TypeEqual(c.DataType(), e.DataType()) {
			continue
		}
		cp := exprPrecision(c, column)
		if cp < 0 {
			return -1
		}
		p, same = max(p, cp), true
	}
	if !same {
		return -1
	}
	return p
}

// stringPrecision gives CAST(x AS STRING) of a TIMESTAMP(p) or TIME(p)
// with p between Arrow's units Flink's text of p digits, as the writers
// write such a column (timeprecision.Trim); s is the cast.
func (c *Compiler) stringPrecision(x, s expr.Expr) expr.Expr {
	p := exprPrecision(x, func(col *expr.ColumnExpr) int {
		if p, ok := c.columnPrecisions[col]; ok {
			return p
		}
		return -1
	})
	if !timeprecision.Between(x.DataType(), p) {
		return s
	}
	return &temporal.FractionText{X: s, Digits: p}
}
