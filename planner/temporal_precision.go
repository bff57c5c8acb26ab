package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// millisTimestamp brings a TIMESTAMP of another precision to TIMESTAMP(3)
// (or TIMESTAMP_LTZ(3)) for EXTRACT, whose kernel reads epoch milliseconds
// (the registry's time functions do the same, function/timestamp_millis.go).
func (c *exprCompiler) millisTimestamp(x expr.Expr, pos sql.Pos) (expr.Expr, error) {
	tt, ok := x.DataType().(*arrow.TimestampType)
	if !ok || tt.Unit == arrow.Millisecond {
		return x, nil
	}
	if tt.TimeZone != "" {
		return c.to(x, tLTZ, pos)
	}
	return c.to(x, tTS, pos)
}
