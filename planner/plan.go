package planner

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Plan is a planned windowed aggregation: everything EXPLAIN shows and what
// Job lowers into running operators. It is immutable.
//
//	source ─▶ [computed columns] ─▶ watermark assigner ─▶ window aggregate ─▶ project
type Plan struct {
	Location  *time.Location // the session time zone windows over TIMESTAMP_LTZ align in
	Table     *catalog.Table
	Source    *exec.FileSource
	Computed  *exec.ComputedSpec // nil when the query reads no computed column
	Stream    *arrow.Schema      // schema after the computed columns
	Rowtime   int                // index of the time attribute in Stream
	Proctime  bool               // the window's time attribute is PROCTIME()
	Watermark *catalog.Watermark
	Window    Window
	Keys      []int // Stream indexes of the group keys
	Aggs      []Aggregate
	Project   exec.ProjectSpec
	Sink      *Sink // set for INSERT INTO; nil for a SELECT
	Notices   []Notice
}

// Aggregate is one aggregate call of the select list.
type Aggregate struct {
	Spec windowop.AggSpec
	Text string // as written, for EXPLAIN
	Type arrow.DataType
}

// Schema is the schema of the query's result rows.
func (p *Plan) Schema() *arrow.Schema { return p.Project.Schema }

// Job lowers the plan into an executable job, or says with a position
// which part wsql cannot run yet.
func (p *Plan) Job() (*exec.Job, error) {
	if p.Proctime {
		return nil, sql.Errorf(sql.ErrUnsupported, p.Window.At, "processing-time windows are not supported yet: declare a WATERMARK and window by the event-time column")
	}
	if p.Window.Kind != sql.Tumble {
		return nil, sql.Errorf(sql.ErrUnsupported, p.Window.At, "%s windows are not supported yet (supported: TUMBLE)", p.Window.Kind)
	}
	if !p.Watermark.Bounded {
		return nil, sql.Errorf(sql.ErrUnsupported, p.Watermark.Expr.Pos(),
			"watermark expression not supported yet: write `%s` or `%s - INTERVAL '<n>' <unit>`", p.Watermark.Column, p.Watermark.Column)
	}
	if ts, ok := p.Stream.Field(p.Rowtime).Type.(*arrow.TimestampType); ok && ts.TimeZone != "" && !isUTC(p.Location) {
		return nil, sql.Errorf(sql.ErrUnsupported, p.Window.At,
			"windows over TIMESTAMP_LTZ align in 'table.local-time-zone' (%s), which is not supported yet; SET 'table.local-time-zone' = 'UTC' to window in UTC", p.Location)
	}
	tumble, err := windowop.NewTumble(p.Window.Size, p.Window.Offset)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, p.Window.At, "%v", err)
	}
	cfg := p.windowConfig()
	cfg.Assigner = tumble
	return &exec.Job{
		Source:       p.Source,
		Computed:     p.Computed,
		RowtimeIndex: p.Rowtime,
		DelayMillis:  p.Watermark.DelayMillis,
		Window:       cfg,
		Project:      p.Project,
	}, nil
}

func (p *Plan) windowConfig() windowop.Config {
	cfg := windowop.Config{Input: p.Stream, RowtimeIndex: p.Rowtime, KeyIndexes: p.Keys}
	for _, a := range p.Aggs {
		cfg.Aggs = append(cfg.Aggs, a.Spec)
	}
	return cfg
}

// isUTC reports whether loc never differs from UTC (nil is UTC).
func isUTC(loc *time.Location) bool {
	if loc == nil || loc == time.UTC {
		return true
	}
	for _, month := range []time.Month{time.January, time.July} {
		if _, off := time.Date(2024, month, 1, 0, 0, 0, 0, loc).Zone(); off != 0 {
			return false
		}
	}
	return true
}
