package function

import (
	"github.com/wsql/wsql/exec/expr"
)

// init adds the family at its place in the registry.
func init() { addFamily(100, stringFunctions) }

// stringFunctions are the string functions.
var stringFunctions = []Function{
	{Name: "UPPER", Kind: ScalarFunction, Description: "the string in upper case",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("UPPER")},
	{Name: "LOWER", Kind: ScalarFunction, Description: "the string in lower case",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("LOWER")},
	{Name: "CHAR_LENGTH", Aliases: []string{"CHARACTER_LENGTH"}, Kind: ScalarFunction, Description: "the number of characters",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "INT"}},
		Compile:    stringKernel("CHAR_LENGTH")},
	{Name: "CONCAT", Kind: ScalarFunction, Description: "the strings joined; NULL if any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Variadic: true, Result: "STRING"}},
		Compile:    stringKernel("CONCAT")},
	{Name: "REPLACE", Kind: ScalarFunction, Description: "every occurrence of from replaced by to",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("REPLACE")},
	{Name: "SUBSTRING", Aliases: []string{"SUBSTR"}, Kind: ScalarFunction, Description: "the characters from start (1-based), length of them or to the end",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "start", Type: ArgInteger}, {Name: "length", Type: ArgInteger, Optional: true}}, Result: "STRING"}},
		Compile:    stringKernel("SUBSTRING")},
	{Name: "TRIM", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "the characters (default space) removed from both ends, the start (LEADING) or the end (TRAILING)",
		Signatures: []Signature{
			{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"},
			{Params: []Param{{Name: "s", Type: ArgString}}, Written: "TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)", Result: "STRING"},
		}},
	{Name: "LTRIM", Kind: ScalarFunction, Description: "spaces removed from the start",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    trimKernel(true, false)},
	{Name: "RTRIM", Kind: ScalarFunction, Description: "spaces removed from the end",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    trimKernel(false, true)},

	// Flink's, not run yet
	{Name: "CONCAT_WS", Kind: ScalarFunction, Description: "the strings joined with a separator",
		Signatures: []Signature{{Params: []Param{{Name: "sep", Type: ArgString}, {Name: "s", Type: ArgString}}, Variadic: true, Result: "STRING"}}},
	{Name: "INITCAP", Kind: ScalarFunction, Description: "each word's first letter in upper case, the rest in lower case",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}}},
	{Name: "LPAD", Kind: ScalarFunction, Description: "the string padded on the left to a length",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "length", Type: ArgInteger}, {Name: "pad", Type: ArgString}}, Result: "STRING"}}},
	{Name: "RPAD", Kind: ScalarFunction, Description: "the string padded on the right to a length",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "length", Type: ArgInteger}, {Name: "pad", Type: ArgString}}, Result: "STRING"}}},
	{Name: "MD5", Kind: ScalarFunction, Description: "the MD5 hash as hexadecimal",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}}},
	{Name: "SHA1", Kind: ScalarFunction, Description: "the SHA-1 hash as hexadecimal",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}}},
	{Name: "SHA256", Kind: ScalarFunction, Description: "the SHA-256 hash as hexadecimal",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}}},
	{Name: "HASH_CODE", Kind: ScalarFunction, Description: "Java's hash code of the value",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Result: "INT"}}},
}

// stringKernel is a string function whose arguments the signature checked.
func stringKernel(fn string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		return c.Fold(k.F.At, &expr.StringFunc{Name: fn, Args: k.Args}, k.Args...)
	}
}

// trimKernel is LTRIM and RTRIM: spaces off one end.
func trimKernel(leading, trailing bool) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		x := k.Args[0]
		return c.Fold(k.F.At, &expr.Trim{X: x, Chars: " ", Leading: leading, Trailing: trailing}, x)
	}
}
