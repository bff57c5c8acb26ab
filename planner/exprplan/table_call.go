package exprplan

import (
	"strings"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// TableCall compiles the call of LATERAL TABLE(f(args)): the table
// function and its arguments, checked against its parameters and cast to
// them as a scalar call's are.
func (c *Compiler) TableCall(f *sql.FuncCall) (*function.Function, []expr.Expr, error) {
	name := strings.ToUpper(f.Name)
	fn := c.fns.Lookup(name)
	switch {
	case fn == nil:
		return nil, nil, sql.Errorf(sql.ErrInvalid, f.At, "unknown table function %s%s", name, sql.DidYouMean(name, c.fns.CallableNames()))
	case fn.Kind != function.TableFunction || fn.Table == nil:
		return nil, nil, sql.Errorf(sql.ErrInvalid, f.At, "%s is not a table function: LATERAL TABLE calls a table function, which a Go program registers with Engine.RegisterFunction", name)
	}
	lo, hi := fn.Arity()
	if err := function.CheckArity(f, lo, hi); err != nil {
		return nil, nil, err
	}
	k := &function.Call{F: f, Name: name, Args: make([]expr.Expr, len(f.Args)), Pos: make([]sql.Pos, len(f.Args))}
	for i, a := range f.Args {
		x, err := c.compile(a)
		if err != nil {
			return nil, nil, err
		}
		k.Args[i], k.Pos[i] = x, a.Pos()
	}
	sig, _ := fn.SignatureFor(len(k.Args))
	for i := range k.Args {
		if p := sig.Param(i); p.Type.Check != nil {
			if err := p.Type.Check(c, k, i, p); err != nil {
				return nil, nil, err
			}
		}
	}
	return fn, k.Args, nil
}
