package exprplan

import (
	"encoding/hex"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// bytesLiteral is X'0A0B', a BYTES constant (its bytes held in Str).
func bytesLiteral(e *sql.Literal) (expr.Expr, error) {
	b, err := hex.DecodeString(e.Text)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "cannot read the binary literal X'%s'", e.Text)
	}
	return &expr.Literal{Type: arrow.BinaryTypes.Binary, Str: string(b)}, nil
}
