package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/textfn"
	"github.com/wsql/wsql/sql"
)

// The BYTES functions: ENCODE, DECODE and UNHEX (their entries are with
// the string and math functions, where Flink lists them).

var tBytes = arrow.BinaryTypes.Binary

// argBytes: a BINARY/VARBINARY/BYTES (a NULL literal becomes one).
var argBytes = ArgType{Name: "BYTES", Sample: "CAST(s AS BYTES)", Check: func(c Compiler, k *Call, i int, _ Param) error {
	switch dt := k.Args[i].DataType(); {
	case IsNull(dt):
		k.Args[i] = expr.NullLiteral(tBytes)
	case dt.ID() != arrow.BINARY:
		return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects BYTES, got %s", k.Name, TypeName(dt))
	}
	return nil
}}

// charsetKernel is ENCODE and DECODE: a constant character set is checked
// now, one named by a column per row.
func charsetKernel(c Compiler, k *Call) (expr.Expr, error) {
	e := &textfn.Bytes{Name: k.Name, Args: k.Args}
	if l, ok := k.Args[1].(*expr.Literal); ok && !l.Null {
		cs, err := textfn.LookupCharset(l.Str)
		if err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[1], "%s: %v", k.Name, err)
		}
		e.Charset = cs
	}
	return c.Fold(k.F.At, e, k.Args...)
}

// unhexKernel is UNHEX.
func unhexKernel(c Compiler, k *Call) (expr.Expr, error) {
	return c.Fold(k.F.At, &textfn.Bytes{Name: "UNHEX", Args: k.Args}, k.Args...)
}
