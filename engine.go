package wsql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/exec/progress"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// Engine runs SQL statements against its own session: a catalog of tables
// and views and the settings of SET. It is safe for concurrent use:
// statements that read or change the session are serialised, and running
// queries hold no lock, so several can stream at once.
type Engine struct {
	mu        sync.Mutex
	cat       *catalog.Catalog
	settings  *settings
	mem       memory.Allocator
	batchSize int
	clock     Clock
	stdin     io.Reader
	// parallelism is the default of 'parallelism.default' (WithParallelism).
	parallelism int
	// fns are the functions calls resolve to (nil: the built-ins);
	// goFunctions the Go functions registered, by upper-case name
	// (user_functions.go).
	fns         *function.Registry
	goFunctions map[string]Function

	// life guards closing: Close cancels runs and waits for them.
	life    sync.Mutex
	closed  bool
	base    context.Context // cancelled by Close
	cancel  context.CancelFunc
	running sync.WaitGroup

	// checkpointing holds the checkpoint files of the queries running
	// with checkpoints, each with its inter-process lock
	// (checkpoint.Unlocker): two runs must not write one file.
	checkpointing sync.Map
	// openSet is the statement set BEGIN STATEMENT SET opened, until END
	// (statement_set.go).
	openSet *statementSet
}

// ErrClosed is returned by an Engine's methods after Close.
var ErrClosed = errors.New("wsql: the engine is closed")

// WithStdin gives 'stdin' tables their input (the CLI passes os.Stdin when
// the SQL did not come from it).
func WithStdin(r io.Reader) Option { return func(e *Engine) { e.stdin = r } }

// Clock tells processing time (PROCTIME() windows, idle splits). The
// default is the system clock; tests pass a manual one.
type Clock = rowtime.Clock

// WithClock sets the processing-time clock.
func WithClock(c Clock) Option { return func(e *Engine) { e.clock = c } }

// Option configures an Engine.
type Option func(*Engine)

// WithAllocator sets the Arrow allocator every query allocates from.
func WithAllocator(mem memory.Allocator) Option { return func(e *Engine) { e.mem = mem } }

// WithBatchSize sets how many rows a source puts in one batch. Results do
// not depend on it.
func WithBatchSize(n int) Option { return func(e *Engine) { e.batchSize = n } }

// WithParallelism sets how many goroutines run each window aggregation by
// default ('parallelism.default'; SET changes it per session): each runs
// the group keys that hash to it. Every key's results are those of one
// goroutine; with more than one, the order of results of different keys
// that fire together follows the partitions. The default is 1.
func WithParallelism(n int) Option { return func(e *Engine) { e.parallelism = max(1, n) } }

// WithLocalTimeZone sets the session's 'table.local-time-zone' (SET can
// change it later): TIMESTAMP_LTZ values are shown and windowed in it.
func WithLocalTimeZone(loc *time.Location) Option {
	return func(e *Engine) {
		e.settings.location = loc
		e.settings.values[setting.LocalTimeZone] = loc.String()
	}
}

// New returns an Engine with an empty catalog and default settings.
func New(opts ...Option) *Engine {
	e := &Engine{cat: catalog.New(), settings: newSettings(), mem: memory.DefaultAllocator, clock: rowtime.SystemClock{}, parallelism: 1}
	e.base, e.cancel = context.WithCancel(context.Background())
	for _, o := range opts {
		o(e)
	}
	return e
}

// Close stops every statement and query still running on the engine and
// waits for them to end (their Rows report ErrClosed); later calls
// of Run, Exec and Query return ErrClosed. Close is idempotent.
func (e *Engine) Close() error {
	e.life.Lock()
	first := !e.closed
	if first {
		e.closed = true
		e.cancel()
	}
	e.life.Unlock()
	e.running.Wait()
	if first {
		// rows pushed from Go that no query read are dropped
		e.mu.Lock()
		for _, name := range e.cat.TableNames() {
			releaseAttached(e.cat.Table(name))
		}
		e.mu.Unlock()
	}
	return nil
}

// Closed tells whether Close was called, so a connection pool (the
// database/sql driver's) can drop connections of a closed engine instead of
// failing every statement on them.
func (e *Engine) Closed() bool {
	e.life.Lock()
	defer e.life.Unlock()
	return e.closed
}

// begin registers a run, which Close cancels: it returns the run's context
// and the function that ends the run.
func (e *Engine) begin(ctx context.Context) (context.Context, func(), error) {
	e.life.Lock()
	defer e.life.Unlock()
	if e.closed {
		return nil, nil, ErrClosed
	}
	e.running.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(e.base, cancel)
	return ctx, func() {
		stop()
		cancel()
		e.running.Done()
	}, nil
}

// Schema is the Arrow schema of a result: its column names and types.
type Schema = arrow.Schema

// RecordBatch is one batch of result rows, as ResultWriter receives it.
type RecordBatch = arrow.RecordBatch

// ResultWriter receives a statement's result batches as they are produced
// (for a query: as windows fire). It does not own the batches it is given.
// Close is called once after the last batch.
type ResultWriter = writer.ResultWriter

// ResultInfo describes a result about to be written.
type ResultInfo struct {
	Schema *Schema
	// Location is the session's 'table.local-time-zone': TIMESTAMP_LTZ
	// values are shown in it.
	Location *time.Location
	// ResultMode is 'sql-client.execution.result-mode' as the session set
	// it: "table", "changelog", "tableau", or "" when not set.
	ResultMode string
}

// Output says where Run sends what statements produce.
type Output struct {
	// NewWriter is called once per statement with a tabular result: a
	// query, SHOW, DESCRIBE, SET without arguments.
	NewWriter func(ResultInfo) (ResultWriter, error)
	// OnSummary, if set, receives each query's run summary, also when the
	// query failed part way.
	OnSummary func(Summary)
	// OnText receives text results (EXPLAIN). Nil discards them.
	OnText func(string)
	// OnNotice receives warnings about statements that still run, formatted
	// with the position and a caret. Nil discards them.
	OnNotice func(string)
	// Stdout is where the 'print' connector writes; nil means os.Stdout.
	Stdout io.Writer
	// OnProgress, if set, receives a snapshot of a running query about four
	// times a second (rows read, watermark, open windows, late rows,
	// elapsed time), e.g. for a status line on a terminal.
	OnProgress func(Progress)
	// ProgressEvery overrides the interval between snapshots (tests).
	ProgressEvery time.Duration
	// OnQueryStart, if set, is told each query's text and plan as it starts
	// to run; the OnProgress and OnSummary calls that follow are about it.
	OnQueryStart func(QueryInfo)
	// File, if set, is the file NewWriter's writers and OnText write to
	// (the CLI's --output). Like every output of a query it must not be an
	// input of the script: Run refuses, before writing anything, a script
	// with a filesystem table at File.Path(), and a query reading it when
	// planned; the file is opened only once output comes. With
	// checkpoints, the results of a SELECT are written to it exactly once
	// (see OutputFile); without them, a failed Run leaves it as it was.
	File *OutputFile
}

// Progress is a snapshot of a running query; QueryInfo describes it.
type Progress = exec.Progress
type QueryInfo = progress.Query

// Summary counts what one query did. Nothing is dropped without a count.
type Summary struct {
	RowsRead        int64
	LateRowsDropped int64 // rows every window of which was late
	LateForWindow   int64 // (row, window) pairs a row missed while counting in other windows
	NoWindowRows    int64 // rows in no window (HOP gaps) or in a COUNT_WINDOW that never filled
	BadRowsSkipped  int64
	ResultRows      int64
	Elapsed         time.Duration
	// FilesRotated and FilesTruncated count the files of a followed source
	// ('source.monitor-interval') found replaced under their name (read to
	// their end, then the new file from its start) or cut shorter than what
	// was read (then read again from the start).
	FilesRotated   int64
	FilesTruncated int64
	// UnfilledCountRows is the part of NoWindowRows in COUNT windows that
	// never filled; the rest fell in the gaps of a HOP.
	UnfilledCountRows int64
	// StateExpired counts keys whose state 'table.exec.state.ttl' dropped.
	StateExpired int64
	// StateSpilled is the bytes of kept rows written to disk beyond
	// 'wsql.state.spill-after'.
	StateSpilled int64
	// LookupHits and LookupMisses count the probe rows of lookup joins
	// that query their table by key: those whose key the join's cache
	// held, and those whose key was fetched from the table.
	LookupHits, LookupMisses int64
	// Late describes the LateRowsDropped rows: how late they were and the
	// WATERMARK delay that would have kept them (late_warning.go).
	Late LateRows
}

// summaryOf is the Summary of a run's stats; p is the plan whose
// watermark the late rows are measured against.
func summaryOf(stats *exec.Stats, p *planner.Plan) Summary {
	return Summary{
		RowsRead:          stats.RowsRead,
		LateRowsDropped:   stats.LateRowsDropped,
		LateForWindow:     stats.LateForWindow,
		NoWindowRows:      stats.NoWindowRows,
		BadRowsSkipped:    stats.BadRowsSkipped,
		ResultRows:        stats.ResultRows,
		Elapsed:           stats.Elapsed,
		FilesRotated:      stats.FilesRotated,
		FilesTruncated:    stats.FilesTruncated,
		UnfilledCountRows: stats.UnfilledCountRows,
		StateExpired:      stats.StateExpired,
		StateSpilled:      stats.StateSpilled,
		LookupHits:        stats.LookupHits,
		LookupMisses:      stats.LookupMisses,
		Late:              lateRows(stats, p),
	}
}

// String is the one-line run summary the CLI prints on stderr.
func (s Summary) String() string {
	out := s.Counts()
	if s.StateSpilled > 0 {
		out += fmt.Sprintf(", %s of state spilled to disk", windowop.FormatBytes(s.StateSpilled))
	}
	return out + " in " + s.Elapsed.Round(time.Millisecond).String()
}

// Counts is the summary without the elapsed time and the state spilled,
// which depend on the machine and on how the input was cut into batches
// (stable, for tests).
func (s Summary) Counts() string {
	out := fmt.Sprintf("%d rows read, %d late rows dropped, %d bad rows skipped, %d result rows",
		s.RowsRead, s.LateRowsDropped, s.BadRowsSkipped, s.ResultRows)
	if s.LateForWindow > 0 {
		out += fmt.Sprintf(", %d late for one of their windows", s.LateForWindow)
	}
	if s.NoWindowRows > 0 {
		out += fmt.Sprintf(", %d rows in no emitted window", s.NoWindowRows)
	}
	if s.FilesRotated > 0 {
		out += fmt.Sprintf(", %d followed files rotated", s.FilesRotated)
	}
	if s.FilesTruncated > 0 {
		out += fmt.Sprintf(", %d followed files truncated", s.FilesTruncated)
	}
	if s.StateExpired > 0 {
		out += fmt.Sprintf(", %d keys' state expired", s.StateExpired)
	}
	if s.LookupHits+s.LookupMisses > 0 {
		out += fmt.Sprintf(", %d lookup cache hits, %d lookup cache misses", s.LookupHits, s.LookupMisses)
	}
	return out
}

// Run parses src and executes its statements in order. The first error
// stops the script and is returned; errors about the SQL carry a position
// in src (see FormatError). A panic inside the engine ends the script with
// an error wrapping ErrInternal (see PanicError).
func (e *Engine) Run(ctx context.Context, src string, out Output) (err error) {
	defer pipeline.CatchPanic(&err) // after end(): the run is over and unregistered
	if out.File != nil {
		out.File.started()
	}
	ctx, end, err := e.begin(ctx)
	if err != nil {
		return err
	}
	defer end()
	stmts, err := sql.Parse(src)
	if err != nil {
		return err
	}
	if out.File != nil {
		if err := e.checkResultsFile(stmts, out.File.Path()); err != nil {
			return err
		}
	}
	r := &runner{e: e, src: src, out: out}
	for _, st := range stmts {
		if err := r.ownPositions(r.statement(ctx, st)); err != nil {
			if e.base.Err() != nil && errors.Is(err, context.Canceled) {
				return ErrClosed // stopped by Close
			}
			if out.File != nil && errors.Is(err, context.Canceled) {
				out.File.stopped()
			}
			return err
		}
	}
	if out.File != nil {
		return out.File.finish()
	}
	return nil
}

// runner executes the statements of one Run call.
type runner struct {
	e       *Engine
	src     string
	out     Output
	queries int // SELECT and INSERT statements run so far
	// inputs are the files and directories the queries run so far read:
	// no later output may be one of them (output_paths.go).
	inputs []inputPath
	// sinks are the filesystem sinks the script's INSERTs wrote: a later
	// INSERT adds its own part files (sink_inserts.go).
	sinks []*writtenSink
}

func (r *runner) statement(ctx context.Context, st sql.Statement) error {
	e := r.e
	// The session (catalog, settings) is locked while a statement reads or
	// changes it; a query lets go of it once planned, so other statements
	// and queries on the engine run while it streams.
	e.mu.Lock()
	locked := true
	unlock := func() {
		if locked {
			locked = false
			e.mu.Unlock()
		}
	}
	defer unlock()
	emit, err := planner.ParseEmit(e.settings.get)
	if err != nil {
		return sql.Errorf(sql.ErrInvalid, st.Pos(), "%v", err)
	}
	badRows, _ := e.settings.get(setting.BadRowsPath)
	var maxRecord int
	if v, ok := e.settings.get(setting.MaxRecordBytes); ok {
		maxRecord, _ = setting.ParseMaxRecordBytes(v) // checked by SET
	}
	opts := planner.Options{BatchSize: e.batchSize, Location: e.settings.location, Emit: emit, Clock: e.clock, BadRowsPath: badRows, MaxRecordBytes: maxRecord, Stdin: e.stdin,
		NoTableHints: planner.TableHintsOff(e.settings.get), Functions: e.functions()}
	if v, ok := e.settings.get(setting.TypeLengthEnforcer); ok {
		opts.TrimPad, _ = setting.ParseTrimPad(v) // checked by SET
	}
	if gathering, err := r.inStatementSet(ctx, st, opts, unlock); gathering {
		return err
	}
	switch s := st.(type) {
	case *sql.CreateTable:
		if s.Query == nil {
			return r.createTable(s, opts)
		}
		ins, err := r.createTableAs(s, opts)
		if err != nil {
			return err
		}
		return r.runQuery(ctx, ins, opts, unlock)
	case *sql.CreateView:
		// A view must plan when it is created, as in Flink.
		if _, err := planner.PlanView(s.Query, e.cat, opts); err != nil {
			return err
		}
		_, err := e.cat.CreateView(s)
		return err
	case *sql.Drop:
		t := e.cat.Table(s.Name.Name)
		if err := e.cat.Drop(s); err != nil {
			return err
		}
		if t != nil && e.cat.Table(s.Name.Name) == nil {
			releaseAttached(t)
		}
		return nil
	case *sql.CreateFunction:
		return r.createFunction(s)
	case *sql.DropFunction:
		return r.dropFunction(s)
	case *sql.Set:
		return r.set(s)
	case *sql.Reset:
		return e.settings.reset(s)
	case *sql.Show:
		return r.show(s)
	case *sql.Describe:
		return r.describe(s)
	case *sql.Use:
		return r.use(s)
	case *sql.StatementSet:
		return r.executeStatementSet(ctx, s, opts, unlock)
	case *sql.BeginStatementSet:
		return r.beginStatementSet(s)
	case *sql.EndStatementSet:
		return sql.Errorf(sql.ErrInvalid, s.At, "END without BEGIN STATEMENT SET")
	case *sql.Explain:
		if set, ok := s.Stmt.(*sql.StatementSet); ok {
			text, err := r.explainStatementSet(set, opts)
			if err == nil && r.out.OnText != nil {
				r.out.OnText(text)
			}
			return err
		}
		p, err := r.plan(s.Stmt, opts)
		if err != nil {
			return err
		}
		if r.out.OnText != nil {
			r.out.OnText(p.Explain() + explainScaleOut(p))
		}
		return nil
	case *sql.Select, *sql.Insert:
		return r.runQuery(ctx, s, opts, unlock)
	}
	return sql.Errorf(sql.ErrUnsupported, st.Pos(), "this statement is not supported yet")
}

// runQuery plans and runs a SELECT or INSERT.
func (r *runner) runQuery(ctx context.Context, s sql.Statement, opts planner.Options, unlock func()) error {
	opts.Run = true // what it reads must be there
	p, err := r.plan(s, opts)
	if err != nil {
		return err
	}
	if ins, ok := s.(*sql.Insert); ok {
		if err := r.refuseSecondInsert(ins, p); err != nil {
			return err
		}
	}
	r.inputs = append(r.inputs, planInputs(p)...)
	return r.runPlan(ctx, s, p, unlock)
}

// plan plans a SELECT or INSERT and reports its notices.
func (r *runner) plan(st sql.Statement, opts planner.Options) (*planner.Plan, error) {
	var p *planner.Plan
	var err error
	switch s := st.(type) {
	case *sql.Select:
		p, err = planner.PlanSelect(s, r.e.cat, opts)
	case *sql.Insert:
		p, err = planner.PlanInsert(s, r.e.cat, opts)
	default:
		return nil, sql.Errorf(sql.ErrUnsupported, st.Pos(), "EXPLAIN of this statement is not supported")
	}
	if err != nil {
		return nil, err
	}
	if err := r.checkOutputs(st, p); err != nil {
		return nil, err
	}
	for _, n := range p.Notices {
		r.notice(n.At, n.Msg)
	}
	return p, nil
}

// say reports a message of the run itself (not about the SQL) as a notice.
func (r *runner) say(msg string) {
	if r.out.OnNotice != nil {
		r.out.OnNotice(msg)
	}
}

func (r *runner) notice(at sql.Pos, msg string) {
	if r.out.OnNotice == nil {
		return
	}
	text := fmt.Sprintf("warning: %s: %s", at, msg)
	if c := sql.Caret(r.src, at); c != "" {
		text += "\n" + c
	}
	r.out.OnNotice(text)
}

// runPlan runs a query to the end of its input, into the caller's writer
// (SELECT) or the sink's (INSERT).
func (r *runner) runPlan(ctx context.Context, s sql.Statement, p *planner.Plan, unlock func()) error {
	job, err := p.Job()
	if err != nil {
		return err
	}
	r.queries++
	shared, err := groupSourceOf(p, job)
	if err != nil {
		return err
	}
	if shared != nil {
		r.queryStarts(s, p)
		return r.runScaledOut(ctx, p, shared, unlock)
	}
	cp, err := r.checkpointing(p, r.queries)
	if err != nil {
		return err
	}
	defer r.doneCheckpointing(cp)
	if cp != nil && cp.Restore != nil && cp.Restore.Finished {
		r.say(fmt.Sprintf("wsql: query %d already finished (checkpoint %d in %s); remove the checkpoint to run it again", r.queries, cp.Restore.ID, checkpoint.Dir(cp.Path)))
		if p.Sink != nil {
			if _, ok := p.Sink.Target.(connector.PathSink); ok {
				// the crash may have come between the last checkpoint and its commit
				w, err := r.openSink(ctx, p.Sink, cp, "")
				if err != nil {
					return err
				}
				return w.Close()
			}
		}
		if p.Sink == nil && r.out.File != nil {
			// the file gets the closing output (a table's last line) again
			w, err := r.writer(p.Schema())
			if err != nil {
				return err
			}
			return r.out.File.finishedResults(w, cp)
		}
		return nil
	}
	var w ResultWriter
	if p.Sink == nil {
		if w, err = r.writer(p.Schema()); err != nil {
			return err
		}
		if r.out.File != nil {
			results := w
			if w, err = r.out.File.resultsTo(results, cp); err != nil {
				results.Close()
				return err
			}
		}
	} else {
		if w, err = r.openSink(ctx, p.Sink, cp, ""); err != nil {
			return err
		}
	}
	r.queryStarts(s, p)
	stats, runErr := r.runJob(ctx, job, cp, w, fmt.Sprintf("query %d", r.queries), unlock)
	if p.Sink == nil && r.out.File != nil {
		if rows := r.out.File.endResults(w, runErr == nil); rows >= 0 {
			stats.ResultRows = rows // what the file holds
		}
	}
	if a, ok := w.(interface{ Abort() }); ok && runErr != nil {
		a.Abort() // a failed run commits nothing at Close (a partition's success file)
	}
	closeErr := w.Close()
	if r.out.OnSummary != nil {
		r.out.OnSummary(summaryOf(&stats, p))
	}
	if runErr != nil {
		return runErr
	}
	return closeErr
}

// queryStarts tells Output.OnQueryStart of the query about to run.
func (r *runner) queryStarts(s sql.Statement, p *planner.Plan) {
	if r.out.OnQueryStart != nil {
		r.out.OnQueryStart(QueryInfo{Number: r.queries, SQL: sqlfmt.Statement(s), Plan: p.Explain() + explainScaleOut(p)})
	}
}

// runJob runs a query's job with the session's settings, writing its
// results to w; what names it in messages ("query 2"), which only a
// whole query's run prints (not a scaled-out query's run of a partition).
// unlock lets the session go on once the job is set up.
func (r *runner) runJob(ctx context.Context, job *exec.Job, cp *exec.Checkpointing, w ResultWriter, what string, unlock func()) (exec.Stats, error) {
	if job.Progress == nil { // a scaled-out query's run has the query's
		job.Progress, job.ProgressEvery = r.out.OnProgress, r.out.ProgressEvery
	}
	n := r.e.parallelism
	if v, ok := r.e.settings.get(setting.Parallelism); ok {
		n, _ = setting.ParseParallelism(v) // checked by SET
	}
	var maxState int64
	if v, ok := r.e.settings.get(setting.StateMaxBytes); ok {
		maxState, _ = setting.ParseMemorySize(setting.StateMaxBytes, v) // checked by SET
	}
	spillAfter := r.spillAfter()
	if cp != nil {
		var last uint64
		cp.OnCheckpoint = func(id uint64, _ bool) { last = id }
		defer func() {
			if last > 0 && ctx.Err() != nil && what != "" {
				r.say(fmt.Sprintf("wsql: stopped; checkpoint %d is in %s: run the same command again to resume", last, checkpoint.Dir(cp.Path)))
			}
		}()
		if cp.Restore != nil && what != "" {
			r.say(fmt.Sprintf("wsql: resuming %s from checkpoint %d", what, cp.Restore.ID))
		}
		job.Checkpoint = cp
	}
	var ttl int64
	if v, ok := r.e.settings.get(setting.StateTTL); ok {
		ttl, _ = setting.ParseDuration(setting.StateTTL, v) // checked by SET
	}
	job.Walk(func(j *exec.Job) {
		j.Parallelism, j.MaxStateBytes, j.StateTTL, j.SpillAfter = n, maxState, ttl, spillAfter
	})
	unlock() // the plan is fixed: the query no longer needs the session
	return job.Run(ctx, r.e.mem, w)
}

// openSink opens an INSERT's sink for the run: a sink writing files learns
// how many INSERTs of the script wrote its path before (sink_inserts.go).
// part names the partition of a scaled-out query's run ("" for others).
func (r *runner) openSink(ctx context.Context, s *planner.Sink, cp *exec.Checkpointing, part string) (ResultWriter, error) {
	run := &connector.SinkRun{Location: r.e.settings.location, Stdout: r.out.Stdout, Checkpoint: cp, Part: part}
	if run.Stdout == nil {
		run.Stdout = os.Stdout
	}
	ps, files := s.Target.(connector.PathSink)
	if files {
		run.Nth = r.sinkInserts(ps.OutputPath())
	}
	w, err := s.Target.Open(ctx, run)
	if err != nil {
		return nil, err
	}
	if files {
		r.sinkWritten(ps.OutputPath())
	}
	return w, nil
}

func (r *runner) writer(schema *arrow.Schema) (ResultWriter, error) {
	if r.out.NewWriter == nil {
		return nil, fmt.Errorf("wsql: Output.NewWriter is required for statements with results")
	}
	mode, _ := r.e.settings.get(setting.ResultMode)
	mode, _ = setting.ParseResultMode(mode) // checked by SET; "" when not set
	return r.out.NewWriter(ResultInfo{Schema: schema, Location: r.e.settings.location, ResultMode: mode})
}
