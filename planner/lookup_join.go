package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// LookupPlan is a processing-time temporal join, FOR SYSTEM_TIME AS OF a
// PROCTIME() column, with a table of files: Flink's lookup join. Each row
// joins the table's rows of its key as the table is when the row is
// processed. The plan's Input is the probe side, its PreWindow computes
// the probe's key expressions, and Table reads the whole table.
type LookupPlan struct {
	Config joinop.LookupFileConfig
	Table  *Plan
	// Keyed, when set, queries the table by key (its connector's
	// NewLookup); Table is then not read.
	Keyed *lookup.Plan
	Name  string
	// Keys and Residual are the condition as EXPLAIN shows it.
	Keys     []string
	Residual string
}

// defaultLookupCheck is how often a lookup join looks at its table's files
// for a change when 'lookup.join.cache.ttl' is not set.
const defaultLookupCheck = time.Second

// lookupJoin plans a join whose right side is read FOR SYSTEM_TIME AS OF
// the left side's PROCTIME() column. The right side must be a table of
// files (connector 'filesystem', not followed), the others are Flink's
// "Processing-time temporal join is not supported yet". ON must equate
// columns of the table with expressions of the left side's columns: those
// are the keys; the rest is a condition on each pair.
func (jp *joinPlanner) lookupJoin(j *sql.Join, l, r joinSide, conds []sql.Expr) (joinSide, error) {
	v := r.versioned
	name := v.name
	if j.Kind != sql.InnerJoin && j.Kind != sql.LeftJoin {
		return joinSide{}, sql.Errorf(sql.ErrUnsupported, j.At, "a processing-time temporal join is an INNER or a LEFT join, as in Flink")
	}
	keyed := lookupByKey(v.table)
	var path string
	var check time.Duration
	if !keyed {
		var err error
		if path, check, err = lookupTableFiles(v.table, name, v.period.At); err != nil {
			return joinSide{}, err
		}
	}
	if r.plan.Updates() {
		return joinSide{}, sql.Errorf(sql.ErrUnsupported, v.period.At, "a processing-time temporal join reads a table of rows, not of changes; %s is an update stream", name)
	}
	left, right := l.plan.Schema(), r.plan.Schema()
	lp := &LookupPlan{Table: r.plan, Name: name}
	cfg := joinop.LookupFileConfig{Kind: joinop.Inner, Table: right, Path: path, CheckInterval: check, Clock: jp.opts.Clock}
	if j.Kind == sql.LeftJoin {
		cfg.Kind = joinop.LeftOuter
	}
	sideScope := &probeScope{side: l}
	var keyExprs []expr.Expr
	var keyNames []string
	var rest []sql.Expr
	for _, c := range conds {
		lx, rc, ok := lookupKey(c, l.cols, r.cols)
		if !ok {
			rest = append(rest, c)
			continue
		}
		ri, _ := r.cols.find(rc)
		want := right.Field(ri).Type
		e, err := exprplan.CompileExpr(lx, sideScope, exprOptions(jp.opts))
		if err != nil {
			return joinSide{}, err
		}
		if e, err = lookupKeyType(e, want, lx, c.Pos()); err != nil {
			return joinSide{}, err
		}
		keyExprs = append(keyExprs, e)
		cfg.TableKeys = append(cfg.TableKeys, ri)
		keyNames = append(keyNames, right.Field(ri).Name)
		lp.Keys = append(lp.Keys, sqlfmt.Expr(lx)+" = "+qualified(r.cols[ri]))
	}
	if len(keyExprs) == 0 {
		return joinSide{}, sql.Errorf(sql.ErrInvalid, j.At, "a processing-time temporal join needs an equality of a column of %s and the left side in ON (Flink: Temporal table join requires an equality condition on fields of table)", name)
	}
	if keyed {
		c, _ := connector.Lookup(connectorName(v.table))
		kp, err := c.NewLookup(v.table, keyNames)
		if err != nil {
			return joinSide{}, inDeclaration(v.table, err)
		}
		lp.Keyed = kp
	}
	// The probe's rows get one column per key, computed after its
	// operators; the join finds them at the end of its Left.
	fields := append([]arrow.Field(nil), left.Fields()...)
	probeCols := append(joinColumns(nil), l.cols...)
	for i, e := range keyExprs {
		cfg.LeftKeys = append(cfg.LeftKeys, len(fields))
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("$lookup_key%d", i), Type: e.DataType(), Nullable: true})
		probeCols = append(probeCols, joinColumn{name: "\x00key"}) // no name resolves to it
	}
	cfg.Left = arrow.NewSchema(fields, nil)
	if len(rest) > 0 {
		var residual sql.Expr
		for _, c := range rest {
			residual = andExpr(residual, c)
		}
		var resFields []arrow.Field
		for _, i := range joinop.DataColumns(cfg.Left) {
			resFields = append(resFields, cfg.Left.Field(i))
		}
		resFields = append(resFields, right.Fields()...)
		scope := &joinScope{cols: append(probeCols, r.cols...), schema: arrow.NewSchema(resFields, nil)}
		e, err := exprplan.CompileCondition(residual, scope, exprOptions(jp.opts))
		if err != nil {
			return joinSide{}, err
		}
		cfg.Residual, lp.Residual = e, sqlfmt.Expr(residual)
	}
	out, err := cfg.OutputSchema()
	if err != nil {
		return joinSide{}, sql.Errorf(sql.ErrUnsupported, j.At, "%v", err)
	}
	lp.Config = cfg
	// The rows leave without the key columns.
	var keep []int
	var kept []arrow.Field
	for i, f := range out.Fields() {
		if i >= left.NumFields() && i < cfg.Left.NumFields() {
			continue
		}
		keep = append(keep, i)
		kept = append(kept, f)
	}
	p := &Plan{
		Location: jp.opts.Location, Clock: jp.opts.Clock, Plain: true, Input: l.plan, Lookup: lp, Stream: out,
		PreWindow: &exec.ComputedSpec{Exprs: keyExprs, Schema: cfg.Left, RowtimeIndex: -1, Table: name},
		Project:   exec.ProjectSpec{Columns: keep, Schema: arrow.NewSchema(kept, nil)},
		Rowtime:   -1, GapIndex: -1, TimeAttr: -1,
	}
	side := joinSide{plan: p, cols: append(append(joinColumns{}, l.cols...), r.cols...), timeAttr: -1}
	if l.timeAttr >= 0 {
		// the probe side's time attributes stay, as in Flink
		side.timeAttr, p.TimeAttr = l.timeAttr, l.dataIndex(l.timeAttr)
	}
	return side, nil
}

// lookupByKey reports a table whose connector queries it by key
// (Connector.NewLookup) for a lookup join.
func lookupByKey(t *catalog.Table) bool {
	if t == nil {
		return false
	}
	c, ok := connector.Lookup(connectorName(t))
	return ok && c.NewLookup != nil
}

// connectorName is the table's 'connector' option.
func connectorName(t *catalog.Table) string {
	conn, _ := t.Options.Lookup(connector.KeyConnector)
	return conn.Value
}

// lookupOnlySide is the side of a table FOR SYSTEM_TIME AS OF whose
// connector can only be queried by key (NewLookup without NewSource):
// its physical columns, no scan. ok is false for any other table.
func lookupOnlySide(t *catalog.Table, name string) (joinSide, bool, error) {
	if t == nil || t.Attached != nil {
		return joinSide{}, false, nil
	}
	c, ok := connector.Lookup(connectorName(t))
	if !ok || c.NewLookup == nil || c.NewSource != nil {
		return joinSide{}, false, nil
	}
	for _, col := range t.Columns {
		if col.Computed != nil || col.Metadata != "" {
			return joinSide{}, true, sql.Errorf(sql.ErrUnsupported, col.At, "column %s of table %s is computed or METADATA; a table a lookup join queries by key has physical columns only", col.Name, t.Name)
		}
	}
	schema := connector.SourceSchema(t)
	keep := make([]int, schema.NumFields())
	for i := range keep {
		keep[i] = i
	}
	p := &Plan{Table: t, Stream: schema, Plain: true, Project: exec.ProjectSpec{Columns: keep, Schema: schema},
		Rowtime: -1, GapIndex: -1, TimeAttr: -1}
	side := joinSide{plan: p, timeAttr: -1}
	for _, f := range schema.Fields() {
		side.cols = append(side.cols, joinColumn{table: name, name: f.Name})
	}
	return side, true, nil
}

// refuseLookupOnly refuses a join with a table that can only be looked up
// (lookupOnlySide) other than a lookup join.
func refuseLookupOnly(r joinSide) error {
	v := r.versioned
	if v == nil || v.table == nil || r.plan.Source != nil || r.plan.Input != nil {
		return nil
	}
	if _, ok, _ := lookupOnlySide(v.table, v.name); !ok {
		return nil
	}
	return sql.Errorf(sql.ErrUnsupported, v.period.At, "table %s of connector '%s' is only read by a lookup join, FOR SYSTEM_TIME AS OF a PROCTIME() column of the left side; reading it otherwise is not supported yet", v.name, connectorName(v.table))
}

// lookupTableFiles is the path of the table a lookup join reads, and how
// often it looks at the files for a change ('lookup.join.cache.ttl').
func lookupTableFiles(t *catalog.Table, name string, at sql.Pos) (string, time.Duration, error) {
	unsupported := func(why string) error {
		return sql.Errorf(sql.ErrUnsupported, at, "FOR SYSTEM_TIME AS OF a PROCTIME() column joins a table read whole from files or queried by key; %s (Flink: Processing-time temporal join is not supported yet)", why)
	}
	if t == nil {
		return "", 0, unsupported(name + " is a view")
	}
	conn, _ := t.Options.Lookup(connector.KeyConnector)
	c, _ := connector.Lookup(conn.Value)
	if c == nil || c.LookupFiles == nil {
		return "", 0, unsupported(fmt.Sprintf("table %s's connector '%s' is neither, only %s are", name, conn.Value, quotedList(connector.LookupNames())))
	}
	path, err := c.LookupFiles(t)
	if err != nil {
		return "", 0, unsupported(err.Error())
	}
	check := defaultLookupCheck
	if o, ok := t.Options.Lookup(connector.KeyLookupCacheTTL); ok {
		d, err := connector.Duration(o)
		if err != nil {
			return "", 0, err
		}
		check = d
	}
	return path, check, nil
}

// lookupKey reports whether c is an equality of a column of the table
// (right) and an expression of the probe side's columns (left), either way
// round.
func lookupKey(c sql.Expr, l, r joinColumns) (sql.Expr, *sql.ColumnRef, bool) {
	b, ok := c.(*sql.Binary)
	if !ok || b.Op != "=" {
		return nil, nil, false
	}
	for _, pair := range [][2]sql.Expr{{b.L, b.R}, {b.R, b.L}} {
		rc, ok := pair[1].(*sql.ColumnRef)
		if !ok {
			continue
		}
		if _, err := r.find(rc); err != nil {
			continue
		}
		inL, inR, err := reads(pair[0], l, r)
		if err == nil && inL && !inR {
			return pair[0], rc, true
		}
	}
	return nil, nil, false
}

// lookupKeyType casts a probe key to the table column's type where Flink
// casts implicitly: an integer to a wider integer.
func lookupKeyType(e expr.Expr, want arrow.DataType, key sql.Expr, at sql.Pos) (expr.Expr, error) {
	have := e.DataType()
	if arrow.TypeEqual(have, want) {
		return e, nil
	}
	if integerWidth(have) > 0 && integerWidth(have) < integerWidth(want) {
		return &expr.Cast{X: e, To: want}, nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, at, "the join key %s is %s but the table's column is %s; CAST one side", sqlfmt.Expr(key), SQLTypeName(have), SQLTypeName(want))
}

// integerWidth is the bytes of an integer type, 0 for other types.
func integerWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT8:
		return 1
	case arrow.INT16:
		return 2
	case arrow.INT32:
		return 4
	case arrow.INT64:
		return 8
	}
	return 0
}

// probeScope resolves the probe side's columns in its rows, which may
// lead with the row kind.
type probeScope struct{ side joinSide }

func (sc *probeScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	c, ok := e.(*sql.ColumnRef)
	if !ok || isNiladic(c) && !(&joinScope{cols: sc.side.cols}).hasColumn(c.Name) {
		return 0, arrow.Field{}, false, nil
	}
	i, err := sc.side.cols.find(c)
	if err != nil {
		return 0, arrow.Field{}, false, err
	}
	k := sc.side.dataIndex(i)
	return k, sc.side.plan.Schema().Field(k), true, nil
}

// lookupJob lowers a lookup join: the probe's job, its key columns, and
// the join with the job that reads the table, or with the table's
// queries by key.
func (p *Plan) lookupJob() (*exec.Job, error) {
	job, err := p.plainJob()
	if err != nil {
		return nil, err
	}
	job.PreWindow = p.PreWindow
	if p.Lookup.Keyed != nil {
		job.Lookup = &exec.LookupJoin{Config: p.Lookup.Config, Keyed: p.Lookup.Keyed, Name: p.Lookup.Name}
		return job, nil
	}
	table, err := p.Lookup.Table.Job()
	if err != nil {
		return nil, err
	}
	job.PreWindow = p.PreWindow
	job.Lookup = &exec.LookupJoin{Config: p.Lookup.Config, Table: table, Name: p.Lookup.Name}
	return job, nil
}

// lookupText is EXPLAIN's line for a lookup join.
func (p *Plan) lookupText() string {
	l := p.Lookup
	cond := "keys=[" + strings.Join(l.Keys, ", ") + "]"
	if l.Residual != "" {
		cond += ", where=[" + l.Residual + "]"
	}
	changelog := "I"
	if joinop.IsUpdateStream(l.Config.Left) {
		changelog = "I, UB, UA, D"
	}
	if l.Keyed != nil {
		return fmt.Sprintf("LookupJoin(joinType=[%s], table=[%s], %s, state=[the rows of the keys looked up, one query a batch for the keys not cached], cache=[%s], changelog=[%s])",
			l.Config.Kind, l.Name, cond, l.Keyed.Cache, changelog)
	}
	return fmt.Sprintf("LookupJoin(joinType=[%s], table=[%s], %s, state=[the table's rows, read again when its files change, looked at every %s], changelog=[%s])",
		l.Config.Kind, l.Name, cond, durationText(l.Config.CheckInterval), changelog)
}

// explainLookup prints the lookup join and, below it, the probe side with
// its key columns and the table's scan.
func (p *Plan) explainLookup(lines []string, depth int) string {
	var keys []string
	base := p.PreWindow.Schema.NumFields() - len(p.PreWindow.Exprs)
	for i, e := range p.PreWindow.Exprs {
		keys = append(keys, fmt.Sprintf("%s := %s", p.PreWindow.Schema.Field(base+i).Name, e))
	}
	probe := "Calc(" + strings.Join(keys, ", ") + ")\n" + nestUnder(p.Input.Explain())
	if p.Lookup.Keyed != nil {
		return explainChildren(lines, depth, p.lookupText(), []string{probe})
	}
	return explainChildren(lines, depth, p.lookupText(), []string{probe, p.Lookup.Table.Explain()})
}

// nestUnder indents an operator tree as the one child of the line above.
func nestUnder(tree string) string {
	var out []string
	for k, line := range strings.Split(strings.TrimRight(tree, "\n"), "\n") {
		if k == 0 {
			out = append(out, "+- "+line)
		} else {
			out = append(out, "   "+line)
		}
	}
	return strings.Join(out, "\n")
}

// isProctime reports whether c names a PROCTIME() column of the side.
func (s joinSide) isProctime(c *sql.ColumnRef) bool {
	i, err := s.cols.find(c)
	return err == nil && isProctimeField(s.plan.Schema().Field(s.dataIndex(i)))
}

// quotedList is names quoted and joined by commas.
func quotedList(names []string) string {
	for i, n := range names {
		names[i] = "'" + n + "'"
	}
	return strings.Join(names, ", ")
}
