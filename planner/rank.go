package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/sql"
)

// rankItem returns the index of the select item of q that is a
// ROW_NUMBER() OVER (...) call, or -1.
func rankItem(q *sql.Select) int {
	for i, it := range q.Items {
		if o, ok := it.Expr.(*sql.OverCall); ok && rankFunctions[o.Func.Name] {
			return i
		}
	}
	return -1
}

// rankRelation plans Flink's Top-N and deduplication forms:
//
//	SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (PARTITION BY p ORDER BY o) AS rn FROM t ...)
//	WHERE rn <= N [AND ...]
//
// The inner query without the ROW_NUMBER item (plus the partition and
// order expressions as hidden items) is planned as usual, a rank ranks
// its rows, and the outer query reads the ranked rows with the bounds on
// rn taken out of its WHERE. A rank of 1 ordered by a time attribute
// alone, without rn in the result, is a deduplication, as in Flink.
func rankRelation(outer *sql.Select, name string, inner *sql.Select, colNames []string, cat *catalog.Catalog, opts Options, at sql.Pos) (*catalog.Table, *Plan, *sql.Select, error) {
	k := rankItem(inner)
	over := inner.Items[k].Expr.(*sql.OverCall)
	rnName := inner.Items[k].Alias
	if rnName == "" {
		rnName = fmt.Sprintf("EXPR$%d", k)
	}
	if len(colNames) > 0 {
		if len(colNames) != len(inner.Items) {
			return nil, nil, nil, sql.Errorf(sql.ErrInvalid, at, "view %s names %d columns but its query has %d", name, len(colNames), len(inner.Items))
		}
		rnName = colNames[k]
	}
	rankType, known := rankTypes[over.Func.Name]
	switch f := over.Func.Name; {
	case !known:
		return nil, nil, nil, sql.Errorf(sql.ErrUnsupported, over.At, "%s OVER (...) is not supported yet: OVER aggregations are not built", f)
	case len(over.Func.Args) > 0:
		return nil, nil, nil, sql.Errorf(sql.ErrInvalid, over.At, "%s() takes no arguments", f)
	case over.Frame != nil:
		return nil, nil, nil, sql.Errorf(sql.ErrInvalid, over.Frame.At, "%s() takes no ROWS or RANGE frame", f)
	case len(over.OrderBy) == 0:
		return nil, nil, nil, sql.Errorf(sql.ErrInvalid, over.At, "%s() needs an ORDER BY in its OVER clause", f)
	}
	start, end, rest, err := rankBounds(outer.Where, rnName, outer.From.Alias, over.At)
	if err != nil {
		return nil, nil, nil, err
	}
	withRank := readsColumn(outer, rest, rnName)

	// the inner query: its items without rn, then the hidden keys
	q := *inner
	q.Items = nil
	for i, it := range inner.Items {
		if i == k {
			continue
		}
		if it.Alias == "" && len(colNames) > 0 {
			it.Alias = colNames[i]
		}
		if _, nested := it.Expr.(*sql.OverCall); nested {
			return nil, nil, nil, sql.Errorf(sql.ErrUnsupported, it.At, "only one ROW_NUMBER() is supported in a Top-N query")
		}
		q.Items = append(q.Items, it)
	}
	visible := len(q.Items)
	for _, it := range q.Items {
		if it.Star {
			visible = -1 // counted once planned
		}
	}
	mode, timeKey := rankop.TopN, over.OrderBy[0]
	// rank 1 by time alone is a deduplication; by RANK, rows of equal
	// times tie at 1, so it stays a Top-N
	if rankType == rankop.RowNumber && start == 1 && end == 1 && !withRank && len(over.OrderBy) == 1 {
		if c, ok := timeKey.Expr.(*sql.ColumnRef); ok {
			switch timeAttributeKind(inner, c, cat, opts) {
			case proctimeAttr:
				mode = rankop.FirstByArrival
				if timeKey.Desc {
					mode = rankop.LastByArrival
				}
			case rowtimeAttr:
				mode = rankop.FirstByTime
				if timeKey.Desc {
					mode = rankop.LastByTime
				}
			}
		}
	}
	for i, p := range over.PartitionBy {
		q.Items = append(q.Items, sql.SelectItem{At: p.Pos(), Expr: p, Alias: fmt.Sprintf("$partition%d", i)})
	}
	if mode != rankop.FirstByArrival && mode != rankop.LastByArrival {
		for i, o := range over.OrderBy {
			q.Items = append(q.Items, sql.SelectItem{At: o.Expr.Pos(), Expr: o.Expr, Alias: fmt.Sprintf("$order%d", i)})
		}
	}
	p, err := PlanSelect(&q, cat, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	if p.Updates() {
		node, _ := p.updateNode()
		return nil, nil, nil, sql.Errorf(sql.ErrUnsupported, over.At, "a Top-N over the update stream of %s is not supported yet", node)
	}
	if !p.Plain {
		return nil, nil, nil, sql.Errorf(sql.ErrUnsupported, over.At, "a Top-N over an aggregation in the same query is not supported yet; rank the aggregation's rows in an outer query: SELECT *, ROW_NUMBER() OVER (...) AS rn FROM (SELECT ... GROUP BY ...)")
	}
	in := p.Schema()
	hidden := len(over.PartitionBy)
	if mode != rankop.FirstByArrival && mode != rankop.LastByArrival {
		hidden += len(over.OrderBy)
	}
	if visible < 0 {
		visible = in.NumFields() - hidden
	}
	cfg := rankop.Config{Input: in, Start: start, End: end, Mode: mode, Type: rankType}
	for i := range visible {
		cfg.Output = append(cfg.Output, i)
	}
	for i := range over.PartitionBy {
		cfg.Partition = append(cfg.Partition, visible+i)
	}
	base := visible + len(over.PartitionBy)
	switch mode {
	case rankop.TopN:
		for i, o := range over.OrderBy {
			if err := sortableKey(in.Field(base+i).Type, o.Expr.Pos()); err != nil {
				return nil, nil, nil, err
			}
			cfg.Order = append(cfg.Order, rankop.SortKey{Index: base + i, Desc: o.Desc})
		}
	case rankop.FirstByTime, rankop.LastByTime:
		cfg.Rowtime = base
	}
	for i := range over.PartitionBy {
		if err := sortableKey(in.Field(visible+i).Type, over.PartitionBy[i].Pos()); err != nil {
			return nil, nil, nil, err
		}
	}
	if withRank {
		cfg.RankName = rnName
	}
	if err := windowRank(&cfg, p, inner, over, visible, cat); err != nil {
		return nil, nil, nil, err
	}
	if cfg.Window == nil {
		p.TimeAttr = -1 // ranked rows have no time attribute
	}
	p.Rank = &cfg
	t, err := derivedTable(name, p, nil, at)
	if err != nil {
		return nil, nil, nil, err
	}
	o := *outer
	o.Where = rest
	return t, p, &o, nil
}

// rankTypes are the rank functions a Top-N ranks by.
var rankTypes = map[string]rankop.RankType{"ROW_NUMBER": rankop.RowNumber, "RANK": rankop.StandardRank, "DENSE_RANK": rankop.DenseRank}

// sortableKey refuses a partition or sort key rankop cannot compare.
func sortableKey(dt arrow.DataType, at sql.Pos) error {
	switch dt.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.MAP:
		return sql.Errorf(sql.ErrUnsupported, at, "a %s cannot be a partition or sort key of a Top-N", sqlTypeName(dt))
	}
	return nil
}

type timeAttr int

const (
	noTimeAttr timeAttr = iota
	proctimeAttr
	rowtimeAttr
)

// timeAttributeKind says whether c names a time attribute of inner's
// FROM table (a stored table or a view).
func timeAttributeKind(inner *sql.Select, c *sql.ColumnRef, cat *catalog.Catalog, opts Options) timeAttr {
	if inner.From.Subquery != nil || inner.From.Window != nil || inner.From.Values != nil {
		return noTimeAttr
	}
	t := cat.Table(inner.From.Name.Name)
	if v := cat.View(inner.From.Name.Name); v != nil {
		// a view's time attributes are those of its planned result
		vt, _, err := derivedRelation(v.Name, v.Query, v.Columns, cat, opts, inner.From.At)
		if err != nil {
			return noTimeAttr
		}
		t = vt
	}
	if t == nil {
		return noTimeAttr
	}
	i := t.Column(c.Name)
	switch {
	case i < 0:
		return noTimeAttr
	case t.Columns[i].Proctime:
		return proctimeAttr
	case t.Watermark != nil && t.Watermark.Index == i:
		return rowtimeAttr
	}
	return noTimeAttr
}

// rankBounds takes the bounds on the rank column rn out of where: rn <=
// N, rn < N, rn = N, rn >= N, rn > N and rn BETWEEN a AND b, each with
// an integer literal (either side). It returns the rank range and the
// rest of where.
func rankBounds(where sql.Expr, rn, alias string, at sql.Pos) (start, end int64, rest sql.Expr, err error) {
	start, end = 1, math.MaxInt64
	for _, c := range conjuncts(where) {
		lo, hi, ok := rankBound(c, rn, alias)
		if !ok {
			rest = andExpr(rest, c)
			continue
		}
		start, end = max(start, lo), min(end, hi)
	}
	if end == math.MaxInt64 {
		return 0, 0, nil, sql.Errorf(sql.ErrUnsupported, at, "a Top-N needs an upper bound on %s in the outer query's WHERE, such as WHERE %s <= 10; ROW_NUMBER() without one is not supported", rn, rn)
	}
	if end < start {
		return 0, 0, nil, sql.Errorf(sql.ErrInvalid, at, "the bounds on %s leave no rank: %d to %d", rn, start, end)
	}
	return start, end, rest, nil
}

// rankBound reads one conjunct as bounds on rn.
func rankBound(c sql.Expr, rn, alias string) (lo, hi int64, ok bool) {
	isRank := func(e sql.Expr) bool {
		r, ok := e.(*sql.ColumnRef)
		return ok && strings.EqualFold(r.Name, rn) && (r.Table == "" || strings.EqualFold(r.Table, alias))
	}
	number := func(e sql.Expr) (int64, bool) {
		l, ok := e.(*sql.Literal)
		if !ok || l.Kind != sql.LitInt {
			return 0, false
		}
		v, err := strconv.ParseInt(l.Text, 10, 64)
		return v, err == nil
	}
	switch x := c.(type) {
	case *sql.Between:
		lo, ok1 := number(x.Lo)
		hi, ok2 := number(x.Hi)
		if isRank(x.X) && !x.Not && !x.Symmetric && ok1 && ok2 {
			return lo, hi, true
		}
	case *sql.Binary:
		op := x.Op
		n, ok := number(x.R)
		if !isRank(x.L) || !ok {
			flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
			if n, ok = number(x.L); !ok || !isRank(x.R) || flip[op] == "" {
				return 0, 0, false
			}
			op = flip[op]
		}
		switch op {
		case "<=":
			return math.MinInt64, n, true
		case "<":
			return math.MinInt64, n - 1, true
		case "=":
			return n, n, true
		case ">=":
			return n, math.MaxInt64, true
		case ">":
			return n + 1, math.MaxInt64, true
		}
	}
	return 0, 0, false
}

// conjuncts splits e at its top-level ANDs.
func conjuncts(e sql.Expr) []sql.Expr {
	if b, ok := e.(*sql.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []sql.Expr{e}
}

func andExpr(a, b sql.Expr) sql.Expr {
	if a == nil {
		return b
	}
	return &sql.Binary{At: a.Pos(), Op: "AND", L: a, R: b}
}

// readsColumn reports whether the outer query reads the column name: a
// select item or the rest of its WHERE names it, or it selects *.
func readsColumn(outer *sql.Select, where sql.Expr, name string) bool {
	found := false
	look := func(e sql.Expr) {
		walkExpr(e, func(x sql.Expr) bool {
			if c, ok := x.(*sql.ColumnRef); ok && strings.EqualFold(c.Name, name) {
				found = true
			}
			return !found
		})
	}
	for _, it := range outer.Items {
		if it.Star {
			return true
		}
		look(it.Expr)
	}
	look(where)
	for _, g := range outer.GroupBy {
		look(g)
	}
	look(outer.Having)
	return found
}
