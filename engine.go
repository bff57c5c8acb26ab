package wsql

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// Engine runs SQL statements against its own catalog. It is safe for
// concurrent use: statements of concurrent Run calls are serialised.
type Engine struct {
	mu        sync.Mutex
	cat       *catalog.Catalog
	mem       memory.Allocator
	batchSize int
}

// Option configures an Engine.
type Option func(*Engine)

// WithAllocator sets the Arrow allocator every query allocates from.
func WithAllocator(mem memory.Allocator) Option { return func(e *Engine) { e.mem = mem } }

// WithBatchSize sets how many rows a source puts in one batch. Results do
// not depend on it.
func WithBatchSize(n int) Option { return func(e *Engine) { e.batchSize = n } }

// New returns an Engine with an empty catalog.
func New(opts ...Option) *Engine {
	e := &Engine{cat: catalog.New(), mem: memory.DefaultAllocator}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Schema is the Arrow schema of a result: its column names and types.
type Schema = arrow.Schema

// ResultWriter receives a SELECT's result batches as windows fire. It does
// not own the batches it is given. Close is called once after the last batch.
type ResultWriter = exec.ResultWriter

// Output says where Run sends the results of each SELECT.
type Output struct {
	// NewWriter is called once per SELECT with its result schema.
	NewWriter func(schema *arrow.Schema) (ResultWriter, error)
	// OnSummary, if set, receives each SELECT's run summary, also when the
	// query failed part way.
	OnSummary func(Summary)
}

// Summary counts what one SELECT did. Nothing is dropped without a count.
type Summary struct {
	RowsRead        int64
	LateRowsDropped int64
	BadRowsSkipped  int64
	ResultRows      int64
	Elapsed         time.Duration
}

// String is the one-line run summary the CLI prints on stderr.
func (s Summary) String() string {
	return fmt.Sprintf("%d rows read, %d late rows dropped, %d bad rows skipped, %d result rows in %s",
		s.RowsRead, s.LateRowsDropped, s.BadRowsSkipped, s.ResultRows, s.Elapsed.Round(time.Millisecond))
}

// Run parses src and executes its statements in order: CREATE TABLE
// declares a table; SELECT runs to the end of its input, streaming results
// to out. The first error stops the script and is returned; errors about
// the SQL carry a position in src (see FormatError).
func (e *Engine) Run(ctx context.Context, src string, out Output) error {
	stmts, err := sql.Parse(src)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, st := range stmts {
		if err := e.runStatement(ctx, st, out); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) runStatement(ctx context.Context, st sql.Statement, out Output) error {
	switch s := st.(type) {
	case *sql.CreateTable:
		_, err := e.cat.CreateTable(s)
		return err
	case *sql.Select:
		job, err := planner.PlanSelect(s, e.cat, planner.Options{BatchSize: e.batchSize})
		if err != nil {
			return err
		}
		return e.runJob(ctx, job, out)
	}
	return sql.Errorf(sql.ErrUnsupported, st.Pos(), "this statement is not supported yet")
}

func (e *Engine) runJob(ctx context.Context, job *exec.Job, out Output) error {
	if out.NewWriter == nil {
		return fmt.Errorf("wsql: Output.NewWriter is required to run a SELECT")
	}
	w, err := out.NewWriter(job.Schema())
	if err != nil {
		return err
	}
	stats, runErr := job.Run(ctx, e.mem, w)
	closeErr := w.Close()
	if out.OnSummary != nil {
		out.OnSummary(Summary{
			RowsRead:        stats.RowsRead,
			LateRowsDropped: stats.LateDropped,
			BadRowsSkipped:  stats.BadSkipped,
			ResultRows:      stats.ResultRows,
			Elapsed:         stats.Elapsed,
		})
	}
	if runErr != nil {
		return runErr
	}
	return closeErr
}
