package wsql

import (
	"context"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/sql"
)

// Exec runs statements that return no rows: CREATE, DROP, SET with a key,
// RESET, USE, INSERT INTO, EXPLAIN and SHOW CREATE (their text is
// discarded). A statement with a tabular result (SELECT, SHOW, DESCRIBE,
// SET alone) is an error before anything runs: use Query for it.
func (e *Engine) Exec(ctx context.Context, src string) (err error) {
	defer pipeline.CatchPanic(&err)
	stmts, err := sql.Parse(src)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		if returnsRows(st) {
			return sql.Errorf(sql.ErrInvalid, st.Pos(), "this statement returns rows; use Query to read them")
		}
	}
	return e.Run(ctx, src, Output{})
}

// Query runs src, whose statements are any number without a result (DDL,
// SET, ...) and exactly one with rows, usually a SELECT, and streams that
// result. It returns once the result's schema is known, or with the error
// that stopped the statements before it. The query runs while the caller
// reads it with Next and waits while a batch is not taken; Close stops it.
// The caller must Close the Rows (All does it). A streaming SELECT holds
// no lock on the Engine, so other statements and queries run meanwhile; a
// SHOW or DESCRIBE result holds the session until it is read.
func (e *Engine) Query(ctx context.Context, src string) (_ *Rows, err error) {
	defer pipeline.CatchPanic(&err)
	stmts, err := sql.Parse(src)
	if err != nil {
		return nil, err
	}
	var result sql.Statement
	for _, st := range stmts {
		if !returnsRows(st) {
			continue
		}
		if result != nil {
			return nil, sql.Errorf(sql.ErrInvalid, st.Pos(), "Query runs one statement with rows, and the text has a second one")
		}
		result = st
	}
	if result == nil {
		return nil, errors.New("wsql: the statements return no rows; use Exec to run them")
	}

	parent := ctx
	// The run's context: cancelled by Close of Rows or of the Engine, so
	// the writer waiting for Next lets go in both cases.
	ctx, end, err := e.begin(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &Rows{
		batches: make(chan RecordBatch),
		done:    make(chan struct{}),
		cancel:  cancel,
	}
	ready := make(chan struct{})
	w := &rowsWriter{ctx: ctx, out: r.batches}
	go func() {
		defer close(r.done)
		defer end()
		var err error
		defer func() {
			// Run returns a panic as an error; this guards what runs
			// around it on this goroutine, which no caller could recover
			if p := recover(); p != nil {
				r.err = pipeline.PanicAsError(p, "")
			}
		}()
		err = e.Run(ctx, src, Output{
			NewWriter: func(info ResultInfo) (ResultWriter, error) {
				if r.schema != nil {
					return nil, errors.New("wsql: Query reads one result only")
				}
				r.schema, r.loc = info.Schema, info.Location
				close(ready)
				return w, nil
			},
			OnSummary: func(s Summary) { r.summary = s },
		})
		r.mu.Lock()
		if err != nil && r.closing && parent.Err() == nil && errors.Is(err, context.Canceled) {
			err = nil // stopped by Close, not by the caller's context
		}
		r.mu.Unlock()
		r.err = err
	}()
	select {
	case <-ready:
		return r, nil
	case <-r.done:
		select {
		case <-ready: // an empty result that ended at once
			return r, nil
		default:
		}
		cancel()
		if r.err != nil {
			return nil, r.err
		}
		return nil, errors.New("wsql: the query ended without a result")
	}
}

// returnsRows tells whether st gives a tabular result.
func returnsRows(st sql.Statement) bool {
	switch s := st.(type) {
	case *sql.Select, *sql.Describe:
		return true
	case *sql.Show:
		// SHOW CREATE is text, as EXPLAIN is
		return s.What != "CREATE TABLE" && s.What != "CREATE VIEW"
	case *sql.Set:
		return s.Key == ""
	}
	return false
}

// rowsWriter hands each batch to Rows.Next, waiting until it is taken.
type rowsWriter struct {
	ctx context.Context
	out chan<- RecordBatch
}

func (w *rowsWriter) WriteBatch(rec RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	rec.Retain()
	select {
	case w.out <- rec:
		return nil
	case <-w.ctx.Done():
		rec.Release()
		return w.ctx.Err()
	}
}

func (w *rowsWriter) Close() error { return nil }

// Rows is the result of Query, read batch by batch like an
// array.RecordReader: each batch arrives as windows fire.
//
//	rows, err := e.Query(ctx, src)
//	if err != nil { ... }
//	defer rows.Close()
//	for rows.Next() {
//		use(rows.RecordBatch())
//	}
//	if err := rows.Err(); err != nil { ... }
//
// Rows is meant for one goroutine.
type Rows struct {
	schema  *Schema
	loc     *time.Location
	batches chan RecordBatch
	done    chan struct{} // closed when the run ended; err and summary are set then
	cancel  context.CancelFunc
	cur     RecordBatch
	scan    rowCursor // NextRow's place, rows_scan.go

	mu      sync.Mutex
	closing bool

	err     error
	summary Summary
	closed  bool
}

// Schema is the schema of the result's batches.
func (r *Rows) Schema() *Schema { return r.schema }

// Location is the session's 'table.local-time-zone' when the result began:
// its TIMESTAMP_LTZ values are meant to be shown in it.
func (r *Rows) Location() *time.Location { return r.loc }

// Next advances to the next batch, waiting for it; it returns false when
// the query ended, failed (see Err) or Rows was closed. The previous batch
// is released.
func (r *Rows) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.closed {
		return false
	}
	select {
	case b := <-r.batches:
		r.cur = b
		return true
	case <-r.done:
		// every batch was taken: the writer sends before the run ends
		return false
	}
}

// RecordBatch is the current batch. It is valid until the next call of
// Next or Close; Retain it to keep it longer.
func (r *Rows) RecordBatch() RecordBatch { return r.cur }

// Err is the error that stopped the query, once it stopped (nil while it
// runs, when it ended normally and when Close stopped it). A cancelled
// context gives its error.
func (r *Rows) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Close stops the query if it still runs, waits for it to end and releases
// the current batch. It returns Err, and may be called again.
func (r *Rows) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if !r.closed {
		r.closed = true
		r.mu.Lock()
		r.closing = true
		r.mu.Unlock()
		r.cancel()
		<-r.done
	}
	return r.err
}

// Summary counts what the query did (rows read, late rows dropped, bad
// rows skipped, result rows). It is complete once Next returned false or
// Close returned; the zero Summary before.
func (r *Rows) Summary() Summary {
	select {
	case <-r.done:
		return r.summary
	default:
		return Summary{}
	}
}

// All iterates over the batches; a failure ends the loop with a nil batch
// and the error. Each batch is valid for one turn of the loop. Rows is
// closed when the loop ends, also by break.
func (r *Rows) All() iter.Seq2[RecordBatch, error] {
	return func(yield func(RecordBatch, error) bool) {
		defer r.Close()
		for r.Next() {
			if !yield(r.cur, nil) {
				return
			}
		}
		if err := r.Err(); err != nil {
			yield(nil, err)
		}
	}
}
