package sinklength

import (
	"strconv"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
)

// Fit rewrites the projection spec, whose fields from shift on are written
// to the sink columns cols, so each value fits its column's length: the
// last step of Flink's TRIM_PAD is the same cut and pad as CAST's.
func Fit(spec *exec.ProjectSpec, cols []catalog.Column, shift int) {
	rewrite(spec, cols, shift, func(c catalog.Column, x expr.Expr) expr.Expr {
		f := fitOf(c.SQLType)
		if f == nil {
			return nil
		}
		f.X = x
		return f
	})
}

// rewrite replaces the expression of each output field i+shift of spec
// by fit(cols[i], it), where fit gives one (nil keeps the field as it is).
func rewrite(spec *exec.ProjectSpec, cols []catalog.Column, shift int, fit func(c catalog.Column, x expr.Expr) expr.Expr) {
	fits := make([]expr.Expr, len(cols))
	found := false
	for i, c := range cols {
		if fits[i] = fit(c, column(spec, i+shift)); fits[i] != nil {
			found = true
		}
	}
	if !found {
		return
	}
	if spec.Exprs == nil {
		for i := range spec.Columns {
			spec.Exprs = append(spec.Exprs, column(spec, i))
		}
		spec.Columns = nil
	}
	for i, f := range fits {
		if f != nil {
			spec.Exprs[i+shift] = f
		}
	}
}

// column is the expression of output field i of spec.
func column(spec *exec.ProjectSpec, i int) expr.Expr {
	if spec.Exprs != nil {
		return spec.Exprs[i]
	}
	f := spec.Schema.Field(i)
	return &expr.ColumnExpr{Index: spec.Columns[i], Name: f.Name, Type: f.Type}
}

// fitOf is the cut and pad of a column declared sqlType (as catalog prints
// it: CHAR(5), VARBINARY(16)); nil for a type without a length.
func fitOf(sqlType string) *expr.FitLength {
	name, rest, ok := strings.Cut(sqlType, "(")
	digits, ok2 := strings.CutSuffix(rest, ")")
	n, err := strconv.Atoi(digits)
	if !ok || !ok2 || err != nil || n < 1 {
		return nil
	}
	switch name {
	case "CHAR", "BINARY":
		return &expr.FitLength{Length: n, Pad: true}
	case "VARCHAR", "VARBINARY":
		return &expr.FitLength{Length: n}
	}
	return nil
}
