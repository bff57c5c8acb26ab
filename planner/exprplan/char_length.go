package exprplan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// fitLength applies the length of CHAR(n), VARCHAR(n), BINARY(n) and
// VARBINARY(n) to a CAST's result (expr.FitLength). Without a length,
// CHAR and VARCHAR are STRING, BINARY and VARBINARY are BYTES.
func (c *Compiler) fitLength(x expr.Expr, e *sql.Cast) (expr.Expr, error) {
	pad := e.Type.Name == "CHAR" || e.Type.Name == "BINARY"
	if !pad && e.Type.Name != "VARCHAR" && e.Type.Name != "VARBINARY" || e.Type.Precision < 0 || isNull(x.DataType()) {
		return x, nil
	}
	if e.Type.Precision == 0 {
		return nil, sql.Errorf(sql.ErrInvalid, e.Type.At, "%s(0) is invalid: the length must be at least 1", e.Type.Name)
	}
	return c.fold(e.At, &expr.FitLength{X: x, Length: e.Type.Precision, Pad: pad}, x)
}

func isBinary(dt arrow.DataType) bool { return dt.ID() == arrow.BINARY }
