package planner

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expand"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/setop"
	"github.com/wsql/wsql/rowtime"
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
	Source    exec.Source
	Computed  *exec.ComputedSpec // nil when the query reads no computed column
	Stream    *arrow.Schema      // schema after the computed columns
	Rowtime   int                // index of the time attribute in Stream
	GapIndex  int                // Stream index of a dynamic session gap in ms; -1 if none
	Proctime  bool               // the window's time attribute is PROCTIME()
	Watermark *catalog.Watermark
	Window    Window
	// ByTVF: the window is a window table function's, FROM TABLE(TUMBLE(...)),
	// not a group window of GROUP BY TUMBLE(...).
	ByTVF bool
	// Attached: the windows come with the input rows' window_start and
	// window_end (attached_window.go); nil when they are assigned here.
	Attached *AttachedWindow
	Keys     []int // Stream indexes of the group keys
	Aggs     []Aggregate
	Where    expr.Expr // filter before the window; nil for none
	// WatermarkExpr is a general WATERMARK expression over the stream (nil
	// for the bounded `ts - INTERVAL` form, which needs no evaluation).
	WatermarkExpr expr.Expr
	// PreWindow computes aggregate arguments that are expressions, after
	// WHERE; Stream then includes its columns. Nil when there are none.
	PreWindow *exec.ComputedSpec
	// Expand replicates each row once per grouping set before the
	// aggregation (grouping_sets.go); Stream and Keys are then its.
	Expand *expand.Spec
	Having expr.Expr // filter on the window's results; nil for none
	Plain  bool      // a SELECT without window: filter and project only
	// Group is a GROUP BY without a window (or aggregates without GROUP
	// BY): a GroupAggregate whose results are an update stream.
	Group bool
	// Retract: the GroupAggregate reads an update stream, folding +I and
	// +U rows in and taking -U and -D rows out.
	Retract bool
	// Rank ranks the result rows (Top-N, deduplication); its output is
	// the plan's. Nil for none.
	Rank *rankop.Config
	// SetOp runs INTERSECT or EXCEPT over the rows of the plan's union
	// (set_operation.go); its output is the plan's. Nil for none.
	SetOp   *setop.Config
	Project exec.ProjectSpec
	Emit    Emit
	Clock   rowtime.Clock
	Sink    *Sink // set for INSERT INTO; nil for a SELECT

	// PostWindow decodes nested grouping keys from the window's output
	// (their encoding) before HAVING and Project; nil when none is nested.
	PostWindow *exec.ProjectSpec
	// Input is the plan of the subquery or view the query reads (Source is
	// then nil); TimeAttr is the output column that stays a time attribute
	// for an outer query (-1 if none).
	Input    *Plan
	TimeAttr int
	Notices  []Notice
	// Order is ORDER BY a time attribute and LIMIT (order_limit.go); nil
	// for none.
	Order *Ordering
	// Union is set for UNION ALL (union.go): the plans of its queries, of
	// one schema, read instead of Source or Input.
	Union []*Plan
	// Join joins the rows of Union's two plans (join.go); nil for none.
	Join *JoinPlan
	// Lookup, when set, joins the Input's rows with a table of files
	// (lookup_join.go).
	Lookup *LookupPlan
	// Over is an OVER aggregation of Input's rows (over.go); nil for none.
	Over *OverPlan
	// TVF replicates the projected rows per window (a window table
	// function without aggregation, window_tvf.go); nil for none.
	TVF *WindowTVF
	// Lateral expands each row of Input by UNNEST or a table function
	// before Where (lateral.go); nil for none.
	Lateral *LateralPlan
}

// Aggregate is one aggregate call of the select list.
type Aggregate struct {
	Spec windowop.AggSpec
	Text string // as written, for EXPLAIN
	Type arrow.DataType
}

// Schema is the schema of the query's result rows.
func (p *Plan) Schema() *arrow.Schema {
	if p.SetOp != nil {
		if s, err := p.SetOp.OutputSchema(); err == nil {
			return s
		}
	}
	if p.Rank != nil {
		if s, err := p.Rank.OutputSchema(); err == nil {
			return s
		}
	}
	if p.TVF != nil {
		if s, err := p.TVF.Config.OutputSchema(); err == nil {
			return s
		}
	}
	return p.Project.Schema
}

// Job lowers the plan into an executable job, or says with a position
// which part wsql cannot run yet.
func (p *Plan) Job() (*exec.Job, error) {
	job, err := p.job()
	if err != nil {
		return nil, err
	}
	if p.Rank != nil {
		job.Rank = p.Rank
	}
	job.SetOp = p.SetOp
	if p.TVF != nil {
		job.WindowTVF = &p.TVF.Config
	}
	job.Order = p.orderSpec()
	return job, nil
}

func (p *Plan) job() (*exec.Job, error) {
	if p.Lookup != nil {
		return p.lookupJob()
	}
	if p.Join != nil {
		return p.joinJob()
	}
	if p.Union != nil {
		return p.unionJob()
	}
	if p.Plain {
		return p.plainJob()
	}
	if p.Over != nil {
		return p.overJob()
	}
	if p.Window.Kind == sql.CountWindow {
		return p.countJob()
	}
	if p.Group {
		return p.groupJob()
	}
	w := p.Window
	var assigner windowop.Assigner
	var err error
	switch {
	case p.Attached != nil:
		assigner, err = attachedAssigner(w)
	case w.Kind == sql.Tumble:
		assigner, err = windowop.NewTumble(w.Size, w.Offset)
	case w.Kind == sql.Hop:
		assigner, err = windowop.NewHop(w.Slide, w.Size, w.Offset)
	case w.Kind == sql.Cumulate:
		assigner, err = windowop.NewCumulate(w.Step, w.Size, w.Offset)
	case w.Kind == sql.Session:
		if p.GapIndex >= 0 {
			assigner = windowop.NewDynamicSession()
		} else {
			assigner, err = windowop.NewSession(w.Gap)
		}
	}
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, w.At, "%v", err)
	}
	cfg := p.windowConfig()
	cfg.Assigner = assigner
	if err := p.checkEmit(cfg); err != nil {
		return nil, err
	}
	job := &exec.Job{
		Source:       p.Source,
		Computed:     p.Computed,
		RowtimeIndex: p.Rowtime,
		Where:        p.Where,
		PreWindow:    p.PreWindow,
		Expand:       p.Expand,
		PostWindow:   p.PostWindow,
		Having:       p.Having,
		Window:       &cfg,
		Project:      p.Project,
		LateDataPath: p.Emit.LateDataPath,
		Clock:        p.Clock,
	}
	if p.Input != nil {
		return job, p.attachInput(job)
	}
	job.RowtimeIndex = -1 // processing time needs no watermarks
	if !p.Proctime {
		p.setWatermark(job)
	}
	return job, nil
}

// setWatermark gives a job over a stored table its watermark: the bounded
// delay Flink users write, or a general expression compiled at planning.
func (p *Plan) setWatermark(job *exec.Job) {
	if p.Watermark == nil {
		return
	}
	job.RowtimeIndex = p.Rowtime
	if p.Watermark.Source {
		job.SourceWatermarks = true
		return
	}
	if p.WatermarkExpr != nil {
		job.WatermarkExpr = p.WatermarkExpr
		return
	}
	job.DelayMillis = p.Watermark.DelayMillis
}

// attachInput makes job read the rows of the subquery's job; the
// watermarks come from there, so the job generates none.
func (p *Plan) attachInput(job *exec.Job) error {
	inner, err := p.Input.Job()
	if err != nil {
		return err
	}
	job.Input, job.Source, job.Computed, job.RowtimeIndex = inner, nil, nil, -1
	if p.Input.hasWindow() {
		job.LateDataPath = "" // the late rows file is the inner window's
	}
	return nil
}

// countJob lowers a COUNT_WINDOW plan. Watermarks of the table still flow
// (and are forwarded), but count windows never wait for them.
func (p *Plan) countJob() (*exec.Job, error) {
	if p.Emit.Strategy != (windowop.EmitStrategy{}) {
		return nil, sql.Errorf(sql.ErrUnsupported, p.Window.At, "table.exec.emit.* options do not apply to COUNT_WINDOW, which emits as each window fills")
	}
	cfg := p.countConfig()
	job := &exec.Job{Source: p.Source, Computed: p.Computed, RowtimeIndex: -1, Where: p.Where, PreWindow: p.PreWindow, Expand: p.Expand, PostWindow: p.PostWindow, Having: p.Having, Count: &cfg, Project: p.Project, Clock: p.Clock}
	if p.Input != nil {
		return job, p.attachInput(job)
	}
	p.setWatermark(job)
	return job, nil
}

// groupJob lowers a GROUP BY without a window. Watermarks of the table
// still flow (and are forwarded); the aggregation never waits for them.
func (p *Plan) groupJob() (*exec.Job, error) {
	cfg := p.groupConfig()
	job := &exec.Job{Source: p.Source, Computed: p.Computed, RowtimeIndex: -1, Where: p.Where, PreWindow: p.PreWindow, Expand: p.Expand, PostWindow: p.PostWindow, Having: p.Having, Group: &cfg, Project: p.Project, Clock: p.Clock}
	if p.Input != nil {
		return job, p.attachInput(job)
	}
	p.setWatermark(job)
	return job, nil
}

// groupConfig is the GroupAggregate operator's configuration.
func (p *Plan) groupConfig() windowop.GroupConfig {
	cfg := windowop.GroupConfig{Input: p.Stream, KeyIndexes: p.Keys, Retract: p.Retract}
	for _, a := range p.Aggs {
		cfg.Aggs = append(cfg.Aggs, a.Spec)
	}
	return cfg
}

// countConfig is the COUNT_WINDOW operator's configuration.
func (p *Plan) countConfig() windowop.CountConfig {
	cfg := windowop.CountConfig{Input: p.Stream, KeyIndexes: p.Keys, Size: p.Window.Size, Slide: p.Window.Slide}
	for _, a := range p.Aggs {
		cfg.Aggs = append(cfg.Aggs, a.Spec)
	}
	return cfg
}

// checkEmit turns the operator's refusals of emit options into positioned
// errors.
func (p *Plan) checkEmit(cfg windowop.Config) error {
	e := cfg.Emit
	if p.Proctime && (e.EarlyFire || e.LateFire) {
		return sql.Errorf(sql.ErrUnsupported, p.Window.At, "early and late firing apply to event-time windows, not processing time")
	}
	return nil
}

// windowConfig is the operator configuration without the assigner (for a
// time window; COUNT_WINDOW uses countConfig).
func (p *Plan) windowConfig() windowop.Config {
	cfg := windowop.Config{
		Input:        p.Stream,
		RowtimeIndex: p.Rowtime,
		KeyIndexes:   p.Keys,
		GapIndex:     p.GapIndex,
		Emit:         p.Emit.Strategy,
		Clock:        p.Clock,
	}
	if cfg.Clock == nil {
		cfg.Clock = rowtime.SystemClock{}
	}
	if p.Emit.Strategy.LateFire {
		cfg.AllowedLateness = p.Emit.AllowedLateness
	}
	if p.Proctime {
		cfg.ProcTime = true
		cfg.Emit, cfg.AllowedLateness = windowop.EmitStrategy{}, 0
		if !isUTC(p.Location) {
			cfg.Local = rowtime.NewLocalTime(p.Location)
		}
	} else if p.Rowtime < 0 {
		// COUNT_WINDOW without a rowtime: no time zone to align in
	} else if ts, ok := p.Stream.Field(p.Rowtime).Type.(*arrow.TimestampType); ok && ts.TimeZone != "" && !isUTC(p.Location) {
		// a TIMESTAMP_LTZ rowtime is windowed in the session time zone
		cfg.Local = rowtime.NewLocalTime(p.Location)
	}
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
