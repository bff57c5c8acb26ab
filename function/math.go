package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// init adds the family at its place in the registry.
func init() { addFamily(300, mathFunctions) }

// mathFunctions are the numeric functions.
var mathFunctions = []Function{
	{Name: "ABS", Kind: ScalarFunction, Description: "the absolute value",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}}, Result: "the type of x"}},
		Compile:    roundingKernel("ABS")},
	{Name: "FLOOR", Kind: ScalarFunction, Description: "the largest integer not above x; a time t rounded down to a whole unit (" + timeRoundUnits + "; weeks start on Sunday)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}}, Result: "the type of x; DECIMAL(p, s) gives DECIMAL(p, 0)"}, timeRoundSignature("FLOOR")},
		Compile:    timeUnitOr(roundingKernel("FLOOR"), timeRoundKernel)},
	{Name: "CEIL", Aliases: []string{"CEILING"}, Kind: ScalarFunction, Description: "the smallest integer not below x; a time t rounded up to a whole unit",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}}, Result: "the type of x; DECIMAL(p, s) gives DECIMAL(p, 0)"}, timeRoundSignature("CEIL")},
		Compile:    timeUnitOr(roundingKernel("CEIL"), timeRoundKernel)},
	{Name: "SQRT", Kind: ScalarFunction, Description: "the square root",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    doubleKernel("SQRT")},
	{Name: "EXP", Kind: ScalarFunction, Description: "e to the power x",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    doubleKernel("EXP")},
	{Name: "LN", Kind: ScalarFunction, Description: "the natural logarithm",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    doubleKernel("LN")},
	{Name: "LOG10", Kind: ScalarFunction, Description: "the base-10 logarithm",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    doubleKernel("LOG10")},
	{Name: "POWER", Kind: ScalarFunction, Description: "a to the power b",
		Signatures: []Signature{{Params: []Param{{Name: "a", Type: ArgDouble}, {Name: "b", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    doubleKernel("POWER")},
	{Name: "ROUND", Kind: ScalarFunction, Description: "x rounded half away from zero to digits after the point (default 0)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}, {Name: "digits", Type: argDigits, Optional: true}}, Result: "the type of x; a DECIMAL gets digits as its scale when fewer"}},
		Compile:    roundKernel},
	{Name: "MOD", Kind: ScalarFunction, Description: "the remainder of a divided by b, with the sign of a",
		Signatures: []Signature{{Params: []Param{{Name: "a", Type: ArgAny}, {Name: "b", Type: ArgAny}}, Result: "the common numeric type; for integers the type of b"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			return c.Arith(k.F.At, '%', k.Args[0], k.Args[1], k.Pos[0], k.Pos[1])
		}},
}

// argDigits is ROUND's constant integer number of digits.
var argDigits = ArgType{Name: "INTEGER constant", Sample: "1"}

// roundingKernel is ABS, FLOOR and CEIL: the argument's type; FLOOR and
// CEIL of DECIMAL(p, s) are DECIMAL(p, 0), as in Calcite.
func roundingKernel(fn string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		x := k.Args[0]
		if dt, ok := x.DataType().(*arrow.Decimal128Type); ok {
			if fn != "ABS" {
				dt = &arrow.Decimal128Type{Precision: dt.Precision, Scale: 0}
			}
			return c.Fold(k.F.At, &expr.DecimalMath{Name: fn, X: x, Type: dt}, x)
		}
		return c.Fold(k.F.At, &expr.MathFunc{Name: fn, Args: []expr.Expr{x}}, x)
	}
}

// doubleKernel is a function of DOUBLEs (the signature converted them).
func doubleKernel(fn string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		return c.Fold(k.F.At, &expr.MathFunc{Name: fn, Args: k.Args}, k.Args...)
	}
}

func roundKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	digits := 0
	if len(k.Args) == 2 {
		d, ok := k.Args[1].(*expr.Literal)
		if !ok || !IsInteger(d.Type) {
			return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[1], "the digits of ROUND must be a constant integer")
		}
		digits = int(d.Int)
	}
	r := &expr.Round{X: x, Digits: digits}
	if dt, ok := x.DataType().(*arrow.Decimal128Type); ok {
		r.Decimal = catalog.DecimalRoundType(dt, digits)
	}
	return c.Fold(k.F.At, r, x)
}
