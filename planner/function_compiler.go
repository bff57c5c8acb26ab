package planner

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// builtins is the registry of wsql's built-in functions, what calls
// resolve to when Options.Functions is nil.
var builtins = function.Builtins()

// functions is the registry calls resolve to.
func (o Options) functions() *function.Registry {
	if o.Functions != nil {
		return o.Functions
	}
	return builtins
}

// The expression compiler is what the function package's kernels compile
// calls with (function.Compiler).
var _ function.Compiler = (*exprCompiler)(nil)

func (c *exprCompiler) Fold(at sql.Pos, e expr.Expr, args ...expr.Expr) (expr.Expr, error) {
	return c.fold(at, e, args...)
}

func (c *exprCompiler) To(x expr.Expr, dt arrow.DataType, at sql.Pos) (expr.Expr, error) {
	return c.to(x, dt, at)
}

func (c *exprCompiler) StringArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.stringArg(x, at, fn)
}

func (c *exprCompiler) NumberArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.numberArg(x, at, fn)
}

func (c *exprCompiler) BooleanArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.boolean(x, at, fn)
}

func (c *exprCompiler) ConstString(e sql.Expr, what string) (*string, error) {
	return c.constString(e, what)
}

func (c *exprCompiler) Share(x expr.Expr, build func(x expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	return c.share(x, build)
}

func (c *exprCompiler) Comparison(at sql.Pos, op string, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	return c.comparison(at, op, l, r, lp, rp)
}

func (c *exprCompiler) Arith(at sql.Pos, op byte, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	return c.arith(at, op, l, r, lp, rp)
}

func (c *exprCompiler) Choose(at sql.Pos, what string, whens, thens []expr.Expr, els expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	return c.choose(at, what, whens, thens, els, pos)
}

func (c *exprCompiler) Coalesce(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	return c.coalesce(at, what, args, pos)
}

func (c *exprCompiler) ToCommon(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (arrow.DataType, error) {
	return c.toCommon(at, what, args, pos)
}

func (c *exprCompiler) Extract(at sql.Pos, unit string, x expr.Expr, xp sql.Pos) (expr.Expr, error) {
	return c.extract(at, unit, x, xp)
}

func (c *exprCompiler) Location() *time.Location { return c.opts.Location }

func (c *exprCompiler) Now() int64 { return c.opts.Now }

func (c *exprCompiler) IsRowtime(x expr.Expr) bool {
	r, ok := c.scope.(interface{ isRowtime(expr.Expr) bool })
	return ok && r.isRowtime(x)
}
