package planner

import (
	"github.com/wsql/wsql/exec/expr"
)

// conditionalFunctions choose between their arguments.
var conditionalFunctions = []Function{
	{Name: "COALESCE", Kind: ScalarFunction, Description: "the first argument that is not NULL; each argument evaluated only for the rows still NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argAny}}, Variadic: true, Result: "the arguments' common type"}},
		compile:    coalesceKernel},
	{Name: "IFNULL", Kind: ScalarFunction, Description: "x, or y when x is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argAny}, {Name: "y", Type: argAny}}, Result: "the arguments' common type"}},
		compile:    coalesceKernel},
	{Name: "NULLIF", Kind: ScalarFunction, Description: "NULL when x = y, else x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argAny}, {Name: "y", Type: argAny}}, Result: "the type of x"}},
		compile: func(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
			// CASE WHEN a = b THEN NULL ELSE a END, a evaluated once
			return c.share(k.args[0], func(a expr.Expr) (expr.Expr, error) {
				eq, err := c.comparison(k.f.At, "=", a, k.args[1], k.pos[0], k.pos[1])
				if err != nil {
					return nil, err
				}
				return c.choose(k.f.At, k.name, []expr.Expr{eq}, []expr.Expr{expr.NullLiteral(tNull)}, a, k.pos)
			})
		}},
	{Name: "IF", Kind: ScalarFunction, Description: "a when cond is TRUE, else b",
		Signatures: []Signature{{Params: []Param{{Name: "cond", Type: argBoolean}, {Name: "a", Type: argAny}, {Name: "b", Type: argAny}}, Result: "the common type of a and b"}},
		compile: func(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
			return c.choose(k.f.At, k.name, k.args[:1], k.args[1:2], k.args[2], k.pos[1:])
		}},
	{Name: "CAST", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "x converted to the type; a value that does not convert stops the query, a number a DECIMAL cannot hold is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argAny}}, Written: "CAST(x AS type)", Result: "the type named"}}},

	// Flink's, not run yet
	{Name: "TRY_CAST", Kind: ScalarFunction, Description: "as CAST, NULL where the value does not convert",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argAny}}, Written: "TRY_CAST(x AS type)", Result: "the type named"}}},
}

// coalesceKernel is COALESCE and IFNULL: every argument brought to the
// common type, each evaluated once (expr.Coalesce).
func coalesceKernel(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
	return c.coalesce(k.f.At, k.name, k.args, k.pos)
}
