package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/sql"
)

// The window columns a relation's column can be (Flink's window
// properties): window_start, window_end and window_time of a window
// table function, or of a window aggregation that groups by them; and
// the column a window table function without aggregation windows by
// (its rows' event time, which a window deduplication may order by).
const (
	notWindowColumn = iota - 1
	windowStartColumn
	windowEndColumn
	windowTimeColumn
	windowedTimeColumn
)

// maxWindowColumnDepth bounds the subqueries and views windowColumnOf
// looks through.
const maxWindowColumnDepth = 32

// windowColumnOf says which window column the column name of relation
// from is. As Flink's FlinkRelMdWindowProperties, a window column passes
// through subqueries and views that select it as it is (renamed or not)
// and through WHERE, but not through an expression, a set operation or
// a legacy GROUP BY TUMBLE(...) window, whose TUMBLE_START and TUMBLE_END
// are values only.
func windowColumnOf(from sql.TableRef, name string, cat *catalog.Catalog, depth int) int {
	if depth > maxWindowColumnDepth {
		return notWindowColumn
	}
	switch {
	case from.Window != nil:
		if strings.EqualFold(name, from.Window.TimeCol.Name) {
			return windowedTimeColumn
		}
		if t := cat.Table(from.Name.Name); t != nil && t.Column(name) >= 0 {
			return notWindowColumn // a column of the windowed table
		}
		for i, n := range []string{tvfStart, tvfEnd, tvfTime} {
			if strings.EqualFold(name, n) {
				return i
			}
		}
		return notWindowColumn
	case from.Subquery != nil:
		return selectWindowColumn(from.Subquery, nil, name, cat, depth+1)
	case from.Values != nil:
		return notWindowColumn
	}
	if v := cat.View(from.Name.Name); v != nil {
		return selectWindowColumn(v.Query, v.Columns, name, viewScope(v, cat), depth+1)
	}
	return notWindowColumn
}

// selectWindowColumn is windowColumnOf for the result column name of q,
// whose columns colNames renames when set.
func selectWindowColumn(q *sql.Select, colNames []string, name string, cat *catalog.Catalog, depth int) int {
	if q.Set != nil || len(q.With) > 0 || rankItem(q) >= 0 || q.Distinct.IsValid() {
		return notWindowColumn
	}
	for i, it := range q.Items {
		if it.Star {
			if colNames != nil {
				return notWindowColumn // the names no longer line up with the items
			}
			if k := windowColumnOf(q.From, name, cat, depth); k != notWindowColumn && len(q.GroupBy) == 0 {
				return k
			}
			continue
		}
		out := it.Alias
		c, isColumn := it.Expr.(*sql.ColumnRef)
		switch {
		case colNames != nil && i < len(colNames):
			out = colNames[i]
		case out == "" && isColumn:
			out = c.Name
		}
		if !strings.EqualFold(out, name) {
			continue
		}
		attached := len(q.GroupBy) > 0 && q.From.Window == nil
		if !isColumn || attached && !groupsByWindowBounds(q, cat, depth) {
			return notWindowColumn
		}
		// a projection, or a window aggregation, which groups by
		// window_start and window_end (planTVF checks it), or by the
		// bounds of the windows its rows come with (attached_window.go)
		k := windowColumnOf(q.From, c.Name, cat, depth)
		if k == windowedTimeColumn && len(q.GroupBy) > 0 || k == windowTimeColumn && attached {
			return notWindowColumn // a grouping key's value
		}
		return k
	}
	return notWindowColumn
}

// windowRank makes the rank cfg of a Top-N a window rank when its
// PARTITION BY holds the window_start and window_end of the relation it
// ranks (Flink's StreamPhysicalWindowRankRule), else leaves it a regular
// Top-N. A window rank of rank 1 ordered by the windows' event time alone
// is a window deduplication (StreamPhysicalWindowDeduplicateRule), with
// the rank column, if selected, always 1. p is the planned inner query
// (its visible columns, then the partition keys, then the sort keys).
func windowRank(cfg *rankop.Config, p *Plan, inner *sql.Select, over *sql.OverCall, visible int, cat *catalog.Catalog) error {
	start, end := -1, -1
	for i, e := range over.PartitionBy {
		c, ok := e.(*sql.ColumnRef)
		if !ok {
			continue
		}
		switch windowColumnOf(inner.From, c.Name, cat, 0) {
		case windowStartColumn:
			start = i
		case windowEndColumn:
			end = i
		}
	}
	if start < 0 || end < 0 {
		return nil
	}
	if f := over.Func.Name; f != "ROW_NUMBER" {
		return sql.Errorf(sql.ErrUnsupported, over.At, "a window Top-N ranks by ROW_NUMBER() only, as Flink; %s is not supported there", f)
	}
	if cfg.Mode == rankop.FirstByArrival || cfg.Mode == rankop.LastByArrival {
		return sql.Errorf(sql.ErrUnsupported, over.OrderBy[0].Expr.Pos(), "a window deduplication orders by event time; processing time is not supported, as in Flink")
	}
	win := windowPlanOf(p)
	if win == nil {
		return nil // no window found under the columns: rank them as values
	}
	if win.Proctime {
		return sql.Errorf(sql.ErrUnsupported, over.At, "a window Top-N over processing-time windows is not supported yet; window by an event-time attribute")
	}
	w := &rankop.WindowColumns{Start: visible + start, End: visible + end}
	if rt, ok := windowedType(win).(*arrow.TimestampType); ok && rt.TimeZone != "" {
		w.Zone = win.Location // the bounds are wall-clock times there
	}
	cfg.Window = w
	base := visible + len(over.PartitionBy)
	timeAttr := p.TimeAttr
	if cfg.Start == 1 && cfg.End == 1 && len(over.OrderBy) == 1 && (timeAttr == base || ordersByEventTime(over.OrderBy[0].Expr, inner, cat)) {
		// ORDER BY the time attribute: a window deduplication
		cfg.Mode, cfg.Rowtime, cfg.Order = rankop.FirstByTime, base, nil
		if over.OrderBy[0].Desc {
			cfg.Mode = rankop.LastByTime
		}
	}
	if timeAttr >= visible {
		// the time attribute is a sort key; a visible column the same as
		// it stays the time attribute
		timeAttr = visibleCopy(p, timeAttr, visible)
	}
	p.TimeAttr = timeAttr
	return nil
}

// visibleCopy returns the visible column of plain plan p that reads the
// same input column as its column c, or -1.
func visibleCopy(p *Plan, c, visible int) int {
	if !p.Plain || c >= len(p.Project.Exprs) {
		return -1
	}
	hidden, ok := p.Project.Exprs[c].(*expr.ColumnExpr)
	if !ok {
		return -1
	}
	for i, e := range p.Project.Exprs[:visible] {
		if col, ok := e.(*expr.ColumnExpr); ok && col.Index == hidden.Index {
			return i
		}
	}
	return -1
}

// ordersByEventTime reports whether the sort key e is the event time of
// the windowed rows: window_time, or the column a window table function
// without aggregation windows by.
func ordersByEventTime(e sql.Expr, inner *sql.Select, cat *catalog.Catalog) bool {
	c, ok := e.(*sql.ColumnRef)
	if !ok {
		return false
	}
	k := windowColumnOf(inner.From, c.Name, cat, 0)
	return k == windowTimeColumn || k == windowedTimeColumn
}

// windowedType is the type of the time attribute the windows of win (a
// window aggregation or a window table function) are assigned by.
func windowedType(win *Plan) arrow.DataType {
	if win.TVF != nil {
		return win.TVF.Config.Input.Field(win.TVF.Config.RowtimeIndex).Type
	}
	return win.Stream.Field(win.Rowtime).Type
}

// windowPlanOf returns the window aggregation or window table function
// plan p reads through its projections, or nil.
func windowPlanOf(p *Plan) *Plan {
	for ; p != nil; p = p.Input {
		switch {
		case p.TVF != nil:
			return p
		case p.Union != nil || p.Rank != nil || p.Group:
			return nil
		case !p.Plain:
			if p.Window.Kind == sql.CountWindow {
				return nil
			}
			return p
		}
	}
	return nil
}

// windowRankText is EXPLAIN's line for a window Top-N or a window
// deduplication, as Flink's WindowRank and WindowDeduplicate.
func (p *Plan) windowRankText() string {
	c := p.Rank
	var part []string
	for _, k := range c.Partition {
		if k != c.Window.Start && k != c.Window.End {
			part = append(part, p.readColumn(k))
		}
	}
	window := fmt.Sprintf("window=[win_start=[%s], win_end=[%s]]", p.readColumn(c.Window.Start), p.readColumn(c.Window.End))
	keys := "partition=[" + strings.Join(part, ", ") + "]"
	emit := "emit=[once per window, when the watermark passes its end; late rows dropped], changelog=[I]"
	switch c.Mode {
	case rankop.FirstByTime, rankop.LastByTime:
		keep := "first"
		if c.Mode == rankop.LastByTime {
			keep = "last"
		}
		return fmt.Sprintf("WindowDeduplicate(%s, %s, keep=[%s row by %s], %s)", window, keys, keep, p.readColumn(c.Rowtime), emit)
	}
	var order []string
	for _, k := range c.Order {
		o := p.readColumn(k.Index)
		if k.Desc {
			o += " DESC"
		}
		order = append(order, o)
	}
	rank := "not in the output"
	if c.RankName != "" {
		rank = c.RankName
	}
	return fmt.Sprintf("WindowRank(ROW_NUMBER, %s, %s, order=[%s], rank range=[%d, %d], rank=[%s], %s)",
		window, keys, strings.Join(order, ", "), c.Start, c.End, rank, emit)
}

// readColumn names the input column the result column k of p reads as it
// is (a hidden partition or sort key's source), else k's own name.
func (p *Plan) readColumn(k int) string {
	if k < len(p.Project.Exprs) {
		if c, ok := p.Project.Exprs[k].(*expr.ColumnExpr); ok {
			return c.Name
		}
	}
	return p.Project.Schema.Field(k).Name
}
