package function

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/mathfn"
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
	doubleFunction("LOG2", "the base-2 logarithm"),
	{Name: "LOG", Kind: ScalarFunction, Description: "the natural logarithm of x, or with two arguments the logarithm of x to the base b",
		Signatures: []Signature{
			{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"},
			{Params: []Param{{Name: "b", Type: ArgDouble}, {Name: "x", Type: ArgDouble}}, Result: "DOUBLE"},
		},
		Compile: mathKernel("LOG")},
	doubleFunction("SIN", "the sine"),
	doubleFunction("SINH", "the hyperbolic sine"),
	doubleFunction("COS", "the cosine"),
	doubleFunction("COSH", "the hyperbolic cosine"),
	doubleFunction("TAN", "the tangent"),
	doubleFunction("TANH", "the hyperbolic tangent"),
	doubleFunction("COT", "the cotangent"),
	doubleFunction("ASIN", "the arc sine"),
	doubleFunction("ACOS", "the arc cosine"),
	doubleFunction("ATAN", "the arc tangent"),
	{Name: "ATAN2", Kind: ScalarFunction, Description: "the arc tangent of the point (y, x)",
		Signatures: []Signature{{Params: []Param{{Name: "y", Type: ArgDouble}, {Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    mathKernel("ATAN2")},
	doubleFunction("DEGREES", "radians in degrees"),
	doubleFunction("RADIANS", "degrees in radians"),
	{Name: "SIGN", Kind: ScalarFunction, Description: "-1, 0 or 1 as x is negative, zero or positive",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}}, Result: "the type of x"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			return c.Fold(k.F.At, &mathfn.Sign{X: k.Args[0]}, k.Args...)
		}},
	{Name: "TRUNCATE", Kind: ScalarFunction, Description: "x cut toward zero to d digits after the point (default 0); a negative d zeroes digits before it",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}, {Name: "d", Type: ArgInteger, Optional: true}}, Result: "the type of x; a DECIMAL gets a constant d as its scale when fewer, as in ROUND"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			d := expr.Expr(&expr.Literal{Type: tBigint})
			if len(k.Args) > 1 {
				d = k.Args[1]
			}
			t := &mathfn.Truncate{X: k.Args[0], D: d}
			if dt, ok := t.X.DataType().(*arrow.Decimal128Type); ok {
				if l, ok := d.(*expr.Literal); ok && !l.Null {
					t.Decimal = catalog.DecimalRoundType(dt, int(max(min(l.Int, 38), -38)))
				}
			}
			return c.Fold(k.F.At, t, k.Args...)
		}},
	{Name: "PI", Kind: ScalarFunction, Description: "the DOUBLE closest to pi",
		Signatures: []Signature{{Result: "DOUBLE"}},
		Compile: func(Compiler, *Call) (expr.Expr, error) {
			return &expr.Literal{Type: tDouble, Float: math.Pi}, nil
		}},
	{Name: "E", Kind: ScalarFunction, Description: "the DOUBLE closest to e",
		Signatures: []Signature{{Result: "DOUBLE"}},
		Compile: func(Compiler, *Call) (expr.Expr, error) {
			return &expr.Literal{Type: tDouble, Float: math.E}, nil
		}},
	{Name: "RAND", Kind: ScalarFunction, Description: "a pseudorandom DOUBLE in [0, 1), a new one per row; a constant seed gives java.util.Random's sequence, as in Flink",
		Signatures: []Signature{{Params: []Param{{Name: "seed", Type: argSeed, Optional: true}}, Result: "DOUBLE"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			seed, err := seedArg(k, 0)
			if err != nil {
				return nil, err
			}
			return &mathfn.Rand{Seed: seed}, nil // never folded: a value per row
		}},
	{Name: "RAND_INTEGER", Kind: ScalarFunction, Description: "a pseudorandom INT in [0, bound), a new one per row; a constant seed gives java.util.Random's sequence, as in Flink",
		Signatures: []Signature{
			{Params: []Param{{Name: "bound", Type: ArgInteger}}, Result: "INT"},
			{Params: []Param{{Name: "seed", Type: argSeed}, {Name: "bound", Type: ArgInteger}}, Result: "INT"},
		},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			if len(k.Args) == 1 {
				return &mathfn.Rand{Bound: k.Args[0]}, nil
			}
			seed, err := seedArg(k, 0)
			if err != nil {
				return nil, err
			}
			return &mathfn.Rand{Seed: seed, Bound: k.Args[1]}, nil
		}},
	{Name: "UUID", Kind: ScalarFunction, Description: "a random (version 4) UUID, a new one per row",
		Signatures: []Signature{{Result: "STRING"}},
		Compile: func(Compiler, *Call) (expr.Expr, error) {
			return mathfn.UUID{}, nil
		}},
	{Name: "BIN", Kind: ScalarFunction, Description: "the integer in binary (two's complement for a negative)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgInteger}}, Result: "STRING"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			return c.Fold(k.F.At, &mathfn.Bin{X: k.Args[0], Base: 2}, k.Args...)
		}},
	{Name: "HEX", Kind: ScalarFunction, Description: "an integer, or a string's UTF-8 bytes, in upper-case hexadecimal",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Result: "STRING"}},
		Compile:    hexKernel},
	{Name: "UNHEX", Kind: ScalarFunction, Description: "hexadecimal text as bytes, two digits a byte; of an odd number of digits the first is dropped and the result starts with a zero byte, as in Flink; NULL for a character that is not a hex digit",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "BYTES"}},
		Compile:    unhexKernel},
}

// doubleFunction is a function of one DOUBLE.
func doubleFunction(name, description string) Function {
	return Function{Name: name, Kind: ScalarFunction, Description: description,
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgDouble}}, Result: "DOUBLE"}},
		Compile:    mathKernel(name)}
}

// mathKernel is a function of exec/expr/mathfn over DOUBLEs.
func mathKernel(fn string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		return c.Fold(k.F.At, &mathfn.Double{Name: fn, Args: k.Args}, k.Args...)
	}
}

// argSeed is a seed: a constant integer.
var argSeed = ArgType{Name: "INTEGER constant", Sample: "1"}

// seedArg is argument i as a constant integer seed.
func seedArg(k *Call, i int) (*int64, error) {
	if len(k.Args) <= i {
		return nil, nil
	}
	l, ok := k.Args[i].(*expr.Literal)
	if !ok || !IsInteger(l.Type) || l.Null {
		return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[i], "the seed of %s must be a constant integer", k.Name)
	}
	seed := int64(int32(l.Int)) // Flink's seed is an INT
	return &seed, nil
}

// hexKernel is HEX of an integer or of a string.
func hexKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	switch dt := x.DataType(); {
	case IsString(dt):
		return textKernel("HEX", tString)(c, k)
	case IsNull(dt):
		return &expr.Literal{Type: tString, Null: true}, nil
	case IsInteger(dt):
		x, err := c.To(x, tBigint, k.Pos[0])
		if err != nil {
			return nil, err
		}
		return c.Fold(k.F.At, &mathfn.Bin{X: x, Base: 16}, x)
	default:
		return nil, sql.Errorf(sql.ErrInvalid, k.Pos[0], "HEX expects an integer or a STRING, got %s", TypeName(dt))
	}
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
