package planner

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// Scalar function calls: the function comes from the registry, arity and
// argument types are checked against its signature, with errors at the
// argument that is wrong, and its kernel builds the expression.

// arity checks the argument count: between lo and hi (hi < 0: no limit).
func arity(f *sql.FuncCall, lo, hi int) error {
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

func (c *exprCompiler) function(f *sql.FuncCall) (expr.Expr, error) {
	name := strings.ToUpper(f.Name)
	fn := c.fns.Lookup(name)
	if fn != nil && fn.Kind == AggregateFunction {
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "aggregate %s is not allowed here", name)
	}
	// constants first: they take no column
	if fn != nil && fn.constant != nil {
		if len(f.Args) == 0 {
			return fn.constant(c, name), nil
		}
		if fn.compile == nil {
			lo, hi := fn.arity()
			return nil, arity(f, lo, hi)
		}
	}
	k := &scalarCall{f: f, name: name, args: make([]expr.Expr, len(f.Args)), pos: make([]sql.Pos, len(f.Args))}
	for i, a := range f.Args {
		x, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		k.args[i], k.pos[i] = x, a.Pos()
	}
	if fn == nil {
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", name, sql.DidYouMean(name, c.fns.callableNames()))
	}
	if fn.compile == nil {
		return nil, sql.Errorf(sql.ErrUnsupported, f.At, "function %s is not supported here yet", name)
	}
	lo, hi := fn.arity()
	if err := arity(f, lo, hi); err != nil {
		return nil, err
	}
	sig, _ := fn.signatureFor(len(k.args))
	for i := range k.args {
		if err := c.millisArg(k, i, sig.param(i)); err != nil {
			return nil, err
		}
		if p := sig.param(i); p.Type.check != nil {
			if err := p.Type.check(c, k, i, p); err != nil {
				return nil, err
			}
		}
	}
	return fn.compile(c, k)
}

// The argument types most functions share.
var (
	argAny = argType{name: "any", sample: "i"}
	// argString: a STRING (a NULL literal becomes one).
	argString = argType{name: "STRING", sample: "s", check: func(c *exprCompiler, k *scalarCall, i int, _ Param) (err error) {
		k.args[i], err = c.stringArg(k.args[i], k.pos[i], k.name)
		return err
	}}
	// argNumber: a number (a NULL literal becomes an INT NULL).
	argNumber = argType{name: "NUMERIC", sample: "d", check: func(c *exprCompiler, k *scalarCall, i int, _ Param) (err error) {
		k.args[i], err = c.numberArg(k.args[i], k.pos[i], k.name)
		return err
	}}
	// argDouble: a number, computed as a DOUBLE.
	argDouble = argType{name: "NUMERIC", sample: "i", check: func(c *exprCompiler, k *scalarCall, i int, _ Param) error {
		x, err := c.numberArg(k.args[i], k.pos[i], k.name)
		if err != nil {
			return err
		}
		k.args[i], err = c.to(x, tDouble, k.pos[i])
		return err
	}}
	// argInteger: an integer, computed as a BIGINT; the error names the
	// parameter.
	argInteger = argType{name: "INTEGER", sample: "i", check: func(c *exprCompiler, k *scalarCall, i int, p Param) (err error) {
		dt := k.args[i].DataType()
		if !isInteger(dt) && !isNull(dt) {
			return sql.Errorf(sql.ErrInvalid, k.pos[i], "%s expects an integer %s, got %s", k.f.Name, p.Name, typeName(dt))
		}
		k.args[i], err = c.to(k.args[i], tBigint, k.pos[i])
		return err
	}}
	// argBoolean: a BOOLEAN (a NULL literal becomes one).
	argBoolean = argType{name: "BOOLEAN", sample: "flag", check: func(c *exprCompiler, k *scalarCall, i int, _ Param) (err error) {
		k.args[i], err = c.boolean(k.args[i], k.pos[i], k.name)
		return err
	}}
	// argFormat: a constant STRING, read by the kernel.
	argFormat = argType{name: "STRING constant", sample: "'yyyy-MM-dd HH:mm:ss'"}
)

// stringCall is UPPER, LOWER, CHAR_LENGTH, CONCAT (and ||), REPLACE: every
// argument a STRING.
func (c *exprCompiler) stringCall(at sql.Pos, fn, written string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	for i, a := range args {
		x, err := c.stringArg(a, pos[i], written)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return c.fold(at, &expr.StringFunc{Name: fn, Args: args}, args...)
}

// numberArg checks that x is a number (a NULL literal becomes an INT NULL).
func (c *exprCompiler) numberArg(x expr.Expr, pos sql.Pos, fn string) (expr.Expr, error) {
	dt := x.DataType()
	switch {
	case isNumeric(dt):
		return x, nil
	case isNull(dt):
		return expr.NullLiteral(tInt), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, pos, "%s expects a number, got %s", fn, typeName(dt))
}

// formatArg returns the constant string argument i, or def when absent.
func (c *exprCompiler) formatArg(f *sql.FuncCall, i int, def string) (string, error) {
	if len(f.Args) <= i {
		return def, nil
	}
	s, err := c.constString(f.Args[i], "the format of "+f.Name)
	if err != nil {
		return "", err
	}
	if s == nil {
		return "", sql.Errorf(sql.ErrInvalid, f.Args[i].Pos(), "the format of %s cannot be NULL", f.Name)
	}
	return *s, nil
}
