package exprplan

import (
	"strings"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// Scalar function calls: the function comes from the registry, arity and
// argument types are checked against its signature, with errors at the
// argument that is wrong (function.Function.Bind), and its kernel builds
// the expression.

func (c *Compiler) function(f *sql.FuncCall) (expr.Expr, error) {
	name := strings.ToUpper(f.Name)
	fn := c.fns.Lookup(name)
	switch {
	case fn != nil && fn.Kind == function.AggregateFunction:
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "aggregate %s is not allowed here", name)
	case fn != nil && fn.Kind == function.TableFunction:
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "table function %s gives rows: it is called in FROM as LATERAL TABLE(%s(...)), joined with the table whose rows it expands", name, name)
	}
	if f.Filter != nil {
		return nil, sql.Errorf(sql.ErrInvalid, f.Filter.Pos(), "FILTER (WHERE ...) belongs to aggregate calls; %s is not an aggregate", name)
	}
	// constants first: they take no column
	if fn != nil && fn.Constant != nil {
		if len(f.Args) == 0 {
			return fn.Constant(c, name), nil
		}
		if fn.Compile == nil {
			lo, hi := fn.Arity()
			return nil, function.CheckArity(f, lo, hi)
		}
	}
	k := &function.Call{F: f, Name: name, Args: make([]expr.Expr, len(f.Args)), Pos: make([]sql.Pos, len(f.Args))}
	for i, a := range f.Args {
		x, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		k.Args[i], k.Pos[i] = x, a.Pos()
	}
	if fn == nil {
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", name, sql.DidYouMean(name, c.fns.CallableNames()))
	}
	return fn.Bind(c, k)
}

// stringCall is UPPER, LOWER, CHAR_LENGTH, CONCAT (and ||), REPLACE: every
// argument a STRING.
func (c *Compiler) stringCall(at sql.Pos, fn, written string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
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
func (c *Compiler) numberArg(x expr.Expr, pos sql.Pos, fn string) (expr.Expr, error) {
	dt := x.DataType()
	switch {
	case isNumeric(dt):
		return x, nil
	case isNull(dt):
		return expr.NullLiteral(tInt), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, pos, "%s expects a number, got %s", fn, typeName(dt))
}
