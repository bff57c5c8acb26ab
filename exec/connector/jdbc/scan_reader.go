package jdbc

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/exec"
)

// maxConnections bounds the connections a read opens: with more ranges,
// each connection reads several, one after the other.
const maxConnections = 8

// scanReader is the BatchReader of a Source. Each of its connections
// reads its ranges on a goroutine of its own, ranges i, i+n, i+2n, ... of
// n connections, in batches of the batch size; Next hands out the
// connections' steps in turn, one each, so the order of the steps is
// the same at every read of an unchanged table.
//
// Every connection reads in a read-only REPEATABLE READ transaction; with
// several, the first exports its snapshot (pg_export_snapshot) and the
// others read in it (SET TRANSACTION SNAPSHOT), so the ranges together
// are the table at one moment, as one query would read it.
type scanReader struct {
	s       *Source
	cancel  context.CancelFunc
	workers []*scanWorker
	wg      sync.WaitGroup
	turn    int // the worker whose step Next hands out next
	live    int // workers whose steps have not all been handed out
	stats   exec.SourceStats
	err     error
	closed  bool
}

// scanWorker is one connection of a read and the ranges it reads.
type scanWorker struct {
	conn   *pgconn.PgConn
	ranges []int
	steps  chan scanStep
	done   bool // steps is closed and drained
}

// scanStep is a step of a worker: a batch, the end of a range, or the
// error that ended the worker.
type scanStep struct {
	step exec.SplitBatch
	err  error
}

func openScan(s *Source, mem memory.Allocator) (*scanReader, error) {
	n := min(s.NumSplits(), maxConnections)
	ctx, cancel := context.WithCancel(context.Background())
	r := &scanReader{s: s, cancel: cancel}
	fail := func(err error) (*scanReader, error) {
		for _, w := range r.workers {
			w.conn.Close(context.Background())
		}
		cancel()
		return nil, err
	}
	openCtx, openCancel := context.WithTimeout(ctx, checkTimeout)
	defer openCancel()
	snapshot := ""
	for i := range n {
		conn, err := pgconn.ConnectConfig(openCtx, s.cfg.conn)
		if err != nil {
			return fail(s.cfg.wrap(s.Table, "connecting", err))
		}
		w := &scanWorker{conn: conn, steps: make(chan scanStep, 2)}
		r.workers = append(r.workers, w)
		begin := "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "
		if snapshot != "" {
			begin += "SET TRANSACTION SNAPSHOT " + quoteLiteral(snapshot) + "; "
		}
		// the same order of rows at every read: no scan joins another's
		begin += "SET LOCAL synchronize_seqscans = off"
		if _, err := conn.Exec(openCtx, begin).ReadAll(); err != nil {
			return fail(s.cfg.wrap(s.Table, "starting the read's transaction", err))
		}
		if i == 0 && n > 1 {
			res := conn.ExecParams(openCtx, "SELECT pg_export_snapshot()", nil, nil, nil, nil).Read()
			if res.Err != nil {
				return fail(s.cfg.wrap(s.Table, "exporting the read's snapshot", res.Err))
			}
			snapshot = string(res.Rows[0][0])
		}
	}
	for split := range s.NumSplits() {
		w := r.workers[split%n]
		w.ranges = append(w.ranges, split)
	}
	// the columns, read in the snapshot the rows are
	pg, err := readPGColumns(openCtx, r.workers[0].conn, s.cfg.table)
	if err != nil {
		return fail(s.cfg.tableError(s.table, err))
	}
	cols, err := pgColumnsOf(s.table, s.cfg, pg, s.phys, reading)
	if err != nil {
		return fail(err)
	}
	decoders := make([]decoder, len(cols))
	names := make([]string, len(cols))
	for j, col := range cols {
		d, err := readMatch(s.Table, s.cfg.table, s.table.Columns[s.phys[j]], col)
		if err != nil {
			return fail(err)
		}
		decoders[j], names[j] = d, quoteIdent(col.name)
	}
	var partCol string
	if p := s.scan.partition; p != nil {
		for j, i := range s.phys {
			if i == p.col {
				partCol = names[j]
			}
		}
	}
	r.live = len(r.workers)
	for _, w := range r.workers {
		q := &scanQuery{s: s, w: w, mem: mem, decoders: decoders, columns: names, partCol: partCol}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			q.run(ctx)
		}()
	}
	return r, nil
}

func (r *scanReader) Next() (exec.SplitBatch, error) {
	if r.err != nil {
		return exec.SplitBatch{}, r.err
	}
	for r.live > 0 {
		w := r.workers[r.turn]
		r.turn = (r.turn + 1) % len(r.workers)
		if w.done {
			continue
		}
		st, ok := <-w.steps
		if !ok {
			w.done = true
			r.live--
			continue
		}
		if st.err != nil {
			r.err = st.err
			return exec.SplitBatch{}, st.err
		}
		if st.step.Record != nil {
			r.stats.Rows += st.step.Record.NumRows()
		}
		return st.step, nil
	}
	return exec.SplitBatch{}, io.EOF
}

func (r *scanReader) NumSplits() int { return r.s.NumSplits() }

func (r *scanReader) Stats() exec.SourceStats { return r.stats }

// Close stops the workers, releases the batches they made that were not
// handed out and closes the connections.
func (r *scanReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.cancel()
	for _, w := range r.workers {
		for st := range w.steps {
			if st.step.Record != nil {
				st.step.Record.Release()
			}
		}
		w.done = true
	}
	r.wg.Wait()
	return nil
}

// scanQuery is what a worker's goroutine reads with.
type scanQuery struct {
	s        *Source
	w        *scanWorker
	mem      memory.Allocator
	decoders []decoder
	columns  []string // the PostgreSQL columns read, quoted
	partCol  string   // the partition column, quoted
	// set by run
	rb      *array.RecordBuilder
	readers []valueReader
	notNull []bool
	rows    int // in rb
}

// run reads the worker's ranges and closes its connection.
func (q *scanQuery) run(ctx context.Context) {
	defer close(q.w.steps)
	defer q.w.conn.Close(context.Background())
	q.rb = array.NewRecordBuilder(q.mem, q.s.Schema)
	defer q.rb.Release()
	for j, d := range q.decoders {
		q.readers = append(q.readers, d(q.rb.Field(j)))
		q.notNull = append(q.notNull, !q.s.Schema.Field(j).Nullable)
	}
	q.rb.Reserve(q.s.BatchSize)
	for _, split := range q.w.ranges {
		err := q.readRange(ctx, split)
		if err == nil {
			err = q.flush(ctx, split)
		}
		if err == nil && !q.send(ctx, scanStep{step: exec.SplitBatch{Split: split, End: true}}) {
			return
		}
		if err != nil {
			if ctx.Err() == nil {
				q.send(ctx, scanStep{err: err})
			}
			return
		}
	}
	_, _ = q.w.conn.Exec(ctx, "COMMIT").ReadAll()
}

// send hands a step to Next; false when the read was closed (a batch
// not handed out is released).
func (q *scanQuery) send(ctx context.Context, st scanStep) bool {
	select {
	case q.w.steps <- st:
		return true
	case <-ctx.Done():
		if st.step.Record != nil {
			st.step.Record.Release()
		}
		return false
	}
}

// statement is the query of range split.
func (q *scanQuery) statement(split int) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	b.WriteString(strings.Join(q.columns, ", "))
	b.WriteString(" FROM ")
	b.WriteString(q.s.cfg.table)
	if p := q.s.scan.partition; p != nil {
		b.WriteString(" WHERE ")
		b.WriteString(p.where(split, q.partCol))
	}
	return b.String()
}

// binary asks for every column in binary form.
var binaryResults = []int16{1}

// readRange reads the rows of range split into batches: by one query
// streamed whole, or through a cursor 'scan.fetch-size' rows a round
// trip.
func (q *scanQuery) readRange(ctx context.Context, split int) error {
	stmt := q.statement(split)
	if q.s.onQuery != nil {
		q.s.onQuery(stmt)
	}
	conn := q.w.conn
	if q.s.scan.fetchSize == 0 {
		_, err := q.count(ctx, split, conn.ExecParams(ctx, stmt, nil, nil, nil, binaryResults))
		return err
	}
	if _, err := conn.Exec(ctx, "DECLARE wsql_scan NO SCROLL CURSOR FOR "+stmt).ReadAll(); err != nil {
		return q.s.cfg.wrap(q.s.Table, "reading", err)
	}
	fetch := "FETCH FORWARD " + strconv.Itoa(q.s.scan.fetchSize) + " FROM wsql_scan"
	for {
		rr := conn.ExecParams(ctx, fetch, nil, nil, nil, binaryResults)
		n, err := q.count(ctx, split, rr)
		if err != nil {
			return err
		}
		if n < q.s.scan.fetchSize {
			break
		}
	}
	_, err := conn.Exec(ctx, "CLOSE wsql_scan").ReadAll()
	if err != nil {
		return q.s.cfg.wrap(q.s.Table, "reading", err)
	}
	return nil
}

// count reads a result's rows into batches, sending each full one: the
// number of rows.
func (q *scanQuery) count(ctx context.Context, split int, rr *pgconn.ResultReader) (int, error) {
	n := 0
	var bad error
	for rr.NextRow() {
		n++
		vals := rr.Values()
		if len(vals) != len(q.readers) {
			bad = errBadValue
			break
		}
		for j, v := range vals {
			if v == nil {
				if q.notNull[j] {
					bad = q.nullError(j)
					break
				}
				q.rb.Field(j).AppendNull()
				continue
			}
			if err := q.readers[j].value(v); err != nil {
				bad = q.valueError(j, err)
				break
			}
		}
		if bad != nil {
			break
		}
		q.rows++
		if q.rows >= q.s.BatchSize {
			if err := q.flush(ctx, split); err != nil {
				bad = err
				break
			}
		}
	}
	if bad != nil && ctx.Err() == nil {
		// the rest of the result is not wanted: the server stops sending it
		_ = q.w.conn.CancelRequest(ctx)
	}
	_, err := rr.Close()
	if bad != nil {
		return n, bad
	}
	if err != nil {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		return n, q.s.cfg.wrap(q.s.Table, "reading", err)
	}
	return n, nil
}

// flush sends the rows built as a batch of split, if there are any.
func (q *scanQuery) flush(ctx context.Context, split int) error {
	if q.rows == 0 {
		return nil
	}
	rec := q.rb.NewRecordBatch()
	q.rows = 0
	q.rb.Reserve(q.s.BatchSize)
	if !q.send(ctx, scanStep{step: exec.SplitBatch{Record: rec, Split: split}}) {
		return context.Canceled
	}
	return nil
}

func (q *scanQuery) column(j int) string { return q.s.table.Columns[q.s.phys[j]].Name }

func (q *scanQuery) nullError(j int) error {
	why := "NOT NULL"
	if wm := q.s.table.Watermark; wm != nil && wm.Column == q.column(j) {
		why = "the rowtime of the table's WATERMARK"
	}
	return fmt.Errorf("table %s: column %s is %s, but PostgreSQL table %s has a row with NULL in it; filter such rows out in a view, or declare the column nullable",
		q.s.Table, q.column(j), why, q.s.cfg.table)
}

func (q *scanQuery) valueError(j int, err error) error {
	return fmt.Errorf("table %s: reading column %s (%s) of PostgreSQL table %s: %w",
		q.s.Table, q.column(j), q.s.table.Columns[q.s.phys[j]].SQLType, q.s.cfg.table, err)
}

var _ exec.BatchReader = (*scanReader)(nil)
