package exprplan

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// builtins is the registry of wsql's built-in functions, what calls
// resolve to when ExprOptions.Functions is nil.
var builtins = function.Builtins()

// The expression compiler is what the function package's kernels compile
// calls with (function.Compiler).
var _ function.Compiler = (*Compiler)(nil)

func (c *Compiler) Fold(at sql.Pos, e expr.Expr, args ...expr.Expr) (expr.Expr, error) {
	return c.fold(at, e, args...)
}

func (c *Compiler) To(x expr.Expr, dt arrow.DataType, at sql.Pos) (expr.Expr, error) {
	return c.to(x, dt, at)
}

func (c *Compiler) StringArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.stringArg(x, at, fn)
}

func (c *Compiler) NumberArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.numberArg(x, at, fn)
}

func (c *Compiler) BooleanArg(x expr.Expr, at sql.Pos, fn string) (expr.Expr, error) {
	return c.boolean(x, at, fn)
}

func (c *Compiler) ConstString(e sql.Expr, what string) (*string, error) {
	return c.constString(e, what)
}

func (c *Compiler) Share(x expr.Expr, build func(x expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	return c.share(x, build)
}

func (c *Compiler) Comparison(at sql.Pos, op string, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	return c.comparison(at, op, l, r, lp, rp)
}

func (c *Compiler) Arith(at sql.Pos, op byte, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	return c.arith(at, op, l, r, lp, rp)
}

func (c *Compiler) Choose(at sql.Pos, what string, whens, thens []expr.Expr, els expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	return c.choose(at, what, whens, thens, els, pos)
}

func (c *Compiler) Coalesce(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	return c.coalesce(at, what, args, pos)
}

func (c *Compiler) ToCommon(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (arrow.DataType, error) {
	return c.toCommon(at, what, args, pos)
}

func (c *Compiler) Extract(at sql.Pos, unit string, x expr.Expr, xp sql.Pos) (expr.Expr, error) {
	return c.extract(at, unit, x, xp)
}

func (c *Compiler) Location() *time.Location { return c.opts.Location }

func (c *Compiler) Now() int64 { return c.opts.Now }

// IsRowtime asks the scope, when it is a RowtimeScope.
func (c *Compiler) IsRowtime(x expr.Expr) bool {
	r, ok := c.scope.(RowtimeScope)
	return ok && r.IsRowtime(x)
}
