package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// mathFunctions are the numeric functions.
var mathFunctions = []Function{
	{Name: "ABS", Kind: ScalarFunction, Description: "the absolute value",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argNumber}}, Result: "the type of x"}},
		compile:    roundingKernel("ABS")},
	{Name: "FLOOR", Kind: ScalarFunction, Description: "the largest integer not above x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argNumber}}, Result: "the type of x; DECIMAL(p, s) gives DECIMAL(p, 0)"}},
		compile:    roundingKernel("FLOOR")},
	{Name: "CEIL", Aliases: []string{"CEILING"}, Kind: ScalarFunction, Description: "the smallest integer not below x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argNumber}}, Result: "the type of x; DECIMAL(p, s) gives DECIMAL(p, 0)"}},
		compile:    roundingKernel("CEIL")},
	{Name: "SQRT", Kind: ScalarFunction, Description: "the square root",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argDouble}}, Result: "DOUBLE"}},
		compile:    doubleKernel("SQRT")},
	{Name: "EXP", Kind: ScalarFunction, Description: "e to the power x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argDouble}}, Result: "DOUBLE"}},
		compile:    doubleKernel("EXP")},
	{Name: "LN", Kind: ScalarFunction, Description: "the natural logarithm",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argDouble}}, Result: "DOUBLE"}},
		compile:    doubleKernel("LN")},
	{Name: "LOG10", Kind: ScalarFunction, Description: "the base-10 logarithm",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argDouble}}, Result: "DOUBLE"}},
		compile:    doubleKernel("LOG10")},
	{Name: "POWER", Kind: ScalarFunction, Description: "a to the power b",
		Signatures: []Signature{{Params: []Param{{Name: "a", Type: argDouble}, {Name: "b", Type: argDouble}}, Result: "DOUBLE"}},
		compile:    doubleKernel("POWER")},
	{Name: "ROUND", Kind: ScalarFunction, Description: "x rounded half away from zero to digits after the point (default 0)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: argNumber}, {Name: "digits", Type: argDigits, Optional: true}}, Result: "the type of x; a DECIMAL gets digits as its scale when fewer"}},
		compile:    roundKernel},
	{Name: "MOD", Kind: ScalarFunction, Description: "the remainder of a divided by b, with the sign of a",
		Signatures: []Signature{{Params: []Param{{Name: "a", Type: argAny}, {Name: "b", Type: argAny}}, Result: "the common numeric type; for integers the type of b"}},
		compile: func(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
			return c.arith(k.f.At, '%', k.args[0], k.args[1], k.pos[0], k.pos[1])
		}},
}

// argDigits is ROUND's constant integer number of digits.
var argDigits = argType{name: "INTEGER constant", sample: "1"}

// roundingKernel is ABS, FLOOR and CEIL: the argument's type; FLOOR and
// CEIL of DECIMAL(p, s) are DECIMAL(p, 0), as in Calcite.
func roundingKernel(fn string) func(*exprCompiler, *scalarCall) (expr.Expr, error) {
	return func(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
		x := k.args[0]
		if dt, ok := x.DataType().(*arrow.Decimal128Type); ok {
			if fn != "ABS" {
				dt = &arrow.Decimal128Type{Precision: dt.Precision, Scale: 0}
			}
			return c.fold(k.f.At, &expr.DecimalMath{Name: fn, X: x, Type: dt}, x)
		}
		return c.fold(k.f.At, &expr.MathFunc{Name: fn, Args: []expr.Expr{x}}, x)
	}
}

// doubleKernel is a function of DOUBLEs (the signature converted them).
func doubleKernel(fn string) func(*exprCompiler, *scalarCall) (expr.Expr, error) {
	return func(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
		return c.fold(k.f.At, &expr.MathFunc{Name: fn, Args: k.args}, k.args...)
	}
}

func roundKernel(c *exprCompiler, k *scalarCall) (expr.Expr, error) {
	x := k.args[0]
	digits := 0
	if len(k.args) == 2 {
		d, ok := k.args[1].(*expr.Literal)
		if !ok || !isInteger(d.Type) {
			return nil, sql.Errorf(sql.ErrUnsupported, k.pos[1], "the digits of ROUND must be a constant integer")
		}
		digits = int(d.Int)
	}
	r := &expr.Round{X: x, Digits: digits}
	if dt, ok := x.DataType().(*arrow.Decimal128Type); ok {
		r.Decimal = catalog.DecimalRoundType(dt, digits)
	}
	return c.fold(k.f.At, r, x)
}
