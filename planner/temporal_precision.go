package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// Functions whose kernels work in milliseconds (YEAR, DATE_FORMAT,
// EXTRACT, ...) read a TIMESTAMP(p) of another precision
// (catalog/timestamp_precision.go) truncated to milliseconds.

// millisArg brings a TIMESTAMP argument of a temporal function (YEAR,
// DATE_FORMAT, ...) to milliseconds.
func (c *exprCompiler) millisArg(k *scalarCall, i int, p Param) (err error) {
	if p.Type.name == argTemporal.name || p.Type.name == argDateFormatted.name {
		k.args[i], err = c.millisTimestamp(k.args[i], k.pos[i])
	}
	return err
}

// millisTimestamp brings a TIMESTAMP of another precision to TIMESTAMP(3)
// (or TIMESTAMP_LTZ(3)) for the functions whose kernels read milliseconds.
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
