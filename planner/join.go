package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// JoinPlan is a join of the plan's two Union inputs: the left table
// reference's rows and the right's, each planned as a query of its own,
// meet in one merge ordered by their watermarks (as UNION ALL's inputs do)
// and go through exec/joinop. The join's rows are the plan's stream; the
// outer query plans over them as over a subquery.
type JoinPlan struct {
	Config joinop.Config
	Kind   sql.JoinKind
	At     sql.Pos
	// Keys, Interval and Residual are the condition as EXPLAIN shows it.
	Keys      []string
	Interval  string
	Window    string
	Versioned string
	Residual  string
}

// joinColumn is a column of a join's rows: its name and the name of the
// table reference it comes from (its alias, or the table's name), by
// which a qualified reference A.x finds it.
type joinColumn struct {
	table, name string
}

// joinColumns resolve column references over a join's rows.
type joinColumns []joinColumn

// find is the index of the column c names: by its qualifier when it has
// one; an unqualified name must be one column's alone, as in Flink.
func (jc joinColumns) find(c *sql.ColumnRef) (int, error) {
	found := -1
	for i, col := range jc {
		if !strings.EqualFold(col.name, c.Name) || c.Table != "" && !strings.EqualFold(col.table, c.Table) {
			continue
		}
		if found >= 0 {
			return -1, sql.Errorf(sql.ErrInvalid, c.At, "column '%s' is ambiguous: both %s and %s have it; qualify it", c.Name, jc[found].table, col.table)
		}
		found = i
	}
	if found >= 0 {
		return found, nil
	}
	if c.Table != "" && !jc.hasTable(c.Table) {
		return -1, sql.Errorf(sql.ErrInvalid, c.At, "unknown table %s in %s.%s%s", c.Table, c.Table, c.Name, sql.DidYouMean(c.Table, jc.tables()))
	}
	var names []string
	for _, col := range jc {
		if c.Table == "" || strings.EqualFold(col.table, c.Table) {
			names = append(names, col.name)
		}
	}
	where := "the joined tables"
	if c.Table != "" {
		where = "table " + c.Table
	}
	return -1, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in %s%s", c.Name, where, sql.DidYouMean(c.Name, names))
}

func (jc joinColumns) hasTable(name string) bool {
	for _, col := range jc {
		if strings.EqualFold(col.table, name) {
			return true
		}
	}
	return false
}

func (jc joinColumns) tables() []string {
	var out []string
	for _, col := range jc {
		if len(out) == 0 || out[len(out)-1] != col.table {
			out = append(out, col.table)
		}
	}
	return out
}

// joinScope resolves the columns of a join's condition over its rows:
// the left's data columns, then the right's.
type joinScope struct {
	cols   joinColumns
	schema *arrow.Schema
}

func (sc *joinScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	c, ok := e.(*sql.ColumnRef)
	if !ok || isNiladic(c) && !sc.hasColumn(c.Name) {
		return 0, arrow.Field{}, false, nil
	}
	i, err := sc.cols.find(c)
	if err != nil {
		return 0, arrow.Field{}, false, err
	}
	return i, sc.schema.Field(i), true, nil
}

func (sc *joinScope) hasColumn(name string) bool {
	for _, col := range sc.cols {
		if strings.EqualFold(col.name, name) {
			return true
		}
	}
	return false
}

// joinSide is a table reference of a join planned as a query of its own,
// with the columns it gives the join.
type joinSide struct {
	plan *Plan
	cols joinColumns
	// timeAttr is the data column that is its time attribute; -1 if none.
	timeAttr int
	// versioned is set for a table read FOR SYSTEM_TIME AS OF, the
	// versioned side of a temporal join (temporal_join.go).
	versioned *versionedTable
}

// joinRelation plans stmt's FROM clause of joins: the plan of their rows
// and the table the outer query reads them as, with the columns' tables.
// The WHERE conjuncts of inner joins that read one table reference are
// applied to its rows before the join, those that read both sides join
// them (Flink pushes them down likewise); rest is stmt without them.
func joinRelation(stmt *sql.Select, cat *catalog.Catalog, opts Options) (t *catalog.Table, input *Plan, cols joinColumns, rest *sql.Select, err error) {
	jp := &joinPlanner{cat: cat, opts: opts, used: usedColumns(stmt)} // join_prune.go
	where := conjuncts(stmt.Where)
	if !innerOnly(stmt.From) {
		where = nil // WHERE filters the outer join's rows
	}
	from, perm := stmt.From, []int(nil)
	if innerOnly(from) {
		if from, where, perm, err = jp.reorder(from, where); err != nil { // join_order.go
			return nil, nil, nil, nil, err
		}
	}
	side, left, err := jp.plan(from, where)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if perm != nil {
		side = inWrittenOrder(side, perm)
	}
	query := *stmt
	query.Items = expandTableStars(stmt.Items, side.cols)
	query.Where = nil
	if !innerOnly(stmt.From) {
		query.Where = stmt.Where
	}
	for _, c := range left {
		query.Where = andExpr(query.Where, c)
	}
	names := make([]string, 0, len(side.cols))
	for _, c := range side.cols {
		names = append(names, c.name)
	}
	t, err = derivedTable("", side.plan, uniqueNames(names), stmt.From.At)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return t, side.plan, side.cols, &query, nil
}

// uniqueNames makes repeated names unique as Calcite does (id, id0).
func uniqueNames(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, uniqueName(n, out))
	}
	return out
}

// innerOnly reports whether ref joins only by INNER and CROSS joins.
func innerOnly(ref sql.TableRef) bool {
	j := ref.Join
	if j == nil {
		return true
	}
	return (j.Kind == sql.InnerJoin || j.Kind == sql.CrossJoin) && innerOnly(j.Left) && innerOnly(j.Right)
}

type joinPlanner struct {
	cat  *catalog.Catalog
	opts Options
	used *usedNames // the columns the statement may read above its joins
}

// plan plans ref with the conjuncts that may filter it; left are those
// it could not place (they read no column of ref, or more than it has).
func (jp *joinPlanner) plan(ref sql.TableRef, conds []sql.Expr) (side joinSide, left []sql.Expr, err error) {
	j := ref.Join
	if j == nil {
		return jp.leaf(ref, conds)
	}
	if j.Right.Lateral != nil {
		return jp.lateralJoin(j, conds) // lateral.go
	}
	l, err := jp.columnsOf(j.Left)
	if err != nil {
		return joinSide{}, nil, err
	}
	r, err := jp.columnsOf(j.Right)
	if err != nil {
		return joinSide{}, nil, err
	}
	var onLeft, onRight, onBoth []sql.Expr
	place := func(c sql.Expr, fromWhere bool) error {
		inL, inR, err := reads(c, l, r)
		if err != nil {
			return err
		}
		preservesLeft := j.Kind == sql.LeftJoin || j.Kind == sql.FullJoin || j.Kind == sql.SemiJoin || j.Kind == sql.AntiJoin
		preservesRight := j.Kind == sql.RightJoin || j.Kind == sql.FullJoin
		switch {
		case inL && !inR && (fromWhere || !preservesLeft):
			onLeft = append(onLeft, c)
		case inR && !inL && (fromWhere || !preservesRight) && j.Right.SystemTime == nil:
			// not into a versioned table: its filter would change which
			// version is the one valid at a time
			onRight = append(onRight, c)
		case inL || inR || !fromWhere:
			onBoth = append(onBoth, c)
		default:
			left = append(left, c)
		}
		return nil
	}
	for _, c := range conds {
		if err := place(c, true); err != nil {
			return joinSide{}, nil, err
		}
	}
	for _, c := range conjuncts(j.On) {
		if err := place(c, false); err != nil {
			return joinSide{}, nil, err
		}
	}
	if len(j.Using) > 0 {
		return joinSide{}, nil, sql.Errorf(sql.ErrUnsupported, j.At, "JOIN ... USING is not supported yet; join ON the columns")
	}
	ls, restL, err := jp.plan(j.Left, onLeft)
	if err != nil {
		return joinSide{}, nil, err
	}
	rs, restR, err := jp.plan(j.Right, onRight)
	if err != nil {
		return joinSide{}, nil, err
	}
	onBoth = append(append(onBoth, restL...), restR...)
	side, err = jp.join(j, ls, rs, onBoth)
	return side, left, err
}

// reads reports whether c reads columns of the left and of the right
// columns.
func reads(c sql.Expr, l, r joinColumns) (inL, inR bool, err error) {
	walkExpr(c, func(x sql.Expr) bool {
		ref, ok := x.(*sql.ColumnRef)
		if !ok || err != nil {
			return err == nil
		}
		_, errL := l.find(ref)
		_, errR := r.find(ref)
		switch {
		case errL == nil && errR == nil && ref.Table == "":
			err = sql.Errorf(sql.ErrInvalid, ref.At, "column '%s' is ambiguous: both sides of the join have it; qualify it", ref.Name)
		case errL == nil:
			inL = true
		case errR == nil:
			inR = true
		case isNiladic(ref):
		default:
			_, err = append(append(joinColumns{}, l...), r...).find(ref)
		}
		return true
	})
	return inL, inR, err
}

// columnsOf is the columns a table reference gives a join, planned
// without conditions.
func (jp *joinPlanner) columnsOf(ref sql.TableRef) (joinColumns, error) {
	side, _, err := jp.plan(ref, nil)
	return side.cols, err
}

// leaf plans one table reference of a join as SELECT * FROM it, with the
// conjuncts that read only it as its WHERE.
func (jp *joinPlanner) leaf(ref sql.TableRef, conds []sql.Expr) (joinSide, []sql.Expr, error) {
	var versioned *versionedTable
	if c := ref.SystemTime; c != nil {
		versioned = &versionedTable{period: c, name: ref.Name.Name}
		if t := jp.cat.Table(ref.Name.Name); t != nil {
			versioned.table = t
			if t.PrimaryKey != nil {
				versioned.primaryKey = t.PrimaryKey.Columns
			}
		}
		ref.SystemTime = nil
		name := ref.Alias
		if name == "" {
			name = ref.Name.Name
		}
		if side, ok, err := lookupOnlySide(versioned.table, name); ok { // lookup_join.go
			side.versioned = versioned
			return side, nil, err
		}
	}
	q := &sql.Select{At: ref.At, Items: []sql.SelectItem{{At: ref.At, Star: true}}, From: ref}
	for _, c := range conds {
		q.Where = andExpr(q.Where, c)
	}
	opts := jp.opts
	opts.derived = true
	p, err := PlanSelect(q, jp.cat, opts)
	if err != nil {
		return joinSide{}, nil, err
	}
	name := ref.Alias
	if name == "" {
		name = ref.Name.Name
		if ref.Window != nil {
			name = ref.Window.Table.Name
		}
	}
	if p, err = jp.pruned(q, name, p, versioned != nil); err != nil { // join_prune.go
		return joinSide{}, nil, err
	}
	schema := p.Schema()
	side := joinSide{plan: p, timeAttr: -1, versioned: versioned}
	for i, f := range schema.Fields() {
		if i == 0 && p.Updates() {
			continue
		}
		if i == p.TimeAttr {
			side.timeAttr = len(side.cols)
		}
		side.cols = append(side.cols, joinColumn{table: name, name: f.Name})
	}
	return side, nil, nil
}

// join plans the join of two planned sides under the condition conds:
// equalities of a left and a right column become the keys, the rest the
// residual condition over the joined row.
func (jp *joinPlanner) join(j *sql.Join, l, r joinSide, conds []sql.Expr) (joinSide, error) {
	if r.versioned != nil && l.isProctime(r.versioned.period) {
		return jp.lookupJoin(j, l, r, conds) // lookup_join.go
	}
	if err := refuseLookupOnly(r); err != nil {
		return joinSide{}, err
	}
	kinds := map[sql.JoinKind]joinop.Kind{sql.InnerJoin: joinop.Inner, sql.CrossJoin: joinop.Inner,
		sql.LeftJoin: joinop.LeftOuter, sql.RightJoin: joinop.RightOuter, sql.FullJoin: joinop.FullOuter,
		sql.SemiJoin: joinop.Semi, sql.AntiJoin: joinop.Anti}
	cfg := joinop.Config{Kind: kinds[j.Kind], Left: l.plan.Schema(), Right: r.plan.Schema()}
	lData, rData := joinop.DataColumns(cfg.Left), joinop.DataColumns(cfg.Right)
	cols := append(append(joinColumns{}, l.cols...), r.cols...)
	var fields []arrow.Field
	for _, i := range lData {
		fields = append(fields, cfg.Left.Field(i))
	}
	for _, i := range rData {
		fields = append(fields, cfg.Right.Field(i))
	}
	joined := arrow.NewSchema(fields, nil)
	jpl := &JoinPlan{Kind: j.Kind, At: j.At}
	var rest []sql.Expr
	for _, c := range conds {
		if li, ri, ok := equiKey(c, l.cols, r.cols); ok && arrow.TypeEqual(joined.Field(li).Type, joined.Field(len(l.cols)+ri).Type) {
			cfg.LeftKeys = append(cfg.LeftKeys, lData[li])
			cfg.RightKeys = append(cfg.RightKeys, rData[ri])
			jpl.Keys = append(jpl.Keys, qualified(l.cols[li])+" = "+qualified(r.cols[ri]))
			continue
		}
		rest = append(rest, c)
	}
	if l.versioned != nil {
		return joinSide{}, sql.Errorf(sql.ErrInvalid, l.versioned.period.At, "FOR SYSTEM_TIME AS OF belongs to the right side of a join")
	}
	if r.versioned != nil {
		var err error
		if rest, err = temporalJoin(&cfg, l, r, jpl, rest); err != nil { // temporal_join.go
			return joinSide{}, err
		}
	} else if err := windowJoin(&cfg, l, r, jpl); err != nil { // window_join.go
		return joinSide{}, err
	}
	if cfg.Window == nil && cfg.Temporal == nil {
		cfg.Interval, rest = intervalBounds(rest, l, r) // interval_join.go
	}
	var residual sql.Expr
	for _, c := range rest {
		residual = andExpr(residual, c)
	}
	if residual != nil {
		scope := &joinScope{cols: cols, schema: joined}
		e, err := exprplan.CompileCondition(residual, scope, exprOptions(jp.opts))
		if err != nil {
			return joinSide{}, err
		}
		cfg.Residual = e
		jpl.Residual = sqlfmt.Expr(residual)
	}
	if (l.plan.Updates() || r.plan.Updates()) && (cfg.Interval != nil || cfg.Window != nil) {
		return joinSide{}, sql.Errorf(sql.ErrUnsupported, j.At, "an interval or window join takes append-only inputs, as in Flink; this one reads an update stream")
	}
	jpl.Config = cfg
	out, err := cfg.OutputSchema()
	if err != nil {
		return joinSide{}, sql.Errorf(sql.ErrUnsupported, j.At, "%v", err)
	}
	p := &Plan{
		Location: jp.opts.Location, Clock: jp.opts.Clock, Plain: true, Join: jpl,
		Union: []*Plan{l.plan, r.plan}, Stream: out, Rowtime: -1, GapIndex: -1, TimeAttr: -1,
	}
	p.Project = identityProject(out)
	if cfg.Kind == joinop.Semi || cfg.Kind == joinop.Anti {
		cols = l.cols // only the left's rows come out
	}
	// A regular join's rows have no time attribute (Flink's regular join
	// turns both sides' into plain timestamps); an interval join keeps
	// them, the left's the one a window over it may use.
	side := joinSide{plan: p, cols: cols, timeAttr: -1}
	if (cfg.Window != nil || cfg.Temporal != nil) && l.timeAttr >= 0 {
		p.TimeAttr, side.timeAttr = l.timeAttr, l.timeAttr // window_time, or the probe side's rowtime
	}
	if cfg.Interval != nil {
		jpl.Interval = fmt.Sprintf("%s - %s between %d ms and %d ms", qualified(l.cols[l.timeAttr]), qualified(r.cols[r.timeAttr]), cfg.Interval.Lower, cfg.Interval.Upper)
		p.TimeAttr, side.timeAttr = l.timeAttr, l.timeAttr
	}
	return side, nil
}

// equiKey reports whether c is left column = right column (either way
// round), and their indexes among each side's columns.
func equiKey(c sql.Expr, l, r joinColumns) (li, ri int, ok bool) {
	b, isBin := c.(*sql.Binary)
	if !isBin || b.Op != "=" {
		return 0, 0, false
	}
	x, okX := b.L.(*sql.ColumnRef)
	y, okY := b.R.(*sql.ColumnRef)
	if !okX || !okY {
		return 0, 0, false
	}
	if i, err := l.find(x); err == nil {
		if k, err := r.find(y); err == nil {
			return i, k, true
		}
	}
	if i, err := l.find(y); err == nil {
		if k, err := r.find(x); err == nil {
			return i, k, true
		}
	}
	return 0, 0, false
}

func qualified(c joinColumn) string {
	if c.table == "" {
		return c.name
	}
	return c.table + "." + c.name
}

// joinText is EXPLAIN's line for a join.
func (p *Plan) joinText() string {
	j := p.Join
	cond := "keys=[" + strings.Join(j.Keys, ", ") + "]"
	if j.Interval != "" {
		cond += ", interval=[" + j.Interval + "]"
	}
	if j.Residual != "" {
		cond += ", where=[" + j.Residual + "]"
	}
	state := "both sides' rows per key, bounded by 'table.exec.state.ttl'"
	switch {
	case j.Config.Temporal != nil:
		state = "probe rows until the watermark passes them; per key, the versions the watermark has not made obsolete"
		cond = "versioned=[" + j.Versioned + "], " + cond
	case j.Config.Interval != nil:
		state = "both sides' rows per key, until the watermark passes the last time they can join"
	case j.Config.Window != nil:
		state = "both sides' rows per key and window, until the watermark passes the window's end"
		cond = "window=[" + j.Window + "], " + cond
	}
	changelog := "I"
	switch {
	case joinop.IsUpdateStream(j.Config.Left) || joinop.IsUpdateStream(j.Config.Right):
		changelog = "I, UB, UA, D"
	case j.Config.Updates():
		changelog = "I, D"
	}
	name := "Join"
	switch {
	case j.Config.Temporal != nil:
		name = "TemporalJoin"
	case j.Config.Interval != nil:
		name = "IntervalJoin"
	case j.Config.Window != nil:
		name = "WindowJoin"
	}
	return fmt.Sprintf("%s(joinType=[%s], %s, state=[%s], changelog=[%s])", name, j.Config.Kind, cond, state, changelog)
}

// identityProject passes every column of schema on.
func identityProject(schema *arrow.Schema) exec.ProjectSpec {
	cols := make([]int, schema.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return exec.ProjectSpec{Columns: cols, Schema: schema}
}

// expandTableStars replaces each t.* of items by t's columns.
func expandTableStars(items []sql.SelectItem, cols joinColumns) []sql.SelectItem {
	var out []sql.SelectItem
	for _, it := range items {
		if !it.Star || it.Table == "" {
			out = append(out, it)
			continue
		}
		for _, c := range cols {
			if strings.EqualFold(c.table, it.Table) {
				out = append(out, sql.SelectItem{At: it.At, Expr: &sql.ColumnRef{At: it.At, Table: c.table, Name: c.name, NameAt: it.At}})
			}
		}
	}
	return out
}

// tableStars reads t.* of a query over one table as *.
func tableStars(stmt *sql.Select, t *catalog.Table) (*sql.Select, error) {
	var items []sql.SelectItem
	for i, it := range stmt.Items {
		if !it.Star || it.Table == "" {
			continue
		}
		if !strings.EqualFold(it.Table, t.Name) && !strings.EqualFold(it.Table, stmt.From.Alias) {
			return nil, sql.Errorf(sql.ErrInvalid, it.At, "unknown table %s in %s.*", it.Table, it.Table)
		}
		if items == nil {
			items = append([]sql.SelectItem(nil), stmt.Items...)
		}
		items[i].Table = ""
	}
	if items == nil {
		return stmt, nil
	}
	query := *stmt
	query.Items = items
	return &query, nil
}

// joinJob lowers a join: the jobs of both sides, merged into the join.
func (p *Plan) joinJob() (*exec.Job, error) {
	job, err := p.unionJob()
	if err != nil {
		return nil, err
	}
	cfg := p.Join.Config
	job.Join = &cfg
	return job, nil
}

// explainJoin prints the join and, below it, both sides' operators.
func (p *Plan) explainJoin(lines []string, depth int) string {
	return p.explainInputs(lines, depth, p.joinText())
}

// columnIndex is the table column c names (qualified names of a join's
// rows resolved by their table), or -1.
func (s *selectPlanner) columnIndex(c *sql.ColumnRef) int {
	if s.joinCols != nil {
		i, err := s.joinCols.find(c)
		if err != nil {
			return -1
		}
		return i
	}
	return s.table.Column(c.Name)
}
