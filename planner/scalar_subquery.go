package planner

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// Scalar subqueries, (SELECT AVG(price) FROM bid) used as a value, are
// planned as Flink plans them (Calcite's SubQueryRemoveRule and
// decorrelation): the query's FROM is LEFT joined with the subquery's
// rows reduced to one value per correlation key, and the subquery becomes
// that column. An aggregate without GROUP BY gives one row by itself;
// any other query is reduced by SINGLE_VALUE, which fails the run at a
// second row. An uncorrelated subquery joins without keys, every row
// meeting the one row; a correlated one, WHERE inner = outer, groups by
// its inner expressions and joins on them. No row gives NULL (the LEFT
// join's padding), but a correlated COUNT 0 (countsOfNoRows). The
// subquery's side is an update stream (its value
// changes), so the query's result is too, and a regular join's rows have
// no time attribute.

// scalarSubqueries rewrites stmt's scalar subqueries in the select list,
// WHERE and HAVING into joins; stmt itself when it has none.
func scalarSubqueries(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*sql.Select, error) {
	has := hasScalar(stmt.Where) || hasScalar(stmt.Having)
	for _, it := range stmt.Items {
		has = has || hasScalar(it.Expr)
	}
	if !has {
		return stmt, scalarElsewhere(stmt)
	}
	if err := scalarElsewhere(stmt); err != nil {
		return nil, err
	}
	if stmt.From.Name.Name == "" && stmt.From.Subquery == nil && stmt.From.Join == nil && stmt.From.Window == nil && stmt.From.Values == nil {
		sq := firstScalar(stmt)
		return nil, sql.Errorf(sql.ErrUnsupported, sq.At, "a scalar subquery in a query without FROM is not supported yet")
	}
	fns := opts.functions()
	grouped := len(stmt.GroupBy) > 0 || stmt.GroupingSets != nil || selectHasAggregate(fns, stmt)
	if grouped && (hasScalar(stmt.Having) || itemsHaveScalar(stmt.Items)) {
		return groupedScalars(stmt, cat, opts)
	}
	jp := &joinPlanner{cat: cat, opts: opts}
	query := *stmt
	if query.From.Subquery != nil && query.From.Alias == "" {
		query.From.Alias = "$from" // its columns are named through it below
	}
	outer, err := jp.columnsOf(query.From)
	if err != nil {
		return nil, err
	}
	sj := &scalarJoins{jp: jp, outer: outer, from: query.From}
	query.Items = nil
	for _, it := range expandStars(stmt.Items, outer) {
		if hasScalar(it.Expr) {
			if it.Alias == "" {
				it.Alias = fmt.Sprintf("EXPR$%d", len(query.Items)) // Flink's name for an unnamed expression
			}
			if it.Expr, err = sj.replace(it.Expr); err != nil {
				return nil, err
			}
		}
		query.Items = append(query.Items, it)
	}
	if query.Where, err = sj.replace(stmt.Where); err != nil {
		return nil, err
	}
	query.From = sj.from
	return &query, nil
}

// scalarJoins joins the subqueries of one query to its FROM, one after the
// other, each as the table $sqN.
type scalarJoins struct {
	jp    *joinPlanner
	outer joinColumns // the columns of the query's own FROM
	from  sql.TableRef
	n     int
}

// replace returns a copy of e whose scalar subqueries read their joined
// column, joining each to sj.from.
func (sj *scalarJoins) replace(e sql.Expr) (sql.Expr, error) {
	if !hasScalar(e) {
		return e, nil
	}
	var err error
	out := sql.MapExpr(cloneExpr(e), func(x sql.Expr) sql.Expr {
		sq, ok := x.(*sql.ScalarSubquery)
		if !ok || err != nil {
			return x
		}
		var ref sql.Expr
		ref, err = sj.join(sq)
		return ref
	})
	return out, err
}

// join LEFT joins sq's value, per correlation key, to sj.from and returns
// the column that holds it.
func (sj *scalarJoins) join(sq *sql.ScalarSubquery) (sql.Expr, error) {
	q := sq.Query
	if len(q.Items) != 1 || q.Items[0].Star {
		n := "*"
		if len(q.Items) > 1 {
			n = fmt.Sprint(len(q.Items))
		}
		return nil, sql.Errorf(sql.ErrInvalid, sq.At, "a scalar subquery selects one column, not %s (Flink: Supported form(s): '$SCALAR_QUERY(<RECORDTYPE(SINGLE FIELD)>)')", n)
	}
	if q.Set != nil || len(q.With) > 0 {
		return nil, sql.Errorf(sql.ErrUnsupported, sq.At, "a scalar subquery with WITH or a set operation is not supported yet")
	}
	var inner joinColumns
	if q.From.Name.Name != "" || q.From.Subquery != nil || q.From.Join != nil || q.From.Window != nil || q.From.Values != nil {
		var err error
		if inner, err = sj.jp.columnsOf(q.From); err != nil {
			return nil, err
		}
	}
	c := correlation{inner: inner, outer: sj.outer}
	rest, innerKeys, outerKeys, err := c.split(q.Where)
	if err != nil {
		return nil, err
	}
	if ref := c.outerRef(q.Items[0].Expr, q.Having); ref != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, ref.At, "a scalar subquery reads the outer query's columns only in equalities of its WHERE, inner = outer, not yet elsewhere")
	}
	for _, g := range q.GroupBy {
		if ref := c.outerRef(g); ref != nil {
			return nil, sql.Errorf(sql.ErrUnsupported, ref.At, "a scalar subquery reads the outer query's columns only in equalities of its WHERE, inner = outer, not yet elsewhere")
		}
	}
	alias := fmt.Sprintf("$sq%d", sj.n)
	sj.n++
	body := *q
	body.Where = rest
	body.Items = nil
	var keyRefs []sql.Expr
	for i, k := range innerKeys {
		// a row whose key is NULL equals no outer row: leaving it out
		// keeps it from a group SINGLE_VALUE would fail on
		body.Where = andExpr(body.Where, &sql.IsNull{At: k.Pos(), X: k, Not: true})
		name := fmt.Sprintf("$k%d", i)
		body.Items = append(body.Items, sql.SelectItem{At: k.Pos(), Expr: k, Alias: name})
		keyRefs = append(keyRefs, &sql.ColumnRef{At: k.Pos(), Name: name, NameAt: k.Pos()})
	}
	body.Items = append(body.Items, sql.SelectItem{At: q.Items[0].At, Expr: q.Items[0].Expr, Alias: "$v"})
	grouped := len(q.GroupBy) > 0 || q.GroupingSets != nil
	var sub *sql.Select
	var value sql.Expr // the subquery's value over the joined row; its column when nil
	switch {
	case !grouped && selectHasAggregate(sj.jp.opts.functions(), q):
		// one row per correlation key: the aggregate grouped by the keys
		body.GroupBy = innerKeys
		sub = &body
		if len(innerKeys) > 0 && q.Having == nil {
			value = countsOfNoRows(&body, alias, sj.jp.opts.functions())
		}
	case grouped && len(innerKeys) > 0:
		return nil, sql.Errorf(sql.ErrUnsupported, sq.At, "a correlated scalar subquery with GROUP BY is not supported yet")
	default:
		// any number of rows: SINGLE_VALUE keeps the one, or fails
		sub = &sql.Select{At: q.At, From: sql.TableRef{Subquery: &body, Alias: "$rows", At: q.At}, GroupBy: keyRefs}
		for i, k := range keyRefs {
			sub.Items = append(sub.Items, sql.SelectItem{At: k.Pos(), Expr: k, Alias: fmt.Sprintf("$k%d", i)})
		}
		sub.Items = append(sub.Items, sql.SelectItem{At: q.Items[0].At, Alias: "$v", Expr: &sql.FuncCall{At: q.Items[0].At, Name: "SINGLE_VALUE",
			Args: []sql.Expr{&sql.ColumnRef{At: q.Items[0].At, Name: "$v", NameAt: q.Items[0].At}}}})
	}
	var on sql.Expr
	for i, o := range outerKeys {
		on = andExpr(on, &sql.Binary{At: o.Pos(), Op: "=", L: qualify(o, sj.outer, nil),
			R: &sql.ColumnRef{At: o.Pos(), Table: alias, Name: fmt.Sprintf("$k%d", i), NameAt: o.Pos()}})
	}
	sj.from = sql.TableRef{At: sj.from.At, Join: &sql.Join{At: sq.At, Kind: sql.LeftJoin, Left: sj.from,
		Right: sql.TableRef{Subquery: sub, Alias: alias, At: sq.At}, On: on}}
	if value != nil {
		return value, nil
	}
	return &sql.ColumnRef{At: sq.At, Table: alias, Name: "$v", NameAt: sq.At}, nil
}

// countsOfNoRows handles a correlated aggregate with COUNT, which is 0,
// not NULL, for an outer row no row of the subquery meets (Calcite's
// decorrelation, the "COUNT bug"): the subquery selects each aggregate
// call as a column $aN, and the value is computed over the joined row,
// COUNT's column read as 0 when the join padded it. It returns nil, and
// leaves body alone, when the value has no COUNT.
func countsOfNoRows(body *sql.Select, alias string, fns *function.Registry) sql.Expr {
	last := len(body.Items) - 1
	v := body.Items[last].Expr
	calls := map[sql.Expr]bool{}
	counts := false
	walkExpr(v, func(x sql.Expr) bool {
		if !isAggregateCall(fns, x) {
			return true
		}
		calls[x] = true
		counts = counts || strings.EqualFold(x.(*sql.FuncCall).Name, "COUNT")
		return false
	})
	if !counts {
		return nil
	}
	body.Items = body.Items[:last:last]
	return sql.MapExpr(cloneExprKeeping(v, calls), func(x sql.Expr) sql.Expr {
		if !calls[x] {
			return x
		}
		name := fmt.Sprintf("$a%d", len(body.Items)-last)
		body.Items = append(body.Items, sql.SelectItem{At: x.Pos(), Expr: x, Alias: name})
		var col sql.Expr = &sql.ColumnRef{At: x.Pos(), Table: alias, Name: name, NameAt: x.Pos()}
		if strings.EqualFold(x.(*sql.FuncCall).Name, "COUNT") {
			col = &sql.FuncCall{At: x.Pos(), Name: "COALESCE", Args: []sql.Expr{col, &sql.Literal{At: x.Pos(), Kind: sql.LitInt, Text: "0"}}}
		}
		return col
	})
}

// correlation tells a subquery's own columns from the outer query's.
type correlation struct {
	inner, outer joinColumns
}

// isOuter reports whether ref names a column of the outer query: not one
// of the subquery's own, which hide the outer ones of the same name.
func (c correlation) isOuter(ref *sql.ColumnRef) bool {
	if ref.Table != "" && c.inner.hasTable(ref.Table) {
		return false
	}
	if ref.Table == "" {
		if _, err := c.inner.find(ref); err == nil {
			return false
		}
	}
	_, err := c.outer.find(ref)
	return err == nil
}

// outerRef is the first reference of es to the outer query, or nil.
func (c correlation) outerRef(es ...sql.Expr) *sql.ColumnRef {
	var found *sql.ColumnRef
	for _, e := range es {
		walkExpr(e, func(x sql.Expr) bool {
			if ref, ok := x.(*sql.ColumnRef); ok && found == nil && c.isOuter(ref) {
				found = ref
			}
			return found == nil
		})
	}
	return found
}

// split parts the subquery's WHERE into the conjuncts of its own columns
// and the correlation equalities inner = outer, as key pairs.
func (c correlation) split(where sql.Expr) (rest sql.Expr, inner, outer []sql.Expr, err error) {
	for _, cj := range conjuncts(where) {
		ref := c.outerRef(cj)
		if ref == nil {
			rest = andExpr(rest, cj)
			continue
		}
		if b, ok := cj.(*sql.Binary); ok && b.Op == "=" {
			switch {
			case c.outerRef(b.L) == nil && c.onlyOuter(b.R):
				inner, outer = append(inner, b.L), append(outer, b.R)
				continue
			case c.outerRef(b.R) == nil && c.onlyOuter(b.L):
				inner, outer = append(inner, b.R), append(outer, b.L)
				continue
			}
		}
		return nil, nil, nil, sql.Errorf(sql.ErrUnsupported, ref.At, "a scalar subquery reads the outer query's columns only in equalities of its WHERE, inner = outer, not yet in %s", sqlfmt.Expr(cj))
	}
	return rest, inner, outer, nil
}

// onlyOuter reports whether every column e reads is the outer query's.
func (c correlation) onlyOuter(e sql.Expr) bool {
	only := true
	walkExpr(e, func(x sql.Expr) bool {
		if ref, ok := x.(*sql.ColumnRef); ok && !c.isOuter(ref) && !isNiladic(ref) {
			only = false
		}
		return only
	})
	return only
}

// groupedScalars plans an aggregating query whose select list or HAVING
// has scalar subqueries as Flink does: the aggregation first, its rows
// then joined with the subqueries. The aggregation selects every
// subexpression without a subquery as a column $gN; the outer query
// computes the items and filters by HAVING over its rows and the joined
// values.
func groupedScalars(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*sql.Select, error) {
	agg := *stmt
	agg.Items, agg.Having, agg.Distinct = nil, nil, sql.Pos{}
	const alias = "$grouped"
	seen := map[string]string{}
	hoistOne := func(x sql.Expr) sql.Expr {
		text := sqlfmt.Expr(x)
		name, ok := seen[text]
		if !ok {
			name = fmt.Sprintf("$g%d", len(agg.Items))
			seen[text] = name
			agg.Items = append(agg.Items, sql.SelectItem{At: x.Pos(), Expr: x, Alias: name})
		}
		return &sql.ColumnRef{At: x.Pos(), Table: alias, Name: name, NameAt: x.Pos()}
	}
	// readGrouped makes a correlated subquery read the aggregation's
	// columns: each outer reference of its WHERE (a grouping key) is
	// selected by the aggregation too
	jp := &joinPlanner{cat: cat, opts: opts}
	cols, err := jp.columnsOf(stmt.From)
	readGrouped := func(sq *sql.ScalarSubquery) sql.Expr {
		if err != nil {
			return sq
		}
		var inner joinColumns
		if f := sq.Query.From; f.Name.Name != "" || f.Subquery != nil || f.Join != nil || f.Window != nil || f.Values != nil {
			if inner, err = jp.columnsOf(f); err != nil {
				return sq
			}
		}
		c := correlation{inner: inner, outer: cols}
		if c.outerRef(sq.Query.Where) == nil {
			return sq
		}
		q := *sq.Query
		q.Where = sql.MapExpr(cloneExpr(q.Where), func(x sql.Expr) sql.Expr {
			if ref, ok := x.(*sql.ColumnRef); ok && c.isOuter(ref) {
				return hoistOne(ref)
			}
			return x
		})
		return &sql.ScalarSubquery{At: sq.At, Query: &q}
	}
	hoist := func(e sql.Expr) sql.Expr {
		if e == nil || !hasScalar(e) {
			if e == nil {
				return nil
			}
			return hoistOne(e)
		}
		top := map[sql.Expr]bool{}
		walkExpr(e, func(x sql.Expr) bool {
			if _, ok := x.(*sql.ScalarSubquery); ok {
				return false
			}
			if !hasScalar(x) {
				top[x] = true
				return false
			}
			return true
		})
		return sql.MapExpr(cloneExprKeeping(e, top), func(x sql.Expr) sql.Expr {
			if sq, ok := x.(*sql.ScalarSubquery); ok {
				return readGrouped(sq)
			}
			if !top[x] {
				return x
			}
			return hoistOne(x)
		})
	}
	outer := &sql.Select{At: stmt.At, Distinct: stmt.Distinct}
	for i, it := range stmt.Items {
		if it.Star {
			return nil, sql.Errorf(sql.ErrInvalid, it.At, "SELECT * is not allowed in a query that aggregates")
		}
		name := it.Alias
		if name == "" {
			if c, ok := it.Expr.(*sql.ColumnRef); ok {
				name = c.Name
			} else if name = fieldAlias(it.Expr); name == "" {
				name = fmt.Sprintf("EXPR$%d", i)
			}
		}
		outer.Items = append(outer.Items, sql.SelectItem{At: it.At, Expr: hoist(it.Expr), Alias: name})
	}
	outer.Where = hoist(stmt.Having)
	if err != nil {
		return nil, err
	}
	outer.From = sql.TableRef{Subquery: &agg, Alias: alias, At: stmt.From.At}
	return scalarSubqueries(outer, cat, opts)
}

// expandStars replaces * and t.* by the columns of the query's FROM, so
// the joined subqueries' columns are not among them.
func expandStars(items []sql.SelectItem, cols joinColumns) []sql.SelectItem {
	var out []sql.SelectItem
	for _, it := range items {
		if !it.Star {
			out = append(out, it)
			continue
		}
		for _, c := range cols {
			if it.Table == "" || strings.EqualFold(c.table, it.Table) {
				out = append(out, sql.SelectItem{At: it.At, Expr: &sql.ColumnRef{At: it.At, Table: c.table, Name: c.name, NameAt: it.At}})
			}
		}
	}
	return out
}

func itemsHaveScalar(items []sql.SelectItem) bool {
	for _, it := range items {
		if hasScalar(it.Expr) {
			return true
		}
	}
	return false
}

func hasScalar(e sql.Expr) bool { return firstScalarIn(e) != nil }

func firstScalarIn(e sql.Expr) *sql.ScalarSubquery {
	var found *sql.ScalarSubquery
	walkExpr(e, func(x sql.Expr) bool {
		if sq, ok := x.(*sql.ScalarSubquery); ok && found == nil {
			found = sq
		}
		return found == nil
	})
	return found
}

// firstScalar is the first scalar subquery of stmt's select list, WHERE
// or HAVING.
func firstScalar(stmt *sql.Select) *sql.ScalarSubquery {
	for _, it := range stmt.Items {
		if sq := firstScalarIn(it.Expr); sq != nil {
			return sq
		}
	}
	if sq := firstScalarIn(stmt.Where); sq != nil {
		return sq
	}
	return firstScalarIn(stmt.Having)
}

// scalarElsewhere refuses a scalar subquery in GROUP BY or a join's ON.
func scalarElsewhere(stmt *sql.Select) error {
	for _, g := range stmt.GroupBy {
		if sq := firstScalarIn(g); sq != nil {
			return sql.Errorf(sql.ErrUnsupported, sq.At, "a scalar subquery in GROUP BY is not supported; scalar subqueries work in the select list, WHERE and HAVING")
		}
	}
	var onErr error
	var walkRef func(ref sql.TableRef)
	walkRef = func(ref sql.TableRef) {
		if j := ref.Join; j != nil && onErr == nil {
			if sq := firstScalarIn(j.On); sq != nil {
				onErr = sql.Errorf(sql.ErrUnsupported, sq.At, "a scalar subquery in a join's ON is not supported yet; scalar subqueries work in the select list, WHERE and HAVING")
			}
			walkRef(j.Left)
			walkRef(j.Right)
		}
	}
	walkRef(stmt.From)
	return onErr
}

// cloneExpr copies e's expression nodes, so rewriting the copy leaves the
// statement as written (a view's query is planned for every reader). The
// queries of subqueries are shared, not copied.
func cloneExpr(e sql.Expr) sql.Expr { return cloneExprKeeping(e, nil) }

// cloneExprKeeping copies e but keeps the nodes of keep as they are, so
// they can still be found by identity in the copy.
func cloneExprKeeping(e sql.Expr, keep map[sql.Expr]bool) sql.Expr {
	if e == nil {
		return nil
	}
	return deepCopy(reflect.ValueOf(e), keep).Interface().(sql.Expr)
}

var selectType = reflect.TypeOf(&sql.Select{})

func deepCopy(v reflect.Value, keep map[sql.Expr]bool) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == selectType {
			return v
		}
		if e, ok := v.Interface().(sql.Expr); ok && keep[e] {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(deepCopy(v.Elem(), keep))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(deepCopy(v.Elem(), keep))
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if n.Field(i).CanSet() {
				n.Field(i).Set(deepCopy(v.Field(i), keep))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopy(v.Index(i), keep))
		}
		return n
	}
	return v
}
