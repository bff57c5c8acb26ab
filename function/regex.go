package function

import (
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/textfn"
)

// init adds the family at its place in the registry.
func init() { addFamily(110, regexFunctions) }

// Flink's regular-expression functions, with Java's regex semantics
// (exec/expr/regex). A constant pattern is compiled once per query.
var regexFunctions = []Function{
	{Name: "REGEXP", Kind: ScalarFunction, Description: "whether any substring of s matches the Java regular expression p; FALSE for an empty or invalid p",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}}, Result: "BOOLEAN"}},
		Compile:    regexKernel(textfn.RegexpMatches)},
	{Name: "REGEXP_REPLACE", Kind: ScalarFunction, Description: "every match of the Java regular expression p replaced by r, taken literally as Flink does; NULL for an invalid p",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}, {Name: "r", Type: ArgString}}, Result: "STRING"}},
		Compile:    regexKernel(textfn.RegexpReplace)},
	{Name: "REGEXP_EXTRACT", Kind: ScalarFunction, Description: "group g (default 0, the whole match) of the first match of p; NULL when nothing matches, g is not a group of p or p is invalid",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}, {Name: "g", Type: ArgInteger, Optional: true}}, Result: "STRING"}},
		Compile:    regexKernel(textfn.RegexpExtract)},
	{Name: "REGEXP_COUNT", Kind: ScalarFunction, Description: "the number of matches of p; NULL for an invalid p",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}}, Result: "INT"}},
		Compile:    regexKernel(textfn.RegexpCount)},
	{Name: "REGEXP_INSTR", Kind: ScalarFunction, Description: "the position (from 1) of the first match of p, 0 if none; NULL for an invalid p",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}}, Result: "INT"}},
		Compile:    regexKernel(textfn.RegexpInstr)},
	{Name: "REGEXP_SUBSTR", Kind: ScalarFunction, Description: "the first match of p; NULL when nothing matches or p is invalid",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}}, Result: "STRING"}},
		Compile:    regexKernel(textfn.RegexpSubstr)},
	{Name: "REGEXP_EXTRACT_ALL", Kind: ScalarFunction, Description: "group g (default 1) of every match of p, in order; NULL when g is not a group of p or p is invalid",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "p", Type: ArgString}, {Name: "g", Type: ArgInteger, Optional: true}}, Result: "ARRAY<STRING>"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			var g expr.Expr
			if len(k.Args) > 2 {
				g = k.Args[2]
			}
			return textfn.NewExtractAll(k.Args[0], k.Args[1], g), nil // not folded: a literal holds no ARRAY
		}},
}

func regexKernel(kind textfn.RegexKind) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		var third expr.Expr
		if len(k.Args) > 2 {
			third = k.Args[2]
		}
		return c.Fold(k.F.At, textfn.NewRegex(kind, k.Args[0], k.Args[1], third), k.Args...)
	}
}
