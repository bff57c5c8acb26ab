package exprplan

import (
	"fmt"

	"github.com/wsql/wsql/exec/expr"
)

// share builds a form that reads the operand x more than once (BETWEEN,
// NULLIF, a simple CASE, an IN list of expressions). A column or a
// constant is read as it is; anything else is evaluated once by an
// expr.Let and read through its expr.Bound, so the work stays linear in
// the size of the query however deep such forms nest. build must not put
// another Let between the Bound and the form's top (it only compares and
// casts the operand).
func (c *Compiler) share(x expr.Expr, build func(x expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	switch x.(type) {
	case *expr.ColumnExpr, *expr.Literal, *expr.Bound:
		return build(x)
	}
	name := fmt.Sprintf("$%d", c.lets)
	c.lets++
	body, err := build(&expr.Bound{Type: x.DataType(), Name: name})
	if err != nil {
		return nil, err
	}
	if _, ok := body.(*expr.Literal); ok {
		return body, nil
	}
	return &expr.Let{Value: x, Body: body, Name: name}, nil
}
