package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
)

// planPlain plans a streaming SELECT without GROUP BY: rows flow from the
// source through WHERE and the select list as they are read. The table's
// watermark still runs, so a plain query can feed a window later.
func (s *selectPlanner) planPlain(opts Options) (*Plan, error) {
	t := s.table
	s.timeCol = -1
	// every computed column a * or an expression may read, except PROCTIME()
	var needed []int
	if t.Watermark != nil {
		needed = append(needed, t.Watermark.Index)
	}
	for i, c := range t.Columns {
		if c.Computed != nil && !c.Proctime {
			needed = append(needed, i)
		}
	}
	if cols, err := s.watermarkColumns(); err != nil {
		return nil, err
	} else {
		needed = append(needed, cols...)
	}
	reads, prune := s.plainReads()
	src, stream, streamIdx, computed, _, err := s.buildStream(opts, needed, reads, prune)
	if err != nil {
		return nil, err
	}
	// a changelog format's source: its changes keep their row kind too
	s.updates = s.updates || changelogSource(stream)
	scope := &streamScope{s: s, streamIdx: streamIdx, stream: stream}
	p := &Plan{
		Input:     s.input,
		TimeAttr:  -1,
		Plain:     true,
		Location:  opts.Location,
		Clock:     opts.Clock,
		Table:     t,
		Source:    src,
		Computed:  computed,
		Stream:    stream,
		Rowtime:   -1,
		GapIndex:  -1,
		Watermark: t.Watermark,
	}
	if t.Watermark != nil {
		p.Rowtime = streamIdx[t.Watermark.Index]
	}
	if p.WatermarkExpr, err = s.watermarkExpr(scope, opts); err != nil {
		return nil, err
	}
	if w := s.stmt.Where; w != nil {
		if p.Where, err = exprplan.CompileCondition(w, scope, exprOptions(opts)); err != nil {
			return nil, err
		}
	}
	var fields []arrow.Field
	if s.updates {
		// the changes of an update stream keep their row kind
		fields = append(fields, stream.Field(0))
		p.Project.Exprs = append(p.Project.Exprs, &expr.ColumnExpr{Index: 0, Name: stream.Field(0).Name, Type: stream.Field(0).Type})
	}
	add := func(name string, e expr.Expr) {
		var earlier []string
		for _, f := range fields {
			earlier = append(earlier, f.Name)
		}
		fields = append(fields, exprplan.ResultField(uniqueName(name, earlier), e, stream))
		p.Project.Exprs = append(p.Project.Exprs, e)
	}
	for i, item := range s.stmt.Items {
		if item.Star {
			for ti, c := range t.Columns {
				if c.Proctime {
					// processing time has no value to show yet; a view or
					// subquery passes the attribute on
					if opts.derived {
						appendProctime(c.Name, p, &fields)
					}
					continue
				}
				si := streamIdx[ti]
				if t.Watermark != nil && ti == t.Watermark.Index {
					p.TimeAttr = len(fields)
				}
				add(c.Name, &expr.ColumnExpr{Index: si, Name: c.Name, Type: stream.Field(si).Type})
			}
			continue
		}
		if wc, ok := item.Expr.(*sql.WindowCall); ok {
			return nil, sql.Errorf(sql.ErrInvalid, wc.At, "%s(...) belongs in GROUP BY", wc.Kind)
		}
		if isProctimeCall(item.Expr) {
			if err := s.proctimeItem(item, i, opts, p, &fields); err != nil {
				return nil, err
			}
			continue
		}
		if c, ok := item.Expr.(*sql.ColumnRef); ok && opts.derived {
			if ci := s.columnIndex(c); ci >= 0 && t.Columns[ci].Proctime {
				// a view or subquery passes a processing-time attribute on
				name := item.Alias
				if name == "" {
					name = c.Name
				}
				appendProctime(name, p, &fields)
				continue
			}
		}
		e, err := exprplan.CompileExpr(item.Expr, scope, exprOptions(opts))
		if err != nil {
			return nil, err
		}
		if c, ok := item.Expr.(*sql.ColumnRef); ok && t.Watermark != nil && s.columnIndex(c) == t.Watermark.Index {
			p.TimeAttr = len(fields) // the rowtime passed through stays a time attribute
		}
		name := item.Alias
		if name == "" {
			if c, ok := item.Expr.(*sql.ColumnRef); ok {
				name = c.Name
			} else if name = fieldAlias(item.Expr); name == "" {
				name = fmt.Sprintf("EXPR$%d", i)
			}
		}
		add(name, e)
	}
	p.Project.Schema = arrow.NewSchema(fields, nil)
	return p, nil
}

// plainReads are the expressions a plain SELECT reads the table with,
// so the source may skip making what none reads (a generator's columns and
// ROW fields): the select list, but for the items of a view the query
// reading it does not name, WHERE and ORDER BY. Not with *, which reads
// every column, nor over a subquery.
func (s *selectPlanner) plainReads() ([]sql.Expr, bool) {
	if s.input != nil || hasStar(s.stmt) {
		return nil, false
	}
	unread := s.unreadItems
	if len(unread) != len(s.stmt.Items) {
		unread = nil
	}
	var reads []sql.Expr
	for i, it := range s.stmt.Items {
		if it.Expr != nil && (unread == nil || !unread[i]) {
			reads = append(reads, it.Expr)
		}
	}
	for _, o := range s.stmt.OrderBy {
		if o.Expr != nil {
			reads = append(reads, o.Expr)
		}
	}
	if s.stmt.Where != nil {
		reads = append(reads, s.stmt.Where)
	}
	return reads, true
}

// plainJob lowers a plain SELECT: no window stage.
func (p *Plan) plainJob() (*exec.Job, error) {
	job := &exec.Job{Source: p.Source, Computed: p.Computed, RowtimeIndex: -1, Where: p.Where, Project: p.Project, Clock: p.Clock}
	if p.Lateral != nil {
		job.Lateral = &p.Lateral.Spec
	}
	if p.Input != nil {
		return job, p.attachInput(job)
	}
	p.setWatermark(job)
	return job, nil
}
