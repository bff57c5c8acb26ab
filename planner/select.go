package planner

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// Options tune planning.
type Options struct {
	BatchSize int            // rows per source batch; 0 means exec.DefaultBatchSize
	Location  *time.Location // 'table.local-time-zone'; nil means UTC
	Emit      Emit           // early/late firing, allowed lateness, late rows
	Clock     rowtime.Clock  // processing time; nil means the system clock
	// BadRowsPath is 'wsql.bad-rows.path': skipped input lines are written
	// there as they were read (set by SET; empty for none).
	BadRowsPath string
	// MaxRecordBytes is 'wsql.max-record-bytes': the longest input record
	// a file, stdin or io.Reader source reads (0: the default).
	MaxRecordBytes int
	// Stdin is what a 'stdin' table reads; nil when standard input is not
	// available (the SQL itself came from it).
	Stdin io.Reader
	// Run plans a query that runs now (not EXPLAIN or CREATE VIEW): the
	// files and standard input its tables read must be there.
	Run bool
	// NoTableHints is 'table.dynamic-table-options.enabled' = 'false':
	// a table hint is an error (table_hint.go).
	NoTableHints bool
	// TrimPad is 'table.exec.sink.type-length-enforcer' = 'TRIM_PAD'.
	TrimPad bool
	// Functions are the functions calls resolve to: the built-ins and the
	// session's user-defined functions. nil is the built-ins.
	Functions *function.Registry
	// valuesInto are the sink's columns for INSERT ... VALUES.
	valuesInto []catalog.Column
	// derived plans a subquery or a view, whose PROCTIME() items are
	// processing-time attributes for the outer query.
	derived bool
	// unreadItems marks the items of a view's query the query reading it
	// does not name (view_reads.go); nil for all read.
	unreadItems []bool
	// outerReads holds every name the queries reading this one (a
	// subquery's or a view's) may read its columns by (view_reads.go); nil
	// when they may read them all.
	outerReads map[string]bool
}

// Names of the columns a window table-valued function adds.
const (
	tvfStart = "window_start"
	tvfEnd   = "window_end"
	tvfTime  = "window_time"
)

// PlanSelect plans a windowed aggregation, written with a group window
// (GROUP BY k, TUMBLE(ts, ...)) or a window table-valued function
// (FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), ...)) GROUP BY window_start,
// window_end, k). Both lower to the same plan.
func PlanSelect(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*Plan, error) {
	unread := opts.unreadItems // for this query only, not those it reads
	outer := opts.outerReads
	opts.unreadItems, opts.outerReads = nil, nil
	if stmt.Set != nil || len(stmt.OrderBy) > 0 || stmt.Limit != nil {
		unread, outer = nil, nil
	}
	if stmt.Set != nil {
		if len(stmt.With) > 0 {
			var err error
			if cat, err = withScope(stmt.With, cat, opts); err != nil {
				return nil, err
			}
			query := *stmt
			query.With = nil
			stmt = &query
		}
		return planSetOp(stmt, cat, opts)
	}
	from := stmt.From.Name
	var t *catalog.Table
	var input *Plan
	var joinCols joinColumns
	var err error
	if len(stmt.OrderBy) > 0 || stmt.Limit != nil {
		return planOrderLimit(stmt, cat, opts) // order_limit.go
	}
	if len(stmt.With) > 0 {
		if cat, err = withScope(stmt.With, cat, opts); err != nil {
			return nil, err
		}
		query := *stmt
		query.With = nil
		stmt = &query
	}
	if stmt, err = scalarSubqueries(stmt, cat, opts); err != nil { // scalar_subquery.go
		return nil, err
	}
	if stmt, err = subqueryJoins(stmt, cat, opts); err != nil { // subquery_join.go
		return nil, err
	}
	into := opts.valuesInto
	opts.valuesInto = nil
	derived := opts.derived
	opts.derived = false
	switch {
	case tvfWithoutAggregate(stmt, opts.functions()):
		// window_tvf.go: the TVF's rows are the table the query reads
		t, input, err = windowTVFRelation(stmt, cat, opts)
		query := *stmt
		query.From.Window, query.From.Hint = nil, nil
		stmt = &query
	case stmt.From.Join != nil:
		t, input, joinCols, stmt, err = joinRelation(stmt, cat, opts) // join.go
	case stmt.From.Subquery != nil && rankItem(stmt.From.Subquery) >= 0:
		t, input, stmt, err = rankRelation(stmt, stmt.From.Alias, stmt.From.Subquery, nil, cat, opts, stmt.From.At)
	case stmt.From.Subquery != nil:
		dopts := opts
		dopts.outerReads = readsThrough(stmt, outer)
		t, input, err = derivedRelation(stmt.From.Alias, stmt.From.Subquery, nil, cat, dopts, stmt.From.At)
	case stmt.From.Values != nil || from.Name == "":
		for _, it := range stmt.Items {
			if it.Star && stmt.From.Values == nil {
				return nil, sql.Errorf(sql.ErrInvalid, it.At, "SELECT * is not allowed in a query with no FROM clause")
			}
		}
		t, err = valuesTable(stmt.From.Values, into, stmt.At, opts)
	case cat.View(from.Name) != nil:
		v := cat.View(from.Name)
		if stmt.From.Hint != nil {
			return nil, viewHint(v.Name, stmt.From.Hint)
		}
		if rankItem(v.Query) >= 0 {
			t, input, stmt, err = rankRelation(stmt, v.Name, v.Query, v.Columns, viewScope(v, cat), opts, from.At)
			break
		}
		vopts := opts
		reads := readsThrough(stmt, outer)
		vopts.unreadItems = unreadViewItems(reads, v.Query, v.Columns)
		if len(v.Columns) == 0 {
			vopts.outerReads = reads // renamed columns are read by other names
		}
		t, input, err = derivedRelation(v.Name, v.Query, v.Columns, viewScope(v, cat), vopts, from.At)
	case stmt.From.SystemTime != nil:
		err = sql.Errorf(sql.ErrInvalid, stmt.From.SystemTime.At, "FOR SYSTEM_TIME AS OF belongs to the right side of a join: JOIN %s FOR SYSTEM_TIME AS OF o.ts ON ...", from.Name)
	default:
		t = cat.Table(from.Name)
		if t == nil {
			names := append(cat.TableNames(), cat.ViewNames()...)
			return nil, sql.Errorf(sql.ErrInvalid, from.At, "table %s does not exist%s", from.Name, sql.DidYouMean(from.Name, names))
		}
		t, err = hintedTable(t, stmt.From.Hint, opts)
	}
	if err != nil {
		return nil, err
	}
	if joinCols == nil {
		if stmt, err = tableStars(stmt, t); err != nil {
			return nil, err
		}
	}
	if stmt.Distinct.IsValid() {
		if stmt, err = distinctAsGroupBy(stmt, t, opts.functions()); err != nil {
			return nil, err
		}
	}
	s := &selectPlanner{stmt: stmt, table: t, input: input, tvf: stmt.From.Window, gapCol: -1, aggOf: map[*sql.FuncCall]int{}, fns: opts.functions()}
	s.joinCols = joinCols
	s.unreadItems = unread
	s.resolveFieldRefs() // value_access.go
	s.updates = input != nil && input.Updates()
	if calls := overCalls(stmt); len(calls) > 0 {
		return s.planOver(opts, calls) // over.go
	}
	if len(stmt.GroupBy) == 0 && stmt.GroupingSets == nil && s.tvf == nil && !selectHasAggregate(s.fns, stmt) {
		opts.derived = derived
		return s.planPlain(opts)
	}
	if s.updates && s.tvf != nil {
		return nil, s.overUpdates(from.At)
	}
	if err := s.checkGroupingSets(); err != nil { // grouping_sets.go
		return nil, err
	}
	if s.tvf != nil {
		if err = s.windowWhereToHaving(); err == nil { // window_tvf.go
			err = s.planTVF()
		}
	} else {
		err = s.planGroupWindow()
	}
	if err != nil {
		return nil, err
	}
	if stmt.GroupingSets != nil || hasGroupingCall(stmt) {
		if err := s.planGroupingSets(); err != nil {
			return nil, err
		}
	}
	s.attachWindow(cat) // attached_window.go
	if s.updates && !s.grouped {
		// a window over changes has no time attribute to window by
		return nil, s.overUpdates(from.At)
	}
	if err := s.planSelectList(); err != nil {
		return nil, err
	}
	if stmt.Having != nil {
		if err := s.registerAggregates(stmt.Having); err != nil {
			return nil, err
		}
	}
	return s.finish(opts)
}

// selectHasAggregate reports whether the select list or HAVING aggregates.
func selectHasAggregate(fns *function.Registry, stmt *sql.Select) bool {
	for _, it := range stmt.Items {
		if it.Expr != nil && hasAggregate(fns, it.Expr) {
			return true
		}
	}
	return stmt.Having != nil
}

// registerAggregates plans every aggregate call inside e (each call once;
// windowScope later maps the call to its output column).
func (s *selectPlanner) registerAggregates(e sql.Expr) error {
	var err error
	walkExpr(e, func(x sql.Expr) bool {
		if err != nil {
			return false
		}
		f, ok := x.(*sql.FuncCall)
		if !ok || !isAggregateCall(s.fns, f) {
			return true
		}
		if _, ok := isGroupingCall(f); ok && s.sets != nil {
			err = s.addGrouping(f)
			return false
		}
		for _, a := range f.Args {
			if hasAggregate(s.fns, a) {
				err = sql.Errorf(sql.ErrInvalid, a.Pos(), "aggregate calls cannot be nested")
				return false
			}
		}
		if f.Filter != nil && hasAggregate(s.fns, f.Filter) {
			err = sql.Errorf(sql.ErrInvalid, f.Filter.Pos(), "the FILTER of %s cannot contain an aggregate call", f.Name)
			return false
		}
		_, err = s.addAggregate(f)
		return false
	})
	return err
}

// keyExpr is a GROUP BY expression and its position among the keys.
type keyExpr struct {
	pos int
	e   sql.Expr
}

// keyExprIndex returns the key position of a GROUP BY expression equal to
// e (as printed), or -1: SELECT UPPER(usr) ... GROUP BY UPPER(usr) reads
// the key.
func (s *selectPlanner) keyExprIndex(e sql.Expr) int {
	text := sqlfmt.Expr(e)
	for _, k := range s.keyExprs {
		if sqlfmt.Expr(k.e) == text {
			return k.pos
		}
	}
	return -1
}

// aggArgExpr is the argument expression of aggregate i.
func (s *selectPlanner) aggArgExpr(i int) sql.Expr {
	for f, j := range s.aggOf {
		if j == i {
			return aggItem(f)
		}
	}
	return nil
}

// addAggregate plans one aggregate call and returns its index.
func (s *selectPlanner) addAggregate(f *sql.FuncCall) (int, error) {
	if i, ok := s.aggOf[f]; ok {
		return i, nil
	}
	agg, col, err := s.aggregate(f)
	if err != nil {
		return -1, err
	}
	agg.Spec.Name = fmt.Sprintf("agg%d", len(s.aggs))
	s.aggs = append(s.aggs, agg)
	s.aggCols = append(s.aggCols, col)
	s.aggOf[f] = len(s.aggs) - 1
	return len(s.aggs) - 1, nil
}

type selectPlanner struct {
	stmt  *sql.Select
	table *catalog.Table
	input *Plan // the subquery or view the table describes; nil for a stored table
	tvf   *sql.WindowTVF
	// joinCols are the tables of the columns of a join's rows, which
	// qualified names resolve by; nil when FROM does not join.
	joinCols joinColumns

	windowCall *sql.WindowCall // the GROUP BY window, group-window form only
	grouped    bool            // GROUP BY without a window: a GroupAggregate
	updates    bool            // the input is an update stream: its row kind leads
	window     Window
	timeCol    int   // table column of the time attribute
	gapCol     int   // table column of a dynamic session gap, -1 if none
	keyCols    []int // table column of each GROUP BY key, in order
	aggs       []Aggregate
	aggCols    []int // table column of each aggregate's argument, -1 for COUNT(*)
	aggOf      map[*sql.FuncCall]int
	keyExprs   []keyExpr // GROUP BY keys that are expressions (keyCols holds -1 there)
	notices    []Notice
	fns        *function.Registry // the functions calls resolve to
	sets       *groupingSets      // GROUPING SETS, ROLLUP, CUBE or GROUPING calls; nil for none
	attached   *AttachedWindow    // the window comes with the input rows (attached_window.go); nil for none

	// each select item: a key (keyRef >= 0), a window column (winCol >= 0)
	// or an aggregate (aggRef >= 0)
	items []selectItem
	// unreadItems marks the items of a view's query the query reading the
	// view does not name (view_reads.go); nil for all read.
	unreadItems []bool
}

type selectItem struct {
	name                   string
	keyRef, winCol, aggRef int
	expr                   sql.Expr // an expression over keys, window properties and aggregates
}

// planSelectList maps each select item to a key, a window property or an
// aggregate.
func (s *selectPlanner) planSelectList() error {
	for i, item := range s.stmt.Items {
		if item.Star {
			return sql.Errorf(sql.ErrInvalid, item.At, "SELECT * cannot be used with GROUP BY; list the keys, window properties and aggregates")
		}
		it := selectItem{name: item.Alias, keyRef: -1, winCol: -1, aggRef: -1}
		switch e := item.Expr.(type) {
		case *sql.ColumnRef:
			if s.tvf != nil {
				if w := s.windowColumnIndex(e); w >= 0 {
					it.winCol = w
					if it.name == "" {
						it.name = strings.ToLower(e.Name)
					}
					break
				}
			}
			idx, err := s.resolve(e)
			if err != nil {
				return err
			}
			it.keyRef = indexOf(s.keyCols, idx)
			if it.keyRef < 0 {
				return sql.Errorf(sql.ErrInvalid, e.At, "column %s is not being grouped: add it to GROUP BY or use it in an aggregate", s.table.Columns[idx].Name)
			}
			if it.name == "" {
				it.name = s.table.Columns[idx].Name
			}
		case *sql.WindowAux:
			if s.tvf != nil {
				return sql.Errorf(sql.ErrInvalid, e.At, "%s_%s belongs to GROUP BY windows; over a window table function select window_start, window_end or window_time", e.Kind, e.Prop)
			}
			if s.windowCall == nil {
				return sql.Errorf(sql.ErrInvalid, e.At, "%s_%s needs a %s window in GROUP BY", e.Kind, e.Prop, e.Kind)
			}
			if err := s.checkAux(e); err != nil {
				return err
			}
			switch e.Prop {
			case sql.WindowStart:
				it.winCol = 0
			case sql.WindowEnd:
				it.winCol = 1
			case sql.WindowRowtime:
				it.winCol = 2
			default:
				return sql.Errorf(sql.ErrUnsupported, e.At, "%s_%s is not supported yet: processing-time windows are not built", e.Kind, e.Prop)
			}
		case *sql.WindowCall:
			return sql.Errorf(sql.ErrInvalid, e.At, "%s(...) belongs in GROUP BY; select %s_START, %s_END or %s_ROWTIME instead", e.Kind, e.Kind, e.Kind, e.Kind)
		default:
			if _, ok := isGroupingCall(e); ok && s.sets != nil {
				if err := s.registerAggregates(e); err != nil {
					return err
				}
				it.expr = e
				break
			}
			if f, ok := e.(*sql.FuncCall); ok && isAggregateCall(s.fns, f) {
				if err := s.registerAggregates(f); err != nil {
					return err
				}
				it.aggRef = s.aggOf[f]
				break
			}
			if k := s.keyExprIndex(e); k >= 0 {
				it.keyRef = k
				break
			}
			// an expression over keys, window properties and aggregates,
			// compiled once the window's output is laid out
			if err := s.registerAggregates(e); err != nil {
				return err
			}
			it.expr = e
		}
		if it.name == "" {
			it.name = fieldAlias(item.Expr)
		}
		if it.name == "" {
			it.name = fmt.Sprintf("EXPR$%d", i) // Flink's name for an unnamed expression
		}
		var earlier []string
		for _, prev := range s.items {
			earlier = append(earlier, prev.name)
		}
		it.name = uniqueName(it.name, earlier)
		s.items = append(s.items, it)
	}
	return nil
}

// windowColumnIndex maps window_start/end/time of a TVF to 0/1/2.
func (s *selectPlanner) windowColumnIndex(c *sql.ColumnRef) int {
	for i, n := range []string{tvfStart, tvfEnd, tvfTime} {
		if s.isWindowColumn(c, n) {
			return i
		}
	}
	return -1
}

// checkAux verifies that an auxiliary function repeats the GROUP BY
// window's kind and arguments exactly, as Flink requires.
func (s *selectPlanner) checkAux(a *sql.WindowAux) error {
	w := s.windowCall
	same := a.Kind == w.Kind && len(a.Args) == len(w.Args)
	for i := 0; same && i < len(a.Args); i++ {
		same = sameExpr(a.Args[i], w.Args[i])
	}
	if !same {
		return sql.Errorf(sql.ErrInvalid, a.At, "%s_%s does not match the group window %s at %s: an auxiliary function must repeat the GROUP BY window's arguments",
			a.Kind, a.Prop, w.Kind, w.At)
	}
	return nil
}

// finish builds the stream schema (physical columns, then the computed
// columns the query reads), maps table columns to it and assembles the plan.
func (s *selectPlanner) finish(opts Options) (*Plan, error) {
	t := s.table
	var needed []int
	if s.timeCol >= 0 {
		needed = append(needed, s.timeCol)
	} else if t.Watermark != nil {
		needed = append(needed, t.Watermark.Index) // watermarks still flow through
	}
	for _, k := range s.keyCols {
		if k >= 0 {
			needed = append(needed, k)
		}
	}
	for _, k := range s.keyExprs {
		cols, err := s.referencedColumns(k.e)
		if err != nil {
			return nil, err
		}
		needed = append(needed, cols...)
	}
	if w := s.stmt.Where; w != nil {
		cols, err := s.referencedColumns(w)
		if err != nil {
			return nil, err
		}
		needed = append(needed, cols...)
	}
	wmCols, err := s.watermarkColumns()
	if err != nil {
		return nil, err
	}
	needed = append(needed, wmCols...)
	for i, c := range s.aggCols {
		switch {
		case c >= 0:
			needed = append(needed, c)
		case c == argExpression:
			cols, err := s.referencedColumns(s.aggArgExpr(i))
			if err != nil {
				return nil, err
			}
			needed = append(needed, cols...)
		}
		cols, err := s.aggExtraColumns(i)
		if err != nil {
			return nil, err
		}
		needed = append(needed, cols...)
	}
	src, stream, streamIdx, computed, gapIndex, err := s.buildStream(opts, needed, nil, true)
	if err != nil {
		return nil, err
	}
	if s.input == nil && changelogSource(stream) {
		// a changelog format's source: a GROUP BY retracts its changes
		if !s.grouped {
			return nil, s.changelogWindow()
		}
		s.updates = true
	}
	if s.window.Kind == sql.Session && opts.Emit.Strategy != (windowop.EmitStrategy{}) {
		return nil, sql.Errorf(sql.ErrUnsupported, s.window.At, "early and late firing (table.exec.emit.*) are not supported on SESSION windows, as in Flink; RESET them for this query")
	}
	p := &Plan{
		Input:     s.input,
		TimeAttr:  -1,
		GapIndex:  gapIndex,
		Location:  opts.Location,
		Emit:      opts.Emit,
		Clock:     opts.Clock,
		Table:     t,
		Source:    src,
		Computed:  computed,
		Stream:    stream,
		Rowtime:   -1,
		Watermark: t.Watermark,
		Window:    s.window,
		ByTVF:     s.tvf != nil || s.attached != nil,
		Attached:  s.attached,
		Group:     s.grouped,
		Retract:   s.updates,
		Notices:   s.notices,
	}
	if w := s.stmt.Where; w != nil {
		if p.Where, err = exprplan.CompileCondition(w, &streamScope{s: s, streamIdx: streamIdx, stream: stream}, exprOptions(opts)); err != nil {
			return nil, err
		}
	}
	if !p.Proctime || s.timeCol < 0 {
		if p.WatermarkExpr, err = s.watermarkExpr(&streamScope{s: s, streamIdx: streamIdx, stream: stream}, opts); err != nil {
			return nil, err
		}
	}
	switch {
	case s.timeCol >= 0:
		p.Rowtime = streamIdx[s.timeCol]
		p.Proctime = t.Columns[s.timeCol].Proctime
	case t.Watermark != nil:
		p.Rowtime = streamIdx[t.Watermark.Index]
	}
	// keys and aggregate arguments that are expressions: computed per row
	// after WHERE, appended to the stream the window reads
	var pre []expr.Expr
	preFields := append([]arrow.Field(nil), stream.Fields()...)
	keyScope := &streamScope{s: s, streamIdx: streamIdx, stream: stream}
	var keyTypes []arrow.DataType
	for i, k := range s.keyCols {
		var e expr.Expr
		var name string
		if k >= 0 {
			f := stream.Field(streamIdx[k])
			keyTypes = append(keyTypes, f.Type)
			if !format.IsNestedType(f.Type) {
				p.Keys = append(p.Keys, streamIdx[k])
				continue
			}
			e, name = &expr.ColumnExpr{Index: streamIdx[k], Name: f.Name, Type: f.Type}, f.Name
		} else {
			var ke sql.Expr
			for _, x := range s.keyExprs {
				if x.pos == i {
					ke = x.e
				}
			}
			var err error
			if e, err = exprplan.CompileExpr(ke, keyScope, exprOptions(opts)); err != nil {
				return nil, err
			}
			keyTypes = append(keyTypes, e.DataType())
			name = sqlfmt.Expr(ke)
		}
		e = nestedKey(e)
		p.Keys = append(p.Keys, len(preFields))
		preFields = append(preFields, exprplan.ResultField(name, e, stream))
		pre = append(pre, e)
	}
	if s.attached != nil {
		e, err := exprplan.CompileExpr(attachedRowtime(s.attached.End), keyScope, exprOptions(opts))
		if err != nil {
			return nil, err
		}
		p.Rowtime = len(preFields)
		preFields = append(preFields, arrow.Field{Name: attachedRowtimeName, Type: e.DataType(), Nullable: true})
		pre = append(pre, e)
	}
	elemTypes := make([]arrow.DataType, len(s.aggs))
	for i, a := range s.aggs {
		switch s.aggCols[i] {
		case argExpression:
			arg := s.aggArgExpr(i)
			e, err := exprplan.CompileExpr(arg, &streamScope{s: s, streamIdx: streamIdx, stream: stream}, exprOptions(opts))
			if err != nil {
				return nil, err
			}
			if c := argClassOf(a.Spec); !c.OK(e.DataType()) {
				return nil, sql.Errorf(sql.ErrInvalid, arg.Pos(), "%s expects %s argument, got %s", a.Text[:strings.IndexByte(a.Text, '(')], c.What, sqlTypeName(e.DataType()))
			}
			if elemTypes[i] = heldElementType(a.Spec, e.DataType()); a.Spec.Distinct || elemTypes[i] != nil {
				e = nestedKey(e) // DISTINCT by, and ARRAY_AGG/COLLECT holding, a nested value's encoding
			}
			a.Spec.Input = len(preFields)
			preFields = append(preFields, exprplan.ResultField(fmt.Sprintf("$arg%d", i), e, stream))
			pre = append(pre, e)
		case -1:
		default:
			a.Spec.Input = streamIdx[s.aggCols[i]]
			f := stream.Field(a.Spec.Input)
			if elemTypes[i] = heldElementType(a.Spec, f.Type); (a.Spec.Distinct || elemTypes[i] != nil) && format.IsNestedType(f.Type) {
				a.Spec.Input = len(preFields)
				preFields = append(preFields, arrow.Field{Name: fmt.Sprintf("$arg%d", i), Type: arrow.BinaryTypes.Binary, Nullable: true})
				pre = append(pre, nestedKey(&expr.ColumnExpr{Index: streamIdx[s.aggCols[i]], Name: f.Name, Type: f.Type}))
			}
		}
		scope := &streamScope{s: s, streamIdx: streamIdx, stream: stream}
		if err := s.aggExtraInputs(i, &a.Spec, scope, opts, func(name string, e expr.Expr) int {
			preFields = append(preFields, arrow.Field{Name: fmt.Sprintf("$%s%d", name, i), Type: e.DataType(), Nullable: true})
			pre = append(pre, e)
			return len(preFields) - 1
		}); err != nil {
			return nil, err
		}
		p.Aggs = append(p.Aggs, a)
	}
	if len(pre) > 0 {
		p.Stream = arrow.NewSchema(preFields, nil)
		p.PreWindow = &exec.ComputedSpec{Exprs: pre, Schema: p.Stream, RowtimeIndex: -1, Table: t.Name}
	}
	if s.sets != nil {
		if keyTypes, err = s.expand(p, keyTypes); err != nil { // grouping_sets.go
			return nil, err
		}
	}
	if p.Retract {
		if err := s.checkRetractable(p); err != nil {
			return nil, err
		}
	}
	winCfg := p.windowConfig()
	var winSchema *arrow.Schema
	switch {
	case p.Group:
		winSchema, err = p.groupConfig().OutputSchema()
	case p.Window.Kind == sql.CountWindow:
		winSchema, err = p.countConfig().OutputSchema()
	default:
		winSchema, err = winCfg.OutputSchema()
	}
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, p.Window.At, "%v", err)
	}
	updates := p.Group || p.Window.Kind != sql.CountWindow && winCfg.Updates()
	keyShift := 0 // an update stream's row kind leads
	if updates {
		keyShift = 1
	}
	aggAt := keyShift + len(keyTypes) + 3 // the window's first aggregate column
	switch {
	case p.Group:
		aggAt = keyShift + len(keyTypes)
	case p.Window.Kind == sql.CountWindow:
		aggAt = len(keyTypes) + 1
	}
	if p.PostWindow = nestedValues(winSchema, keyTypes, keyShift, elemTypes, aggAt); p.PostWindow != nil {
		winSchema = p.PostWindow.Schema
	}
	nk := len(p.Keys)
	var outFields []arrow.Field
	// window operator output: [op] keys, window_start, window_end,
	// window_time, aggregates; a count window: keys, window_count,
	// aggregates; a group aggregate: op, keys, aggregates
	shift, aggBase := 0, nk+3
	switch {
	case p.Window.Kind == sql.CountWindow:
		aggBase = nk + 1
	case p.Group:
		aggBase = nk
	}
	if updates {
		// an update stream leads with its row kind column
		outFields = append(outFields, winSchema.Field(0))
		p.Project.Columns = append(p.Project.Columns, 0)
		shift = 1
	}
	scope := &windowScope{s: s, schema: winSchema, nk: nk, shift: shift, aggBase: aggBase}
	general := false
	for _, it := range s.items {
		general = general || it.expr != nil
	}
	for i, it := range s.items {
		if it.winCol == 2 && p.Window.Kind != sql.CountWindow && !p.Group {
			p.TimeAttr = i // *_ROWTIME / window_time stays a time attribute
		}
		var c int
		switch {
		case it.expr != nil:
			e, err := exprplan.CompileExpr(it.expr, scope, exprOptions(opts))
			if err != nil {
				return nil, err
			}
			outFields = append(outFields, exprplan.ResultField(it.name, e, winSchema))
			p.Project.Exprs = append(p.Project.Exprs, e)
			continue
		case it.keyRef >= 0:
			c = it.keyRef
		case it.winCol >= 0:
			c = nk + it.winCol
		default:
			c = aggBase + it.aggRef
		}
		f := winSchema.Field(c + shift)
		f.Name = it.name
		if in := p.Aggs; it.keyRef < 0 && it.winCol < 0 && arrow.TypeEqual(f.Type, p.Stream.Field(in[it.aggRef].Spec.Input).Type) {
			// MIN, MAX, FIRST_VALUE, LAST_VALUE: a value of the argument's precision
			f = timeprecision.With(f, timeprecision.Of(p.Stream.Field(in[it.aggRef].Spec.Input)))
		}
		outFields = append(outFields, f)
		p.Project.Columns = append(p.Project.Columns, c+shift)
		if general {
			p.Project.Exprs = append(p.Project.Exprs, &expr.ColumnExpr{Index: c + shift, Name: f.Name, Type: f.Type})
		}
	}
	if general {
		if shift == 1 {
			// the row kind column leads an update stream's projection too
			p.Project.Exprs = append([]expr.Expr{&expr.ColumnExpr{Index: 0, Name: winSchema.Field(0).Name, Type: winSchema.Field(0).Type}}, p.Project.Exprs...)
		}
		p.Project.Columns = nil
	}
	for i := range p.Aggs {
		p.Aggs[i].Type = winSchema.Field(aggBase + i + shift).Type
	}
	if h := s.stmt.Having; h != nil {
		if p.Having, err = exprplan.CompileCondition(h, scope, exprOptions(opts)); err != nil {
			return nil, err
		}
	}
	p.Project.Schema = arrow.NewSchema(outFields, nil)
	return p, nil
}

// checkRetractable refuses, at the call, an aggregate that cannot take
// rows out again, which a GROUP BY over an update stream needs.
func (s *selectPlanner) checkRetractable(p *Plan) error {
	for f, i := range s.aggOf {
		a := p.Aggs[i].Spec
		var in arrow.DataType
		if a.Kind != windowop.CountStar {
			in = p.Stream.Field(a.Input).Type
		}
		if err := windowop.Retractable(a, in); err != nil {
			return sql.Errorf(sql.ErrUnsupported, f.At, "%v", err)
		}
	}
	return nil
}

// resolve finds a column of the FROM table, honouring a qualifier.
func (s *selectPlanner) resolve(c *sql.ColumnRef) (int, error) {
	if s.joinCols != nil {
		return s.joinCols.find(c)
	}
	t := s.table
	if c.Table != "" && !strings.EqualFold(c.Table, t.Name) && !strings.EqualFold(c.Table, s.stmt.From.Alias) {
		return -1, sql.Errorf(sql.ErrInvalid, c.At, "unknown table %s in %s.%s", c.Table, c.Table, c.Name)
	}
	idx := t.Column(c.Name)
	if idx < 0 {
		names := t.ColumnNames()
		if s.tvf != nil {
			names = append(names, tvfStart, tvfEnd, tvfTime)
		}
		return -1, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in table %s%s", c.Name, t.Name, sql.DidYouMean(c.Name, names))
	}
	return idx, nil
}

func indexOf(list []int, v int) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// sameExpr compares two window arguments structurally.
func sameExpr(a, b sql.Expr) bool {
	switch x := a.(type) {
	case *sql.ColumnRef:
		y, ok := b.(*sql.ColumnRef)
		return ok && strings.EqualFold(x.Name, y.Name)
	case *sql.IntervalLiteral:
		y, ok := b.(*sql.IntervalLiteral)
		return ok && x.Millis == y.Millis && x.Months == y.Months && x.YearMonth == y.YearMonth
	case *sql.Literal:
		y, ok := b.(*sql.Literal)
		return ok && x.Kind == y.Kind && x.Text == y.Text
	case *sql.Binary:
		y, ok := b.(*sql.Binary)
		return ok && x.Op == y.Op && sameExpr(x.L, y.L) && sameExpr(x.R, y.R)
	}
	return false
}
