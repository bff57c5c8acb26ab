package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expand"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/exec/lateral"
	"github.com/wsql/wsql/exec/overop"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/exec/setop"
	"github.com/wsql/wsql/exec/windowtvf"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/internal/startgc"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Job is a planned streaming query: a source, the computed columns it
// needs, its rowtime and watermark, a window aggregation and the projection
// to the SELECT list. It is immutable; Run builds the running operators.
//
//	source ─▶ [computed columns] ─▶ watermark assigner ─▶ window ─▶ project ─▶ writer
type Job struct {
	Source       Source
	Computed     *ComputedSpec // nil when no computed column is read
	RowtimeIndex int           // column with event time, after computed columns
	DelayMillis  int64         // watermark delay, per split
	// WatermarkExpr, when set, is a general WATERMARK expression evaluated
	// per row (DelayMillis is then 0).
	WatermarkExpr expr.Expr
	// SourceWatermarks is set for SOURCE_WATERMARK(): the source supplies
	// the watermarks (a table pushed from Go) and rows do not move them.
	SourceWatermarks bool
	// Where filters rows after the watermark assigner (rows it drops still
	// advanced the watermark); nil keeps every row.
	Where expr.Expr
	// PreWindow appends computed columns (aggregate arguments that are
	// expressions) after Where, before the window; nil for none.
	PreWindow *ComputedSpec
	// Lateral expands each row by UNNEST or a table function before Where
	// (exec/lateral); nil for none.
	Lateral *lateral.Spec
	// Expand replicates each row once per grouping set after PreWindow
	// (GROUPING SETS, ROLLUP, CUBE); nil for none.
	Expand *expand.Spec
	// Window is the window aggregation; Count a COUNT_WINDOW instead; both
	// nil for a plain streaming SELECT (filter and project only).
	Window *windowop.Config
	Count  *windowop.CountConfig
	// Group is a GROUP BY without a window (an update stream) instead.
	Group *windowop.GroupConfig
	// Over is an OVER aggregation instead (over_stage.go).
	Over *overop.Config
	// PostWindow reads the window operator's result rows before Having and
	// Project (the values of nested grouping keys, which the window keys
	// by their encoding); nil for none.
	PostWindow *ProjectSpec
	// Having filters the window operator's result rows; nil keeps all.
	Having  expr.Expr
	Project ProjectSpec
	// Rank, when set, ranks the projected rows (Top-N, deduplication);
	// its output is the job's.
	Rank *rankop.Config
	// SetOp, when set, runs INTERSECT or EXCEPT over the projected rows
	// (both queries' rows, tagged by side); its output is the job's.
	SetOp *setop.Config
	// Input, when set, replaces Source: the job reads the result rows of
	// another job (a subquery or view), and its watermarks come from there.
	Input *Job
	// Union, when set, replaces Source: the job reads the rows of several
	// jobs of one schema, UNION ALL (union.go).
	Union []*Job
	// Join, when set, joins the rows of Union's two jobs (join_stage.go):
	// the job reads the join's rows.
	Join *joinop.Config
	// SharesWindowOf, in a query of a timed union, is a job of an earlier
	// query computing the same rows up to its window: this job reads that
	// window's rows and runs nothing below them (shared_subplan.go).
	SharesWindowOf *Job
	// Lookup, when set, joins the job's rows with a table of files where
	// the window would be (lookup_stage.go).
	Lookup *LookupJoin
	// Clock judges split idleness (Source.IdleTimeout); nil is the system
	// clock. Tests inject a rowtime.ManualClock.
	Clock rowtime.Clock
	// Progress, if set, is called with a snapshot of the run every
	// ProgressEvery (default 250 ms), waiting reads too: for a status line.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// LateDataPath, if set, is a CSV file that receives every row that
	// missed a window, with the window and the watermark at its arrival.
	LateDataPath string
	// Parallelism is how many goroutines run the window aggregation, each
	// over the group keys that hash to it (see partitionedWindow); 0 or 1
	// is one. A window without group keys, over processing time, or with a
	// late-data file runs on one.
	Parallelism int
	// MaxStateBytes is 'wsql.state.max-bytes': the window aggregation stops
	// with windowop.ErrStateLimit when its state outgrows it (split evenly
	// over the partitions of a parallel one); 0 is no limit.
	MaxStateBytes int64
	// StateTTL is 'table.exec.state.ttl' in milliseconds: the state of a
	// key of a GROUP BY without a window, a Top-N or a deduplication goes
	// once no row has changed it for that long; 0 keeps it.
	StateTTL int64
	// SpillAfter is 'wsql.state.spill-after': the bytes of rows the job's
	// regular joins keep in memory, together, before they write the oldest
	// to a file in SpillDir (os.TempDir() when empty); 0 never spills.
	SpillAfter int64
	SpillDir   string
	// Checkpoint, when set on the outermost job, makes the run take
	// checkpoints and, with Checkpoint.Restore, continue from one.
	Checkpoint *Checkpointing
	// Order sorts and limits the result rows after Project; nil for none.
	Order *OrderSpec
	// WindowTVF replicates the projected rows once per window and appends
	// the window columns (a window table function without aggregation);
	// nil for none.
	WindowTVF *windowtvf.Config
}

// Schema returns the schema of the job's result rows.
func (j *Job) Schema() *arrow.Schema {
	if j.SetOp != nil {
		if s, err := j.SetOp.OutputSchema(); err == nil {
			return s
		}
	}
	if j.Rank != nil {
		if s, err := j.Rank.OutputSchema(); err == nil {
			return s
		}
	}
	if j.WindowTVF != nil {
		if s, err := j.WindowTVF.OutputSchema(); err == nil {
			return s
		}
	}
	return j.Project.Schema
}

// Stats is the run summary of a job. Its counters have the names of
// wsql.Summary's, which are the names at every layer.
type Stats struct {
	RowsRead        int64
	BadRowsSkipped  int64
	LateRowsDropped int64 // rows that reached no window because each was late
	LateForWindow   int64 // (row, window) pairs a row missed while counting elsewhere
	NoWindowRows    int64 // rows in no window (HOP gaps, COUNT windows that never filled)
	ResultRows      int64
	Watermark       int64 // the last watermark generated from the input
	Elapsed         time.Duration
	// FilesRotated and FilesTruncated count followed files found replaced
	// under their name or cut shorter (see exec/connector/textsource, follow.go).
	FilesRotated, FilesTruncated int64
	// UnfilledCountRows is the part of NoWindowRows in COUNT windows that
	// never filled; Lateness says how late the LateRowsDropped rows were.
	UnfilledCountRows int64
	Lateness          windowop.Lateness
	StateExpired      int64 // keys whose state StateTTL dropped
	StateSpilled      int64 // bytes of kept rows written to spill files
	// LookupHits and LookupMisses count the probe rows of lookup joins
	// whose key the cache held, and those whose key was fetched.
	LookupHits, LookupMisses int64
}

// Run executes the job, writing result batches to w as windows fire. It
// returns when the input ends, an error occurs or ctx is cancelled; the
// stats are filled in all three cases. A panic in the pipeline ends the
// run with a *pipeline.PanicError once the pipeline is closed.
func (j *Job) Run(ctx context.Context, mem memory.Allocator, w writer.ResultWriter) (stats Stats, err error) {
	defer reportEnd(j.Progress, &err) // after the panic is an error
	defer pipeline.CatchPanic(&err)
	return j.run(ctx, mem, w)
}

func (j *Job) run(ctx context.Context, mem memory.Allocator, w writer.ResultWriter) (stats Stats, err error) {
	startgc.Restore() // the process's start is over (internal/startgc)
	start := time.Now()
	sink := NewWriterSink(w)
	cp := j.Checkpoint
	var at *checkpoint.Decoder // where the source resumes
	if cp != nil {
		if err := j.checkpointable(); err != nil {
			return stats, err
		}
		if cp.Restore != nil {
			at = checkpoint.NewDecoder(cp.Restore.Parts["source"])
		}
	}
	// the rows the job's operators keep share one budget, their stores
	// made with this allocator (the jobs it is made of are built with it)
	budget := rowstore.NewBudget(j.SpillAfter, j.SpillDir)
	out := recycle.NewRun(mem) // closed after the chain, deferred below
	defer out.Close()
	mem = rowstore.WithBudget(out, budget)
	defer func() {
		stats.StateSpilled = budget.SpilledBytes()
		if cerr := budget.Close(); err == nil {
			err = cerr
		}
	}()
	p, err := j.build(mem, sink, at)
	if err != nil {
		return stats, err
	}
	defer p.close()
	p.feedLimits(j)
	var ckp *checkpointer
	var afterStep func() error
	if cp != nil {
		if _, ok := p.reader.(StateReader); !ok {
			return stats, fmt.Errorf("%w: the source cannot report its position", ErrCheckpointUnsupported)
		}
		ckp = newCheckpointer(cp, p, sink, w)
		if cp.Restore != nil {
			if err := ckp.restore(cp.Restore); err != nil {
				return stats, err
			}
		}
		afterStep = func() error { return ckp.afterStep(ctx) }
	}

	var afterBatch func()
	if j.Progress != nil {
		// progress is reported on wall-clock time; it never changes results
		every, last := j.ProgressEvery, time.Now()
		if every <= 0 {
			every = 250 * time.Millisecond
		}
		afterBatch = func() {
			if now := time.Now(); now.Sub(last) >= every {
				last = now
				j.Progress(p.progress(start, sink, ckp, budget))
			}
		}
	}
	if u := unionOf(p.reader); u != nil {
		u.afterBatch = afterBatch // the union's batches go through its queries' pipelines
	}
	err = p.drive(ctx, afterBatch, afterStep) // order_limit.go: LIMIT ends the run
	if ckp != nil {
		var stopped errStopped
		switch {
		case err == nil:
			err = ckp.take(true) // commits the rest of the output
		case errors.As(err, &stopped):
			// stopped between steps: keep what was done
			if cerr := ckp.take(false); cerr != nil {
				err = cerr
			}
		}
	}
	src := p.sourceStats()
	innermost := p.windows[len(p.windows)-1].stats()
	if err != nil && ctx.Err() == nil && innermost.RowsIn < src.Rows && unionOf(p.reader) == nil {
		// A run that failed counts the rows processed before the failure,
		// which does not depend on how the input was cut into batches. A
		// stopped run (ctx cancelled: an interrupt) counts what the source
		// read, like the status line: the innermost stage sees only the
		// rows a WHERE passed. A union counts what its queries' sources
		// read: its innermost stage is one query's.
		src.Rows = innermost.RowsIn
	}
	stats = Stats{
		RowsRead:       src.Rows,
		BadRowsSkipped: src.Skipped,
		ResultRows:     sink.Rows(),
		Watermark:      rowtime.MinWatermark,
		Elapsed:        time.Since(start),
		FilesRotated:   src.Rotated,
		FilesTruncated: src.Truncated,
	}
	for _, ws := range p.windows {
		st := ws.stats()
		stats.LateRowsDropped += st.LateRowsDropped
		stats.LateForWindow += st.LateForWindow
		stats.NoWindowRows += st.NoWindowRows + st.UnfilledCountRows
		stats.UnfilledCountRows += st.UnfilledCountRows
		stats.StateExpired += st.StateExpired
		stats.LookupHits += st.LookupHits
		stats.LookupMisses += st.LookupMisses
		stats.Lateness.Merge(&st.Lateness)
	}
	if p.assigner != nil {
		stats.Watermark = p.assigner.Watermark()
	}
	return stats, err
}

// chain is a job's running chain: the reader of the innermost job's
// source and the stages its batches flow through.
type chain struct {
	reader   BatchReader
	first    pipeline.Operator // where the reader's batches go
	assigner *WatermarkAssigner
	computed *ComputedColumns
	windows  []windowStage // every window stage, outermost first
	feed     *limitFeed    // before first when a LIMIT cuts the batches (order_limit.go)
}

// build creates the job's operators, sending results to next. A job over a
// subquery (Input) builds the inner job with this job's first stage as its
// sink: inner results reach the outer window before the watermark that
// produced them, which is what makes cascaded windows work.
//
// at, when set, is where a restored run's source resumes (the source
// state of a checkpoint).
func (j *Job) build(mem memory.Allocator, next pipeline.Operator, at *checkpoint.Decoder) (*chain, error) {
	return j.buildOn(mem, next, at, nil)
}

// buildOn is build; with shared set, the innermost job reads shared's
// reader instead of opening its source (a statement set, set_job.go).
func (j *Job) buildOn(mem memory.Allocator, next pipeline.Operator, at *checkpoint.Decoder, shared *sharedRead) (*chain, error) {
	return j.buildWith(mem, next, at, shared, nil)
}

// buildWith is buildOn within a union whose queries share the window
// output of some of their jobs (reuse, shared_subplan.go): a job that
// reads another's window builds only what reads the window's rows, fed
// by the other's tee, and its chain has no reader.
func (j *Job) buildWith(mem memory.Allocator, next pipeline.Operator, at *checkpoint.Decoder, shared *sharedRead, reuse *subplanReuse) (*chain, error) {
	if p := reuse.producer(j); p != nil {
		windowOut, err := j.windowOutputSchema()
		if err != nil {
			return nil, err
		}
		post, err := j.postWindowChain(mem, next, windowOut)
		if err != nil {
			return nil, err
		}
		tee := reuse.tee(p)
		tee.outs = append(tee.outs, post)
		return &chain{}, nil
	}
	var window windowStage
	var err error
	if tee := reuse.tee(j); tee != nil {
		window, err = j.teedAggregateStage(mem, next, at != nil, tee)
	} else {
		window, err = j.orderedWindowStage(mem, next, at != nil)
	}
	if err != nil {
		return nil, err
	}
	var first pipeline.Operator = window
	if j.Expand != nil {
		if first, err = expand.New(*j.Expand, mem, first); err != nil {
			window.Close()
			return nil, err
		}
	}
	if j.PreWindow != nil {
		first = NewComputedColumns(*j.PreWindow, mem, first)
	}
	if j.Where != nil {
		if first, err = NewFilter(j.Where, mem, first); err != nil {
			window.Close()
			return nil, err
		}
	}
	if j.Lateral != nil {
		if first, err = lateral.New(*j.Lateral, mem, first); err != nil {
			window.Close()
			return nil, err
		}
	}
	if j.Input != nil || j.Union != nil {
		var p *chain
		if j.Union != nil && shared == nil {
			p, err = j.buildUnion(mem, first, at)
		} else if j.Union != nil {
			err = fmt.Errorf("%w: a UNION ALL in a statement set", ErrSource)
		} else {
			p, err = j.Input.buildWith(mem, first, at, shared, reuse)
		}
		if err != nil {
			window.Close()
			return nil, err
		}
		p.windows = append([]windowStage{window}, p.windows...)
		return p, nil
	}
	var reader BatchReader
	if shared != nil {
		reader = shared.reader
	} else if reader, err = j.Source.Open(mem, at); err != nil {
		window.Close()
		return nil, err
	}
	p := &chain{reader: reader, windows: []windowStage{window}}
	// Processing-time windows (RowtimeIndex < 0) need no watermarks.
	if j.RowtimeIndex >= 0 {
		wm := rowtime.NewCombinedWatermark(reader.NumSplits(), j.DelayMillis, j.Source.Spec().IdleTimeout, j.Clock)
		p.assigner = NewWatermarkAssigner(j.RowtimeIndex, wm, first)
		if j.WatermarkExpr != nil {
			p.assigner.SetExpression(j.WatermarkExpr, mem)
		}
		if j.SourceWatermarks {
			p.assigner.UseSourceWatermarks()
		}
		// Rows outside the event times wsql accepts are bad rows in every
		// source; 'scan.watermark.max-future' bounds rows further.
		spec := MaxFuture{Table: j.Source.Spec().Table}
		if mf := j.Source.Spec().MaxFuture; mf != nil && !j.SourceWatermarks {
			spec = *mf
		}
		src, badRows := j.Source.Spec(), reader
		if shared != nil && !shared.first {
			// the first pipeline of a shared read writes its bad rows
			quiet := *src
			quiet.BadRowsPath, src, badRows = "", &quiet, sharedReader{reader}
		}
		if p.assigner.future, err = newFutureFilter(spec, src, badRows, mem); err != nil {
			p.close()
			return nil, err
		}
		first = p.assigner
	}
	if j.Computed != nil {
		p.computed = NewComputedColumns(*j.Computed, mem, first)
		first = p.computed
	}
	p.first = first
	return p, nil
}

// sourceStats is what the chain's source read, less the rows its computed
// columns and watermark assigner refused, which are bad rows too.
func (p *chain) sourceStats() SourceStats {
	src := p.reader.Stats()
	src.Rows -= p.unreadRows()
	if p.computed != nil {
		// Rows the computed columns passed on: a batch cut short by a bad
		// row counts only the rows before it, whatever the batch size.
		src.Skipped += p.computed.Skipped()
		src.Rows = p.computed.Passed() + src.Stepped
	}
	if p.assigner != nil {
		// rows outside the event-time range or beyond
		// 'scan.watermark.max-future' are bad rows too
		skipped := p.assigner.FutureSkipped()
		src.Skipped += skipped
		src.Rows -= skipped
	}
	return src
}

func (p *chain) close() {
	if p.assigner != nil {
		p.assigner.Close()
	}
	p.reader.Close()
	for _, w := range p.windows {
		w.Close()
	}
}

// windowStage is the running window operator of a job: time windows or
// count windows, with the stats the summary needs.
type windowStage interface {
	pipeline.Operator
	stats() windowop.Stats
}

type timeWindowStage struct {
	*windowop.WindowOperator
	late *lateFile
}

func (s timeWindowStage) stats() windowop.Stats { return s.Stats() }

func (s timeWindowStage) Close() {
	s.WindowOperator.Close()
	if s.late != nil {
		s.late.close()
	}
}

type countWindowStage struct{ *windowop.CountWindowOperator }

// stats reports the rows of count windows that never filled: they reached
// no result, and the summary counts them with the rows in no window.
func (s countWindowStage) stats() windowop.Stats {
	c := s.Stats()
	return windowop.Stats{RowsIn: c.RowsIn, ResultRows: c.ResultRows, UnfilledCountRows: c.NoWindowRows}
}

// rankStage is a window stage followed by a rank (exec/rankop).
type rankStage struct {
	windowStage
	rank rankop.Operator
}

func (s rankStage) stats() windowop.Stats {
	st := s.windowStage.stats()
	rs := s.rank.Stats()
	st.LateRowsDropped += rs.LateRowsDropped
	st.Lateness.Merge(&rs.Lateness)
	st.StateExpired += rs.StateExpired
	return st
}

func (s rankStage) Close() {
	s.windowStage.Close()
	s.rank.Close()
}

type groupStage struct{ *windowop.GroupOperator }

func (s groupStage) stats() windowop.Stats {
	g := s.Stats()
	return windowop.Stats{RowsIn: g.RowsIn, ResultRows: g.ResultRows, StateExpired: g.StateExpired}
}

// windowStage builds the window operator (or, for a plain SELECT, a
// pass-through), the HAVING filter and the projection after it.
// A restored run (restoring) keeps the late-data file, which the restore
// cuts back to its length at the checkpoint.
func (j *Job) windowStage(mem memory.Allocator, sink pipeline.Operator, restoring bool) (windowStage, error) {
	if j.Expand != nil {
		return j.expandedStage(mem, sink, restoring) // expand_stage.go
	}
	if j.WindowTVF != nil {
		// stateless, holding no Arrow memory between calls: nothing to close
		tvf, err := windowtvf.New(*j.WindowTVF, mem, sink)
		if err != nil {
			return nil, err
		}
		sink = tvf
	}
	if j.SetOp != nil {
		return j.setOpStage(mem, sink, restoring)
	}
	if j.Rank == nil {
		return j.aggregateStage(mem, sink, restoring)
	}
	rc := *j.Rank
	rc.StateTTL, rc.Clock = j.StateTTL, j.Clock
	rank, err := rankop.New(rc, mem, sink)
	if err != nil {
		return nil, err
	}
	inner, err := j.aggregateStage(mem, rank, restoring)
	if err != nil {
		rank.Close()
		return nil, err
	}
	return rankStage{windowStage: inner, rank: rank}, nil
}

// aggregateStage builds the window stage without the rank.
func (j *Job) aggregateStage(mem memory.Allocator, sink pipeline.Operator, restoring bool) (windowStage, error) {
	windowOut, err := j.windowOutputSchema()
	if err != nil {
		return nil, err
	}
	next, err := j.postWindowChain(mem, sink, windowOut)
	if err != nil {
		return nil, err
	}
	return j.aggregateOperator(mem, next, restoring)
}

// teedAggregateStage is aggregateStage for a window whose output other
// queries read too (shared_subplan.go): the window feeds tee, whose
// first output is j's own PostWindow, Having and Project.
func (j *Job) teedAggregateStage(mem memory.Allocator, sink pipeline.Operator, restoring bool, tee *subplanTee) (windowStage, error) {
	windowOut, err := j.windowOutputSchema()
	if err != nil {
		return nil, err
	}
	post, err := j.postWindowChain(mem, sink, windowOut)
	if err != nil {
		return nil, err
	}
	tee.outs = append([]pipeline.Operator{post}, tee.outs...)
	return j.aggregateOperator(mem, tee, restoring)
}

// windowOutputSchema is the schema of the window operator's result rows
// (of the rows entering the job, for a plain SELECT).
func (j *Job) windowOutputSchema() (*arrow.Schema, error) {
	switch {
	case j.Count != nil:
		return j.Count.OutputSchema()
	case j.Group != nil:
		return j.Group.OutputSchema()
	case j.Over != nil:
		return j.Over.OutputSchema()
	case j.Lookup != nil:
		return j.Lookup.Config.OutputSchema()
	case j.Window != nil:
		return j.Window.OutputSchema()
	case j.PreWindow != nil: // a plain job's (the first stage of a scaled-out query)
		return j.PreWindow.Schema, nil
	}
	return j.inputSchema(), nil
}

// postWindowChain builds what reads the window operator's result rows
// (windowOut) on their way to sink: PostWindow, Having and Project. It
// returns the chain's first stage.
func (j *Job) postWindowChain(mem memory.Allocator, sink pipeline.Operator, windowOut *arrow.Schema) (pipeline.Operator, error) {
	schema := windowOut
	if j.PostWindow != nil {
		schema = j.PostWindow.Schema
	}
	project, err := NewProject(j.Project, schema, mem, sink)
	if err != nil {
		return nil, err
	}
	var next pipeline.Operator = project
	if j.Having != nil {
		if next, err = NewFilter(j.Having, mem, project); err != nil {
			return nil, err
		}
	}
	if j.PostWindow != nil {
		if next, err = NewProject(*j.PostWindow, windowOut, mem, next); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// aggregateOperator builds the window operator (or, for a plain SELECT,
// a pass-through) into next.
func (j *Job) aggregateOperator(mem memory.Allocator, next pipeline.Operator, restoring bool) (windowStage, error) {
	var err error
	switch {
	case j.Count != nil:
		op, err := windowop.NewCountWindowOperator(*j.Count, mem, next)
		if err != nil {
			return nil, err
		}
		return countWindowStage{op}, nil
	case j.Group != nil:
		// One goroutine: its changes come out in row order.
		gc := *j.Group
		gc.StateTTL, gc.Clock = j.StateTTL, j.Clock
		op, err := windowop.NewGroupOperator(gc, mem, next)
		if err != nil {
			return nil, err
		}
		return groupStage{op}, nil
	case j.Over != nil:
		return j.overStage(mem, next)
	case j.Lookup != nil:
		return j.lookupStage(mem, next)
	case j.Window == nil:
		return &plainStage{Operator: next}, nil
	}
	cfg := *j.Window
	cfg.MaxStateBytes = j.MaxStateBytes
	// A per-row session gap can fail on a row, which must stop the run
	// where a single-threaded one stops: it runs on one goroutine.
	if j.Parallelism > 1 && j.LateDataPath == "" && !cfg.ProcTime && len(cfg.KeyIndexes) > 0 && cfg.GapIndex < 0 {
		if cfg.MaxStateBytes > 0 {
			cfg.MaxStateBytes = max(1, cfg.MaxStateBytes/int64(j.Parallelism))
		}
		return newPartitionedWindow(cfg, j.Parallelism, mem, next)
	}
	var late *lateFile
	if j.LateDataPath != "" {
		if late, err = openLateFile(j.LateDataPath, cfg.LateSchema(), restoring); err != nil {
			return nil, err
		}
		cfg.LateSink = late.sink
	}
	op, err := windowop.NewWindowOperator(cfg, mem, next)
	if err != nil {
		if late != nil {
			late.close()
		}
		return nil, err
	}
	return timeWindowStage{op, late}, nil
}

// inputSchema is the schema of the rows entering the window stage: the
// source's columns plus computed ones.
func (j *Job) inputSchema() *arrow.Schema {
	if j.Lateral != nil {
		return j.Lateral.Schema
	}
	if j.Input != nil {
		return j.Input.Schema()
	}
	if j.Join != nil {
		s, _ := j.Join.OutputSchema()
		return s
	}
	if j.Union != nil {
		return j.Union[0].Schema()
	}
	if j.Computed != nil {
		return j.Computed.Schema
	}
	return j.Source.Spec().Schema
}

// plainStage stands where the window operator would be in a plain SELECT,
// counting the rows it passes on.
type plainStage struct {
	pipeline.Operator
	rows int64
}

func (p *plainStage) ProcessBatch(b pipeline.Batch) error {
	p.rows += b.Record.NumRows()
	return p.Operator.ProcessBatch(b)
}

func (p *plainStage) stats() windowop.Stats { return windowop.Stats{RowsIn: p.rows} }

// errStopped wraps the context's error when drive stopped between two
// steps: every batch so far went all the way through, so the pipeline is
// in a consistent state (a checkpoint may be taken).
type errStopped struct{ err error }

func (e errStopped) Error() string { return e.err.Error() }
func (e errStopped) Unwrap() error { return e.err }

// drive pushes every batch of r into first, telling the assigner which
// split it came from and when a split ends, then ends the input. assigner
// is nil when the pipeline has no event time. afterBatch, if set, runs
// after each batch; afterStep, if set, after each step of the reader
// (a batch, a watermark, a split's end): the points where every stage is
// done with what came before, where checkpoints are taken.
func drive(ctx context.Context, r BatchReader, first pipeline.Operator, assigner *WatermarkAssigner, afterBatch func(), afterStep func() error) error {
	f, following := r.(Follower)
	if following {
		// An unbounded read waits until ctx is cancelled; then it hands
		// out the last lines it holds before it returns ctx's error.
		f.Follow(ctx)
	}
	for {
		if err := ctx.Err(); err != nil && !following {
			return errStopped{err}
		}
		if err := driveStep(r, first, assigner, afterBatch); err != nil {
			if err == errEnded {
				return nil
			}
			return err
		}
		if afterStep != nil {
			if err := afterStep(); err != nil {
				return err
			}
		}
	}
}

// driveStep takes one step of r through the pipeline; io.EOF has ended
// the input when it returns errEnded.
func driveStep(r BatchReader, first pipeline.Operator, assigner *WatermarkAssigner, afterBatch func()) error {
	b, err := r.Next()
	return takeStep(b, err, r, first, assigner, afterBatch)
}

// takeStep takes the step b (err) of r through the pipeline; it releases
// b's record.
func takeStep(b SplitBatch, err error, r BatchReader, first pipeline.Operator, assigner *WatermarkAssigner, afterBatch func()) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errStopped{err} // a followed read waiting for data: nothing half done
	}
	if errors.Is(err, io.EOF) {
		if err := first.ProcessEnd(); err != nil {
			return err
		}
		return errEnded
	}
	if err != nil {
		return err
	}
	if b.HasWatermark || b.Idle {
		if assigner == nil {
			return nil
		}
		if b.HasWatermark {
			return assigner.AdvanceSplit(b.Split, b.Watermark)
		}
		return assigner.IdleSplit(b.Split)
	}
	if b.Record == nil && !b.End {
		// nothing new (an unbounded read): splits may have joined or gone
		// idle, and the progress after the last batch is yet to be reported
		if afterBatch != nil {
			afterBatch()
		}
		if assigner != nil {
			return assigner.Refresh(r.NumSplits())
		}
		return nil
	}
	if b.End {
		if assigner != nil {
			return assigner.EndSplit(b.Split)
		}
		return nil
	}
	if assigner != nil {
		assigner.SelectSplit(b.Split)
	}
	if err := processBatch(first, b.Record); err != nil {
		return err
	}
	if afterBatch != nil {
		afterBatch()
	}
	return nil
}

// processBatch hands rec to first and releases it, also when first panics
// (the run then ends with a pipeline.PanicError, holding no memory).
func processBatch(first pipeline.Operator, rec arrow.RecordBatch) error {
	defer rec.Release()
	return first.ProcessBatch(pipeline.Batch{Record: rec})
}

// errEnded is how driveStep says the input ended and was processed.
var errEnded = errors.New("end of input")
