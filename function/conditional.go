package function

import (
	"github.com/wsql/wsql/exec/expr"
)

// init adds the family at its place in the registry.
func init() { addFamily(200, conditionalFunctions) }

// conditionalFunctions choose between their arguments.
var conditionalFunctions = []Function{
	{Name: "COALESCE", Kind: ScalarFunction, Description: "the first argument that is not NULL; each argument evaluated only for the rows still NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Variadic: true, Result: "the arguments' common type"}},
		Compile:    coalesceKernel},
	{Name: "IFNULL", Kind: ScalarFunction, Description: "x, or y when x is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}, {Name: "y", Type: ArgAny}}, Result: "the arguments' common type"}},
		Compile:    coalesceKernel},
	{Name: "NULLIF", Kind: ScalarFunction, Description: "NULL when x = y, else x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}, {Name: "y", Type: ArgAny}}, Result: "the type of x"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			// CASE WHEN a = b THEN NULL ELSE a END, a evaluated once
			return c.Share(k.Args[0], func(a expr.Expr) (expr.Expr, error) {
				eq, err := c.Comparison(k.F.At, "=", a, k.Args[1], k.Pos[0], k.Pos[1])
				if err != nil {
					return nil, err
				}
				return c.Choose(k.F.At, k.Name, []expr.Expr{eq}, []expr.Expr{expr.NullLiteral(tNull)}, a, k.Pos)
			})
		}},
	{Name: "IF", Kind: ScalarFunction, Description: "a when cond is TRUE, else b",
		Signatures: []Signature{{Params: []Param{{Name: "cond", Type: ArgBoolean}, {Name: "a", Type: ArgAny}, {Name: "b", Type: ArgAny}}, Result: "the common type of a and b"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			return c.Choose(k.F.At, k.Name, k.Args[:1], k.Args[1:2], k.Args[2], k.Pos[1:])
		}},
	{Name: "CAST", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "x converted to the type; a value that does not convert stops the query, a number a DECIMAL cannot hold is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Written: "CAST(x AS type)", Result: "the type named"}}},

	// Flink's, not run yet
	{Name: "TRY_CAST", Kind: ScalarFunction, Description: "as CAST, NULL where the value does not convert",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Written: "TRY_CAST(x AS type)", Result: "the type named"}}},
}

// coalesceKernel is COALESCE and IFNULL: every argument brought to the
// common type, each evaluated once (expr.Coalesce).
func coalesceKernel(c Compiler, k *Call) (expr.Expr, error) {
	return c.Coalesce(k.F.At, k.Name, k.Args, k.Pos)
}
