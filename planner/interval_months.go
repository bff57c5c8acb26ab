package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// monthArith is x ± a year-month interval: calendar months added to a
// DATE, TIMESTAMP or TIMESTAMP_LTZ (in the session zone), with Flink's
// end-of-month clamping (see expr.AddMonths).
func (c *exprCompiler) monthArith(e *sql.Binary, other sql.Expr, x expr.Expr, iv *sql.IntervalLiteral) (expr.Expr, error) {
	dt := x.DataType()
	switch {
	case isNull(dt):
		return expr.NullLiteral(tTS), nil
	case !isTimestamp(dt) && dt.ID() != arrow.DATE32:
		return nil, sql.Errorf(sql.ErrInvalid, other.Pos(), "an INTERVAL can only be added to a TIMESTAMP or DATE, not %s", typeName(dt))
	}
	months := iv.Months
	if e.Op == "-" {
		months = -months
	}
	return c.fold(e.At, &expr.AddMonths{X: x, Months: months, Loc: c.opts.Location}, x)
}
