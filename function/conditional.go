package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/predicate"
	"github.com/wsql/wsql/sql"
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
	{Name: "GREATEST", Kind: ScalarFunction, Description: "the greatest argument; NULL when any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Variadic: true, Result: "the arguments' common type"}},
		Compile:    extremeKernel(">=")},
	{Name: "LEAST", Kind: ScalarFunction, Description: "the least argument; NULL when any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Variadic: true, Result: "the arguments' common type"}},
		Compile:    extremeKernel("<=")},
	charTest("IS_ALPHA", "whether every character of s is a letter; FALSE for NULL and ''"),
	charTest("IS_DIGIT", "whether every character of s is a digit; FALSE for NULL and ''"),
	charTest("IS_DECIMAL", "whether s reads as a number, such as `'-1.5e3'`; FALSE for NULL and ''"),
	{Name: "CAST", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "x converted to the type; a value that does not convert stops the query, a number a DECIMAL cannot hold is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Written: "CAST(x AS type)", Result: "the type named"}}},
	{Name: "TRY_CAST", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "as CAST, but NULL where the value does not convert",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Written: "TRY_CAST(x AS type)", Result: "the type named"}}},
	{Name: "TYPEOF", Kind: ScalarFunction, Description: "the SQL type of x, as Flink's summary (`INT NOT NULL` for a literal); with force_serializable TRUE, as a catalog writes it (`VARCHAR(2147483647)`)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}, {Name: "force_serializable", Type: argConstBoolean, Optional: true}}, Result: "STRING"}},
		Compile:    typeofKernel},
}

// argConstBoolean is a constant BOOLEAN, read by the kernel.
var argConstBoolean = ArgType{Name: "BOOLEAN constant", Sample: "TRUE"}

// extremeKernel is GREATEST (op >=) and LEAST (op <=): folded pairwise,
// CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a op b THEN a ELSE b END,
// each argument evaluated once.
func extremeKernel(op string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		acc, accPos := k.Args[0], k.Pos[0]
		for i := 1; i < len(k.Args); i++ {
			next, nextPos := k.Args[i], k.Pos[i]
			var err error
			acc, err = c.Share(acc, func(a expr.Expr) (expr.Expr, error) {
				return c.Share(next, func(b expr.Expr) (expr.Expr, error) {
					cmp, err := c.Comparison(k.F.At, op, a, b, accPos, nextPos)
					if err != nil {
						return nil, err
					}
					anyNull := &expr.Or{L: &expr.IsNull{X: a}, R: &expr.IsNull{X: b}}
					return c.Choose(k.F.At, k.Name, []expr.Expr{anyNull, cmp}, []expr.Expr{expr.NullLiteral(tNull), a}, b, []sql.Pos{accPos, accPos, nextPos})
				})
			})
			if err != nil {
				return nil, err
			}
		}
		if IsNull(acc.DataType()) {
			return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "%s needs an argument that is not NULL to have a type", k.Name)
		}
		return acc, nil
	}
}

// charTest is IS_ALPHA, IS_DIGIT or IS_DECIMAL.
func charTest(name, description string) Function {
	return Function{Name: name, Kind: ScalarFunction, Description: description,
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "BOOLEAN"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			t, err := predicate.NewCharTest(k.Name, k.Args[0])
			if err != nil {
				return nil, err
			}
			return c.Fold(k.F.At, t, k.Args[0])
		}}
}

// typeofKernel is TYPEOF: the type is known when the query is compiled.
func typeofKernel(c Compiler, k *Call) (expr.Expr, error) {
	serializable := false
	if len(k.Args) > 1 {
		l, ok := k.Args[1].(*expr.Literal)
		if !ok || (l.Type.ID() != arrow.BOOL && !IsNull(l.Type)) {
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[1], "force_serializable of TYPEOF must be TRUE or FALSE")
		}
		serializable = !l.Null && l.Int != 0
	}
	dt := k.Args[0].DataType()
	name := TypeName(dt)
	if serializable {
		switch {
		case IsString(dt):
			name = "VARCHAR(2147483647)"
		case isLTZ(dt):
			name = "TIMESTAMP(3) WITH LOCAL TIME ZONE"
		}
	}
	// Flink's literals are NOT NULL; wsql's columns are all nullable
	if l, ok := k.Args[0].(*expr.Literal); ok && !l.Null {
		name += " NOT NULL"
	}
	return &expr.Literal{Type: tString, Str: name}, nil
}

// coalesceKernel is COALESCE and IFNULL: every argument brought to the
// common type, each evaluated once (expr.Coalesce).
func coalesceKernel(c Compiler, k *Call) (expr.Expr, error) {
	return c.Coalesce(k.F.At, k.Name, k.Args, k.Pos)
}
