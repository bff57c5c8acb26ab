package planner

import (
	"fmt"

	"github.com/wsql/wsql/exec"
)

// share builds a form that reads the operand x more than once (BETWEEN,
// NULLIF, a simple CASE, an IN list of expressions). A column or a
// constant is read as it is; anything else is evaluated once by an
// exec.Let and read through its exec.Bound, so the work stays linear in
// the size of the query however deep such forms nest. build must not put
// another Let between the Bound and the form's top (it only compares and
// casts the operand).
func (c *exprCompiler) share(x exec.Expr, build func(x exec.Expr) (exec.Expr, error)) (exec.Expr, error) {
	switch x.(type) {
	case *exec.ColumnExpr, *exec.Literal, *exec.Bound:
		return build(x)
	}
	name := fmt.Sprintf("$%d", c.lets)
	c.lets++
	body, err := build(&exec.Bound{Type: x.DataType(), Name: name})
	if err != nil {
		return nil, err
	}
	if _, ok := body.(*exec.Literal); ok {
		return body, nil
	}
	return &exec.Let{Value: x, Body: body, Name: name}, nil
}
