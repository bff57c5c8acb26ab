package exprplan

import (
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// nestedComparison is l = r or l <> r over nested values. Flink compares
// ROW, ARRAY, MAP and MULTISET values for equality only.
func (c *Compiler) nestedComparison(at sql.Pos, op string, l, r expr.Expr) (expr.Expr, error) {
	lt, rt := l.DataType(), r.DataType()
	if op != "=" && op != "<>" && op != "!=" {
		return nil, sql.Errorf(sql.ErrInvalid, at, "%s cannot order %s and %s: values of nested types are compared only with =, <> and IS [NOT] DISTINCT FROM", op, typeName(lt), typeName(rt))
	}
	if !nestedfn.Comparable(lt, rt) || format.IsMultiset(lt) != format.IsMultiset(rt) {
		return nil, sql.Errorf(sql.ErrInvalid, at, "cannot compare %s with %s", typeName(lt), typeName(rt))
	}
	return c.fold(at, &nestedfn.Equal{L: l, R: r, Not: op != "="}, l, r)
}
