package sinklength

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/temporal"
	"github.com/wsql/wsql/exec/format/timeprecision"
)

// Precision rewrites the projection spec, whose fields from shift on are
// written to the sink columns cols, so a TIMESTAMP(p), TIMESTAMP_LTZ(p) or
// TIME(p) column whose p lies between Arrow's units gets p digits: Flink
// casts an INSERT's value to its sink column's type, dropping digits, and
// the sink writes it as that type. Unlike the length, this is not a
// setting.
func Precision(spec *exec.ProjectSpec, cols []catalog.Column, shift int) {
	fields := spec.Schema.Fields()
	rewrite(spec, cols, shift, func(c catalog.Column, x expr.Expr) expr.Expr {
		p := c.TimePrecision()
		if !timeprecision.Between(x.DataType(), p) {
			return nil
		}
		return &temporal.FractionDigits{X: x, Digits: p}
	})
	for i, c := range cols {
		fields[i+shift] = timeprecision.With(fields[i+shift], c.TimePrecision())
	}
	spec.Schema = arrow.NewSchema(fields, nil)
}
