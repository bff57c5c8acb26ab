package planner

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// Explain prints the operator tree, top (sink side) first, one operator per
// line with its parameters. Warnings travel separately, as Notices.
func (p *Plan) Explain() string {
	var lines []string
	add := func(depth int, format string, args ...any) {
		prefix := ""
		if depth > 0 {
			prefix = strings.Repeat("   ", depth-1) + "+- "
		}
		lines = append(lines, prefix+fmt.Sprintf(format, args...))
	}
	depth := 0
	if p.Sink != nil {
		add(depth, "Sink(table=[%s], connector=[%s], fields=[%s])", p.Sink.Table.Name, p.Sink.Connector, strings.Join(fieldNames(p.Schema()), ", "))
		depth++
	}
	depth = p.explainOrder(add, depth)
	if p.Rank != nil {
		add(depth, "%s", p.rankText())
		depth++
	}
	if p.SetOp != nil {
		add(depth, "%s", p.setOpText())
		depth++
	}
	if p.TVF != nil {
		add(depth, "%s", p.TVF.tvfText())
		depth++
	}
	if p.Join != nil {
		return p.explainJoin(lines, depth)
	}
	if p.Lookup != nil {
		add(depth, "Project(%s)", strings.Join(fieldNames(p.Project.Schema), ", "))
		return p.explainLookup(lines, depth+1)
	}
	if p.Union != nil {
		return p.explainUnion(lines, depth)
	}
	add(depth, "Project(%s)", p.projectText())
	depth++
	if p.Having != nil {
		add(depth, "Filter(HAVING %s)", p.Having)
		depth++
	}
	if p.PostWindow != nil {
		var cols []string
		for i, e := range p.PostWindow.Exprs {
			if _, plain := e.(*expr.ColumnExpr); !plain {
				cols = append(cols, fmt.Sprintf("%s := %s", p.PostWindow.Schema.Field(i).Name, e))
			}
		}
		add(depth, "Calc(%s)", strings.Join(cols, ", "))
		depth++
	}
	switch {
	case p.Plain:
	case p.Over != nil:
		add(depth, "%s", p.overText())
		depth++
	case p.Group:
		add(depth, "GroupAggregate(keys=[%s], aggs=[%s], emit=[per row: +I for a new key, -U and +U when its values change], changelog=[%s])",
			strings.Join(p.keyNames(), ", "), p.aggsText(), p.changelogText())
		depth++
	case p.Window.Kind == sql.CountWindow:
		add(depth, "CountWindowAggregate(window=[%s], keys=[%s], aggs=[%s], emit=[as each window fills; unfilled windows are counted, not emitted])",
			p.Window, strings.Join(p.keyNames(), ", "), p.aggsText())
		depth++
	default:
		p.explainTimeWindow(add, depth)
		depth++
	}
	if p.Expand != nil {
		add(depth, "%s", p.expandText())
		depth++
	}
	if p.PreWindow != nil {
		var cols []string
		base := p.PreWindow.Schema.NumFields() - len(p.PreWindow.Exprs)
		for i, e := range p.PreWindow.Exprs {
			cols = append(cols, fmt.Sprintf("%s := %s", p.PreWindow.Schema.Field(base+i).Name, e))
		}
		add(depth, "Calc(%s)", strings.Join(cols, ", "))
		depth++
	}
	if p.Where != nil {
		add(depth, "Filter(WHERE %s; rows it removes still advanced the watermark)", p.Where)
		depth++
	}
	if p.Lateral != nil {
		add(depth, "%s", p.lateralText())
		depth++
	}
	if p.Input != nil {
		// the subquery's operators, with the watermarks it forwards
		for _, line := range strings.Split(strings.TrimRight(p.Input.Explain(), "\n"), "\n") {
			if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "+-") && !strings.HasPrefix(line, ":") {
				add(depth, "%s", line)
				continue
			}
			lines = append(lines, strings.Repeat("   ", depth)+line)
		}
		return strings.Join(lines, "\n") + "\n"
	}
	if p.Watermark != nil && !p.Proctime {
		add(depth, "WatermarkAssigner(rowtime=[%s], watermark=[%s], emit=[%s]%s)",
			p.Watermark.Column, exprString(p.Watermark.Expr), p.emitText(), p.idleText()+p.maxFutureText())
		depth++
	}
	if p.Computed != nil {
		var cols []string
		base := p.Stream.NumFields() - len(p.Computed.Exprs)
		for i, e := range p.Computed.Exprs {
			cols = append(cols, fmt.Sprintf("%s := %s", p.Stream.Field(base+i).Name, e))
		}
		add(depth, "ComputedColumns(%s)", strings.Join(cols, ", "))
		depth++
	}
	add(depth, "TableSourceScan(table=[%s], %s, fields=[%s])",
		p.Table.Name, p.Source.Explain(), strings.Join(fieldNames(p.Source.Spec().Schema), ", "))
	return strings.Join(lines, "\n") + "\n"
}

// emitText says how the watermark assigner computes each row's watermark:
// with several splits, per split and then combined (docs/semantics.md, "Several files: splits").
func (p *Plan) emitText() string {
	if p.Source.NumSplits() > 1 {
		return "per row: max over the rows before it in its split, min over the active splits"
	}
	return "per row: max over the rows before it"
}

// durationText shows a duration option in ms units (Millis), or Go's form
// below a millisecond.
func durationText(d time.Duration) string { return rowtime.DurationText(d) }

// idleText shows 'scan.watermark.idle-timeout' when it is set.
func (p *Plan) idleText() string {
	d := p.Source.Spec().IdleTimeout
	if d <= 0 {
		return ""
	}
	return ", idle-timeout=[" + durationText(d) + "]"
}

func (p *Plan) projectText() string {
	var cols []string
	if p.Project.Exprs != nil {
		for i, e := range p.Project.Exprs {
			name := p.Project.Schema.Field(i).Name
			if c, ok := e.(*expr.ColumnExpr); ok && c.Name == name {
				cols = append(cols, name)
			} else {
				cols = append(cols, name+" := "+e.String())
			}
		}
		return strings.Join(cols, ", ")
	}
	win := p.windowOutputNames()
	for i, c := range p.Project.Columns {
		name := p.Project.Schema.Field(i).Name
		if win[c] == name {
			cols = append(cols, name)
		} else {
			cols = append(cols, name+" := "+win[c])
		}
	}
	return strings.Join(cols, ", ")
}

// windowOutputNames names the window operator's output columns for EXPLAIN:
// keys, window_start, window_end, window_time, then the aggregates as written.
func (p *Plan) windowOutputNames() []string {
	names := p.keyNames()
	if p.Group {
		names = append([]string{windowop.ColOp}, names...)
	} else if p.Window.Kind == sql.CountWindow {
		names = append(names, windowop.ColWindowCount)
	} else {
		if p.windowConfig().Updates() {
			names = append([]string{windowop.ColOp}, names...)
		}
		names = append(names, windowop.ColWindowStart, windowop.ColWindowEnd, windowop.ColWindowTime)
	}
	for _, a := range p.Aggs {
		names = append(names, a.Text)
	}
	return names
}

func (p *Plan) keyNames() []string {
	var out []string
	for _, k := range p.Keys {
		out = append(out, p.Stream.Field(k).Name)
	}
	return out
}

func (p *Plan) aggsText() string {
	var out []string
	for _, a := range p.Aggs {
		out = append(out, a.Text+": "+sqlTypeName(a.Type))
	}
	return strings.Join(out, ", ")
}

// updateNode names the operator whose update stream the query produces,
// for an error as Flink's, and says how to make the query append-only.
func (p *Plan) updateNode() (node, fix string) {
	if p.SetOp != nil {
		return p.setOpText(), "INTERSECT and EXCEPT delete rows as in Flink, UNION ALL does not"
	}
	if p.Rank != nil {
		return p.rankText(), "keep the first row per key by the rowtime (ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) = 1, without the row number), which is append-only"
	}
	if p.Join != nil {
		return p.joinText(), "join by an interval or a window, which is append-only"
	}
	if p.Plain && p.Input != nil {
		return p.Input.updateNode() // a filter and projection pass it on
	}
	if p.Plain {
		// a table of a changelog format (debezium-json)
		format, _ := p.Table.Options.Lookup(connector.KeyFormat)
		return fmt.Sprintf("TableSourceScan(table=[%s], format=[%s])", p.Table.Name, format.Value),
			"read a table of an append-only format"
	}
	if p.Group {
		return fmt.Sprintf("GroupAggregate(keys=[%s], aggs=[%s])", strings.Join(p.keyNames(), ", "), p.aggsText()),
			"group by a window as well (GROUP BY ..., TUMBLE(ts, INTERVAL ...)) to emit each result once"
	}
	return fmt.Sprintf("WindowAggregate(window=[%s], emit=[%s])", p.Window, p.windowEmitText(p.windowConfig())),
		"RESET 'table.exec.emit.early-fire.enabled' and 'table.exec.emit.late-fire.enabled' to emit each window once"
}

// rankText is EXPLAIN's line for a Top-N or a deduplication.
func (p *Plan) rankText() string {
	if p.Rank.Window != nil {
		return p.windowRankText()
	}
	c := p.Rank
	in := p.Project.Schema
	var part []string
	for _, k := range c.Partition {
		part = append(part, in.Field(k).Name)
	}
	var order []string
	for _, k := range c.Order {
		o := in.Field(k.Index).Name
		if k.Desc {
			o += " DESC"
		}
		order = append(order, o)
	}
	keys := "partition=[" + strings.Join(part, ", ") + "]"
	switch c.Mode {
	case rankop.FirstByArrival:
		return "Deduplicate(" + keys + ", keep=[first row by arrival], changelog=[I])"
	case rankop.LastByArrival:
		return "Deduplicate(" + keys + ", keep=[last row by arrival], changelog=[I, UB, UA])"
	case rankop.FirstByTime:
		return "Deduplicate(" + keys + ", keep=[first row by " + in.Field(c.Rowtime).Name + ", emitted when the watermark reaches it; late rows dropped], changelog=[I])"
	case rankop.LastByTime:
		return "Deduplicate(" + keys + ", keep=[last row by " + in.Field(c.Rowtime).Name + "], changelog=[I, UB, UA])"
	}
	rank := "not in the output"
	if c.RankName != "" {
		rank = c.RankName
	}
	changes := "I, UB, UA"
	switch {
	case c.Type == rankop.RowNumber && c.RankName == "" && c.Start == 1:
		// without ranks, the row pushed out is deleted and the new one inserted
		changes = "I, D"
	case c.Type != rankop.RowNumber:
		// rows leave when a row ranked before them moves them past the range
		changes = "I, UB, UA, D"
		if c.RankName == "" {
			changes = "I, D"
		}
	}
	return fmt.Sprintf("Rank(%s, %s, order=[%s], rank range=[%d, %d], rank=[%s], changelog=[%s])", c.Type, keys, strings.Join(order, ", "), c.Start, c.End, rank, changes)
}

// changelogText is the kinds of change an update stream carries and the
// key they are unique by, as Flink's changelogMode and upsertKeys.
func (p *Plan) changelogText() string {
	if len(p.Keys) == 0 {
		return "I, UB, UA; one row"
	}
	return "I, UB, UA; unique by " + strings.Join(p.keyNames(), ", ")
}

// explainTimeWindow prints the WindowAggregate line of a time window.
func (p *Plan) explainTimeWindow(add func(int, string, ...any), depth int) {
	cfg := p.windowConfig()
	late := ""
	if p.Emit.LateDataPath != "" {
		late = fmt.Sprintf(", late rows=[%s]", p.Emit.LateDataPath)
	}
	window := p.Window.String()
	if p.Attached != nil {
		window = p.Attached.text(p.Window)
	}
	add(depth, "WindowAggregate(window=[%s], time=[%s], rowtime index=[%d], trigger=[%s], allowed lateness=[%s], emit=[%s], keys=[%s], aggs=[%s]%s)",
		window, p.timeText(), p.Rowtime, p.triggerText(), Millis(cfg.AllowedLateness), p.windowEmitText(cfg), strings.Join(p.keyNames(), ", "), p.aggsText(), late)
}

// windowEmitText says when windows emit: once at their end, or as updates.
func (p *Plan) windowEmitText(cfg windowop.Config) string {
	if !cfg.Updates() {
		return "on window end"
	}
	e := Emit{Strategy: cfg.Emit, AllowedLateness: cfg.AllowedLateness}
	return e.String() + ", as updates"
}

func (p *Plan) timeText() string {
	name := p.Stream.Field(p.Rowtime).Name
	if p.Proctime {
		return name + " (processing time)"
	}
	return name + " (event time)"
}

func (p *Plan) triggerText() string {
	if p.Proctime {
		return "ProcessingTimeTrigger"
	}
	return windowop.EventTimeTrigger{}.String()
}

func fieldNames(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}

// sqlTypeName prints an Arrow type by its SQL name.
func sqlTypeName(dt arrow.DataType) string { return format.SQLTypeName(dt) }

// SQLTypeName is sqlTypeName for the engine's DESCRIBE of query results.
func SQLTypeName(dt arrow.DataType) string { return format.SQLTypeName(dt) }

// FieldTypeName is the SQL type of a result column, its precision
// included where its Arrow type does not tell it (TIMESTAMP(2)).
func FieldTypeName(f arrow.Field) string {
	return timeprecision.Name(format.SQLTypeName(f.Type), f.Type, timeprecision.Of(f))
}

func exprString(e sql.Expr) string { return sqlfmt.Expr(e) }

// maxFutureText shows 'scan.watermark.max-future' when it is set.
func (p *Plan) maxFutureText() string {
	if p.Source == nil || p.Source.Spec().MaxFuture == nil {
		return ""
	}
	return ", max-future=[" + durationText(p.Source.Spec().MaxFuture.Bound) + "]"
}
