package planner

import (
	"fmt"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// subqueryJoins plans the conditions of WHERE that are subqueries as
// Flink does: x IN (SELECT y ...) and EXISTS (SELECT ...) become a semi
// join of FROM with the subquery's rows, their NOT forms an anti join.
// A subquery's own condition may read the outer query's columns (a
// correlated subquery); it joins the two. It returns stmt itself when
// WHERE has no subquery.
func subqueryJoins(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*sql.Select, error) {
	if !hasSubquery(stmt.Where) {
		return stmt, subqueryElsewhere(stmt)
	}
	jp := &joinPlanner{cat: cat, opts: opts}
	query := *stmt
	query.Where = nil
	for _, c := range conjuncts(stmt.Where) {
		sq, not := asSubquery(c)
		if sq == nil {
			if hasSubquery(c) {
				return nil, subqueryPlace(c)
			}
			query.Where = andExpr(query.Where, c)
			continue
		}
		from, err := jp.subqueryJoin(query.From, sq, not, opts.functions())
		if err != nil {
			return nil, err
		}
		query.From = from
	}
	return &query, subqueryElsewhere(&query)
}

// subqueryJoin is the join of from with the rows of sq.
func (jp *joinPlanner) subqueryJoin(from sql.TableRef, sq *sql.Subquery, not bool, fns *function.Registry) (sql.TableRef, error) {
	q := sq.Query
	kind := sql.SemiJoin
	if not {
		kind = sql.AntiJoin
	}
	outer, err := jp.columnsOf(from)
	if err != nil {
		return sql.TableRef{}, err
	}
	simple := q.GroupBy == nil && q.GroupingSets == nil && q.Having == nil && !q.Distinct.IsValid() && q.OrderBy == nil &&
		q.Limit == nil && q.Set == nil && len(q.With) == 0 && q.From.Values == nil &&
		(q.From.Name.Name != "" || q.From.Subquery != nil || q.From.Join != nil || q.From.Window != nil) &&
		!selectHasAggregate(fns, q)
	var right sql.TableRef
	var conds []sql.Expr
	var y sql.Expr
	if sq.X != nil {
		if len(q.Items) != 1 || q.Items[0].Star {
			return sql.TableRef{}, sql.Errorf(sql.ErrInvalid, q.At, "the query of IN (SELECT ...) selects one column, not %d", len(q.Items))
		}
	}
	if simple {
		// its FROM joins directly; its WHERE joins or filters it
		right = q.From
		inner, err := jp.columnsOf(right)
		if err != nil {
			return sql.TableRef{}, err
		}
		for _, c := range conjuncts(q.Where) {
			conds = append(conds, qualify(c, inner, outer))
		}
		if sq.X != nil {
			y = qualify(q.Items[0].Expr, inner, nil)
		}
	} else {
		alias := fmt.Sprintf("$subquery%d", sq.At.Offset)
		sub := *q
		if sq.X != nil {
			sub.Items = []sql.SelectItem{q.Items[0]}
			sub.Items[0].Alias = "$in"
			y = &sql.ColumnRef{At: q.Items[0].At, Table: alias, Name: "$in", NameAt: q.Items[0].At}
		}
		right = sql.TableRef{Subquery: &sub, Alias: alias, At: q.At}
	}
	if sq.X != nil {
		x := qualify(sq.X, outer, nil)
		eq := &sql.Binary{At: sq.At, Op: "=", L: x, R: y}
		if not {
			// NOT IN is false for a NULL x or when the subquery has a NULL:
			// Flink's null-aware anti join
			conds = append(conds, &sql.Binary{At: sq.At, Op: "OR", L: eq, R: &sql.Binary{At: sq.At, Op: "OR",
				L: &sql.IsNull{At: sq.At, X: x}, R: &sql.IsNull{At: sq.At, X: y}}})
		} else {
			conds = append(conds, eq)
		}
	}
	var on sql.Expr = &sql.Literal{At: sq.At, Kind: sql.LitBool, Text: "TRUE"}
	if len(conds) > 0 {
		on = nil
		for _, c := range conds {
			on = andExpr(on, c)
		}
	}
	return sql.TableRef{Join: &sql.Join{At: sq.At, Kind: kind, Left: from, Right: right, On: on}, At: from.At}, nil
}

// qualify names the table of each unqualified column of e: the first of
// cols that has it, else of outer (a correlated reference).
func qualify(e sql.Expr, cols, outer joinColumns) sql.Expr {
	return sql.MapExpr(e, func(x sql.Expr) sql.Expr {
		c, ok := x.(*sql.ColumnRef)
		if !ok || c.Table != "" {
			return x
		}
		for _, in := range []joinColumns{cols, outer} {
			if i, err := in.find(c); err == nil && in[i].table != "" {
				q := *c
				q.Table = in[i].table
				return &q
			}
		}
		return x
	})
}

// asSubquery reads a condition as a subquery and whether it is negated.
func asSubquery(e sql.Expr) (*sql.Subquery, bool) {
	switch x := e.(type) {
	case *sql.Subquery:
		return x, x.Not
	case *sql.Unary:
		if sq, ok := x.X.(*sql.Subquery); ok && x.Op == "NOT" {
			return sq, !sq.Not
		}
	}
	return nil, false
}

func hasSubquery(e sql.Expr) bool {
	return firstSubquery(e) != nil
}

func firstSubquery(e sql.Expr) *sql.Subquery {
	var found *sql.Subquery
	walkExpr(e, func(x sql.Expr) bool {
		if sq, ok := x.(*sql.Subquery); ok && found == nil {
			found = sq
		}
		return found == nil
	})
	return found
}

// subqueryPlace refuses a subquery inside another condition.
func subqueryPlace(e sql.Expr) error {
	sq := firstSubquery(e)
	return sql.Errorf(sql.ErrUnsupported, sq.At, "IN (SELECT ...) and EXISTS (SELECT ...) are supported as conditions of WHERE joined to the others by AND, not inside another expression yet")
}

// subqueryElsewhere refuses a subquery outside WHERE.
func subqueryElsewhere(stmt *sql.Select) error {
	for _, it := range stmt.Items {
		if sq := firstSubquery(it.Expr); sq != nil {
			return sql.Errorf(sql.ErrUnsupported, sq.At, "a subquery in the select list is not supported yet; IN (SELECT ...) and EXISTS (SELECT ...) work in WHERE")
		}
	}
	if sq := firstSubquery(stmt.Having); sq != nil {
		return sql.Errorf(sql.ErrUnsupported, sq.At, "a subquery in HAVING is not supported yet; IN (SELECT ...) and EXISTS (SELECT ...) work in WHERE")
	}
	return nil
}
