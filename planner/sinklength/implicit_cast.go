package sinklength

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
)

// ImplicitCasts casts each query column of an INSERT's last projection
// to its sink column's type where Flink casts implicitly on INSERT
// (LogicalTypeCasts' implicit casts between numbers): an integer to a
// wider integer, any number to DECIMAL or DOUBLE, an integer, DECIMAL or
// FLOAT to FLOAT. Other differences stay for the caller to refuse.
func ImplicitCasts(spec *exec.ProjectSpec, cols []catalog.Column, shift int, loc *time.Location) {
	fields := spec.Schema.Fields()
	rewrite(spec, cols, shift, func(c catalog.Column, x expr.Expr) expr.Expr {
		if from := x.DataType(); arrow.TypeEqual(from, c.Type) || !implicit(from, c.Type) {
			return nil
		}
		return &expr.Cast{X: x, To: c.Type, Loc: loc}
	})
	if spec.Exprs == nil {
		return
	}
	for i := range cols {
		fields[i+shift].Type = spec.Exprs[i+shift].DataType()
	}
	spec.Schema = arrow.NewSchema(fields, nil)
}

// integerWidth orders the integer types; 0 for others.
var integerWidth = map[arrow.Type]int{arrow.INT8: 1, arrow.INT16: 2, arrow.INT32: 3, arrow.INT64: 4}

func implicit(from, to arrow.DataType) bool {
	f, t := from.ID(), to.ID()
	numeric := integerWidth[f] > 0 || f == arrow.FLOAT32 || f == arrow.FLOAT64 || f == arrow.DECIMAL128 || f == arrow.DECIMAL256
	switch {
	case integerWidth[t] > 0:
		return integerWidth[f] > 0 && integerWidth[f] < integerWidth[t]
	case t == arrow.DECIMAL128 || t == arrow.DECIMAL256, t == arrow.FLOAT64:
		return numeric
	case t == arrow.FLOAT32:
		return numeric && f != arrow.FLOAT64
	}
	return false
}
