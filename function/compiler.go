package function

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// Compiler is what compiling a call needs from the planner's expression
// compiler: its checks and conversions, with errors at a position, and
// the per-query values (the session time zone, the query's start time).
type Compiler interface {
	// Fold evaluates e now when every one of args is a literal, so a
	// constant call costs nothing per row and its error points at at.
	Fold(at sql.Pos, e expr.Expr, args ...expr.Expr) (expr.Expr, error)
	// To converts x to dt: a NULL literal becomes a typed NULL, a literal
	// is converted now (errors at at), anything else gets a cast.
	To(x expr.Expr, dt arrow.DataType, at sql.Pos) (expr.Expr, error)
	// StringArg checks that x is a STRING (a NULL literal becomes one);
	// fn names the function in the error.
	StringArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error)
	// NumberArg checks that x is a number (a NULL literal becomes an INT
	// NULL).
	NumberArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error)
	// BooleanArg checks that x is a BOOLEAN (a NULL literal becomes one).
	BooleanArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error)
	// ConstString is the value of a constant string expression (nil for
	// NULL); what names it in the error when e is not constant.
	ConstString(e sql.Expr, what string) (*string, error)
	// Share builds a form that reads x more than once over one evaluation
	// of x (NULLIF's operand).
	Share(x expr.Expr, build func(x expr.Expr) (expr.Expr, error)) (expr.Expr, error)
	// Comparison is l op r (=, <>, <, <=, >, >=) over their common type.
	Comparison(at sql.Pos, op string, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error)
	// Arith is l op r (+ - * / %) with Flink's result types.
	Arith(at sql.Pos, op byte, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error)
	// Choose is CASE WHEN whens[i] THEN thens[i] ... ELSE els END over the
	// results' common type; what names the form, pos are the results'.
	Choose(at sql.Pos, what string, whens, thens []expr.Expr, els expr.Expr, pos []sql.Pos) (expr.Expr, error)
	// Coalesce is the first argument that is not NULL, over their common
	// type, each evaluated only for the rows still NULL.
	Coalesce(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error)
	// ToCommon brings scalar values (in place) to their common type, as
	// CASE's results, and returns it; what names the form in errors.
	ToCommon(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (arrow.DataType, error)
	// Extract is EXTRACT(unit FROM x).
	Extract(at sql.Pos, unit string, x expr.Expr, xp sql.Pos) (expr.Expr, error)
	// Location is the session time zone ('table.local-time-zone'); nil
	// is UTC.
	Location() *time.Location
	// Now is the query's start time in epoch milliseconds.
	Now() int64
	// IsRowtime reports whether x reads the rowtime attribute of the rows
	// the expression runs over, after their watermark is assigned
	// (CURRENT_WATERMARK's argument).
	IsRowtime(x expr.Expr) bool
}

// Call is a scalar function call being compiled: its arguments are
// compiled, and checked and converted as its signature says.
type Call struct {
	F *sql.FuncCall
	// Name is the name as written (upper case), so an alias's errors name
	// the alias.
	Name string
	Args []expr.Expr
	// Pos are the arguments' positions.
	Pos []sql.Pos
}

// Bind checks a call's arguments against the function's signatures (their
// number, then each argument's type in place) and compiles it with the
// function's kernel.
func (f *Function) Bind(c Compiler, k *Call) (expr.Expr, error) {
	if f.Compile == nil {
		if f.Unsupported != "" {
			return nil, sql.Errorf(sql.ErrUnsupported, k.F.At, "function %s is not supported yet: %s", k.Name, f.Unsupported)
		}
		return nil, sql.Errorf(sql.ErrUnsupported, k.F.At, "function %s is not supported here yet", k.Name)
	}
	lo, hi := f.Arity()
	if err := CheckArity(k.F, lo, hi); err != nil {
		return nil, err
	}
	sig, ok := f.signatureFor(len(k.Args), k.F.Unit != "")
	if !ok && k.F.Unit != "" {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "%s takes no time unit", k.Name)
	}
	for i := range k.Args {
		if p := sig.Param(i); p.Type.Check != nil {
			if err := p.Type.Check(c, k, i, p); err != nil {
				return nil, err
			}
		}
	}
	return f.Compile(c, k)
}

// CheckArity checks the argument count: between lo and hi (hi < 0: no
// limit).
func CheckArity(f *sql.FuncCall, lo, hi int) error {
	n := len(f.Args)
	if n >= lo && (hi < 0 || n <= hi) {
		return nil
	}
	var want string
	switch {
	case lo == hi && lo == 0:
		want = "no arguments"
	case lo == hi && lo == 1:
		want = "1 argument"
	case lo == hi:
		want = fmt.Sprintf("%d arguments", lo)
	case hi < 0:
		want = fmt.Sprintf("at least %d argument%s", lo, map[bool]string{true: "", false: "s"}[lo == 1])
	default:
		want = fmt.Sprintf("%d to %d arguments", lo, hi)
	}
	return sql.Errorf(sql.ErrInvalid, f.At, "%s takes %s, got %d", f.Name, want, n)
}

// FormatArg is the constant string argument i of a call, or def when
// absent.
func FormatArg(c Compiler, k *Call, i int, def string) (string, error) {
	f := k.F
	if len(f.Args) <= i {
		return def, nil
	}
	s, err := c.ConstString(f.Args[i], "the format of "+f.Name)
	if err != nil {
		return "", err
	}
	if s == nil {
		return "", sql.Errorf(sql.ErrInvalid, f.Args[i].Pos(), "the format of %s cannot be NULL", f.Name)
	}
	return *s, nil
}
