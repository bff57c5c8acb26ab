package exprplan

import (
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/predicate"
	"github.com/wsql/wsql/sql"
)

// Flink's predicates built from the others: IS [NOT] DISTINCT FROM,
// IS [NOT] TRUE/FALSE and BETWEEN SYMMETRIC, each never reading an operand
// twice (share); and SIMILAR TO, a regular expression compiled once.

// distinctFrom is l IS [NOT] DISTINCT FROM r, never NULL: NOT DISTINCT is
// COALESCE(l = r, l IS NULL AND r IS NULL).
func (c *Compiler) distinctFrom(e *sql.Binary, l, r expr.Expr) (expr.Expr, error) {
	return c.share(l, func(x expr.Expr) (expr.Expr, error) {
		return c.share(r, func(y expr.Expr) (expr.Expr, error) {
			eq, err := c.comparison(e.At, "=", x, y, e.L.Pos(), e.R.Pos())
			if err != nil {
				return nil, err
			}
			bothNull := &expr.And{L: &expr.IsNull{X: x}, R: &expr.IsNull{X: y}}
			same, err := c.coalesce(e.At, e.Op, []expr.Expr{eq, bothNull}, []sql.Pos{e.At, e.At})
			if err != nil {
				return nil, err
			}
			if e.Op == "IS DISTINCT FROM" {
				return c.fold(e.At, &expr.Not{X: same}, x, y)
			}
			return c.fold(e.At, same, x, y)
		})
	})
}

// isTruth is x IS [NOT] TRUE/FALSE: x IS TRUE is COALESCE(x, FALSE).
func (c *Compiler) isTruth(e *sql.IsTruth) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	if x, err = c.boolean(x, e.X.Pos(), "IS TRUE"); err != nil {
		return nil, err
	}
	v := x
	if !e.Value {
		v = &expr.Not{X: x}
	}
	var out expr.Expr = &expr.Coalesce{Args: []expr.Expr{v, &expr.Literal{Type: tBool}}, Type: tBool}
	if e.Not {
		out = &expr.Not{X: out}
	}
	return c.fold(e.At, out, x)
}

// betweenSymmetric is x [NOT] BETWEEN SYMMETRIC lo AND hi: between lo and
// hi in either order, (x BETWEEN lo AND hi) OR (x BETWEEN hi AND lo), so a
// NULL bound gives Flink's UNKNOWN.
func (c *Compiler) betweenSymmetric(e *sql.Between, x, lo, hi expr.Expr) (expr.Expr, error) {
	xp, lp, hp := e.X.Pos(), e.Lo.Pos(), e.Hi.Pos()
	return c.share(x, func(x expr.Expr) (expr.Expr, error) {
		return c.share(lo, func(lo expr.Expr) (expr.Expr, error) {
			return c.share(hi, func(hi expr.Expr) (expr.Expr, error) {
				within := func(a, b expr.Expr, ap, bp sql.Pos) (expr.Expr, error) {
					l, err := c.comparison(e.At, ">=", x, a, xp, ap)
					if err != nil {
						return nil, err
					}
					r, err := c.comparison(e.At, "<=", x, b, xp, bp)
					if err != nil {
						return nil, err
					}
					return &expr.And{L: l, R: r}, nil
				}
				up, err := within(lo, hi, lp, hp)
				if err != nil {
					return nil, err
				}
				down, err := within(hi, lo, hp, lp)
				if err != nil {
					return nil, err
				}
				var out expr.Expr = &expr.Or{L: up, R: down}
				if e.Not {
					out = &expr.Not{X: out}
				}
				return c.fold(e.At, out, x, lo, hi)
			})
		})
	})
}

// similar is x [NOT] SIMILAR TO pattern [ESCAPE c], the pattern a
// constant.
func (c *Compiler) similar(e *sql.Like, x expr.Expr) (expr.Expr, error) {
	x, err := c.stringArg(x, e.X.Pos(), "SIMILAR TO")
	if err != nil {
		return nil, err
	}
	pattern, escape, err := c.patternOf(e, "the SIMILAR TO pattern")
	if err != nil {
		return nil, err
	}
	if pattern == nil {
		return expr.NullLiteral(tBool), nil
	}
	st, err := predicate.NewSimilarTo(x, *pattern, escape)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, e.Pattern.Pos(), "%v", err)
	}
	var out expr.Expr = st
	if e.Not {
		out = &expr.Not{X: st}
	}
	return c.fold(e.At, out, x)
}
