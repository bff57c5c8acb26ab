package planner

import (
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// fitLength applies CHAR(n)'s and VARCHAR(n)'s length to a CAST's STRING
// result (expr.FitLength). Without a length, CHAR and VARCHAR are STRING.
func (c *exprCompiler) fitLength(x expr.Expr, e *sql.Cast) (expr.Expr, error) {
	if (e.Type.Name != "CHAR" && e.Type.Name != "VARCHAR") || e.Type.Precision < 0 || isNull(x.DataType()) {
		return x, nil
	}
	if e.Type.Precision == 0 {
		return nil, sql.Errorf(sql.ErrInvalid, e.Type.At, "%s(0) is invalid: the length must be at least 1", e.Type.Name)
	}
	return c.fold(e.At, &expr.FitLength{X: x, Length: e.Type.Precision, Pad: e.Type.Name == "CHAR"}, x)
}
