package function

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/windowop"
)

// FunctionKind is how a function is used in a query.
type FunctionKind int

const (
	// ScalarFunction computes a value per row.
	ScalarFunction FunctionKind = iota + 1
	// AggregateFunction folds the rows of a group (window) into a value.
	AggregateFunction
	// WindowFunction is a group window of GROUP BY; TUMBLE, HOP and
	// CUMULATE are also window table functions, TABLE(TUMBLE(...)).
	WindowFunction
	// WindowPropertyFunction is a group window's auxiliary: TUMBLE_START
	// and the like.
	WindowPropertyFunction
	// TableFunction gives rows per row, joined with LATERAL TABLE(...).
	TableFunction
)

func (k FunctionKind) String() string {
	switch k {
	case ScalarFunction:
		return "scalar"
	case AggregateFunction:
		return "aggregate"
	case WindowFunction:
		return "window"
	case WindowPropertyFunction:
		return "window property"
	case TableFunction:
		return "table"
	}
	return fmt.Sprintf("FunctionKind(%d)", int(k))
}

// Syntax is where a function is compiled from.
type Syntax int

const (
	// SyntaxCall is a call f(args) compiled by its entry's kernel.
	SyntaxCall Syntax = iota
	// SyntaxOwnForm is a function with its own grammar, compiled from its
	// own node: CAST(x AS t), EXTRACT(unit FROM t), TRIM(... FROM s).
	SyntaxOwnForm
	// SyntaxGroupBy is a group window or its property, planned by GROUP BY.
	SyntaxGroupBy
	// SyntaxComputedColumn runs only as a computed column of CREATE TABLE
	// (PROCTIME()).
	SyntaxComputedColumn
)

// Function is one entry of a Registry: what the name means, how it is
// typed (Flink's type inference as wsql applies it) and how it runs.
type Function struct {
	Name string
	// Aliases are other names of the same function (CEILING for CEIL).
	Aliases []string
	Kind    FunctionKind
	// Signatures are the argument lists the function accepts. A call is
	// checked against the first one whose length fits.
	Signatures  []Signature
	Description string
	Syntax      Syntax
	// Bare: the function may be written without parentheses
	// (CURRENT_TIMESTAMP).
	Bare bool
	// User: a Go program defined the function (SHOW USER FUNCTIONS).
	User bool

	// Constant computes a call without arguments whose value is fixed for
	// the whole query; its call's arguments are not compiled first.
	Constant func(c Compiler, name string) expr.Expr
	// Compile builds a scalar call whose arguments are compiled and
	// checked against the signature.
	Compile func(c Compiler, k *Call) (expr.Expr, error)
	// Aggregate is the window operator's aggregate and what it accepts.
	Aggregate *AggregateKernel
	// Table runs a table function (LATERAL TABLE); nil for other kinds.
	Table *TableKernel
	// Unsupported is why wsql does not run a Flink function it knows
	// (an entry without a kernel); its error and the docs say it.
	Unsupported string
}

// AggregateKernel is how an aggregate call runs in the window operator.
type AggregateKernel struct {
	Kind windowop.AggKind
	Arg  ArgClass
	// User is the aggregate of kind windowop.User.
	User windowop.UserAggregate
}

// Runs reports whether wsql evaluates the function (SHOW FUNCTIONS lists
// exactly these); the others are Flink functions wsql knows but does not
// run yet.
func (f *Function) Runs() bool {
	return f.Compile != nil || f.Constant != nil || f.Aggregate != nil || f.Syntax != SyntaxCall
}

// Names is the name and the aliases.
func (f *Function) Names() []string {
	return append([]string{f.Name}, f.Aliases...)
}

// Arity is the fewest and most arguments of any signature (hi < 0: no
// limit).
func (f *Function) Arity() (lo, hi int) {
	lo, hi = -1, 0
	for _, s := range f.Signatures {
		n := s.required()
		if lo < 0 || n < lo {
			lo = n
		}
		switch {
		case s.Variadic:
			hi = -1
		case hi >= 0 && len(s.Params) > hi:
			hi = len(s.Params)
		}
	}
	return max(lo, 0), hi
}

// SignatureFor is the first signature that takes n arguments (and no
// time unit).
func (f *Function) SignatureFor(n int) (Signature, bool) { return f.signatureFor(n, false) }

func (f *Function) signatureFor(n int, unit bool) (Signature, bool) {
	for _, s := range f.Signatures {
		if s.Unit == unit && n >= s.required() && (s.Variadic || n <= len(s.Params)) {
			return s, true
		}
	}
	return Signature{}, false
}

// Signature is one argument list and the result type Flink infers for it.
type Signature struct {
	Params []Param
	// Variadic: the last parameter repeats (CONCAT(s, ...)).
	Variadic bool
	// Result is the result type: a SQL type, or how it follows from the
	// arguments.
	Result string
	// Written is the form of a function with a grammar of its own
	// (CAST(x AS type)), which Format prints instead of the parameters.
	Written string
	// Unit: a call of this form names a time unit, FLOOR(t TO DAY) or
	// TIMESTAMPADD(DAY, n, t) (sql.FuncCall.Unit); the unit is not one of
	// Params. Only a call with a unit takes it, and it takes only those.
	Unit bool
}

func (s Signature) required() int {
	n := 0
	for _, p := range s.Params {
		if !p.Optional {
			n++
		}
	}
	return n
}

// Param is the parameter argument i binds to.
func (s Signature) Param(i int) Param {
	if i >= len(s.Params) {
		return s.Params[len(s.Params)-1]
	}
	return s.Params[i]
}

// Format prints the signature as a call of name: SUBSTRING(s STRING,
// start INTEGER [, length INTEGER]) → STRING.
func (s Signature) Format(name string) string {
	if s.Written != "" {
		return s.Written + " → " + s.Result
	}
	var b strings.Builder
	b.WriteString(name + "(")
	closing := ""
	for i, p := range s.Params {
		switch {
		case p.Optional && i > 0:
			b.WriteString(" [, ")
			closing += "]"
		case p.Optional:
			b.WriteString("[")
			closing += "]"
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(p.Name + " " + p.Type.Name)
	}
	if s.Variadic {
		b.WriteString(", ...")
	}
	b.WriteString(closing + ") → " + s.Result)
	return b.String()
}

// Param is one parameter of a signature.
type Param struct {
	Name     string
	Type     ArgType
	Optional bool
}

// ArgType is what a parameter accepts. Check, when set, tests and
// converts the compiled argument i of a call in place, with the error at
// the argument; when nil, the kernel checks the argument itself (because
// its check depends on other arguments or wants a constant).
type ArgType struct {
	Name  string
	Check func(c Compiler, k *Call, i int, p Param) error
	// Sample is an argument of this type, over the columns of the table
	// the registry's tests compile every signature against
	// (planner/function_registry_test.go).
	Sample string
}
