package jdbc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/windowop"
)

// mode is what differs between append and upsert tables: what a row of
// the buffer holds, and how a flush applies the buffer.
type mode interface {
	// row appends row i of cols (the table's columns) to the buffer, its
	// row kind given; false when the row is not written (-U).
	row(w *sinkWriter, kind windowop.RowKind, cols []arrow.Array, i int) bool
	// setup prepares a new connection (upsert: its staging table).
	setup(ctx context.Context, w *sinkWriter) error
	// flush applies the buffer on w.conn.
	flush(ctx context.Context, w *sinkWriter) error
	// reset empties the buffer after a flush; w.buf, the COPY stream,
	// is emptied by the writer.
	reset()
}

// sinkWriter writes a run's rows to the table: they are encoded into a
// buffer of PostgreSQL's binary COPY format as they come, and flushed
// when it holds 'sink.buffer-flush.max-rows' rows, when a row has waited
// 'sink.buffer-flush.interval' (a timer goroutine flushes then), at each
// checkpoint, and at the end.
type sinkWriter struct {
	s    *tableSink
	mode mode
	cols []arrow.Array // the table's columns of the batch written, reused

	mu   sync.Mutex
	conn *pgconn.PgConn
	buf  []byte // the COPY stream: its header and the rows buffered
	rows int    // buffered
	// failed is a timed flush's error, returned by the next call.
	failed error
	closed bool
	// checkpoints: the run takes checkpoints, which flush; Close writes
	// nothing more.
	checkpoints bool
	// inTxn: the connection is in a transaction a failure loses, so a
	// flush is not tried again (append with checkpoints).
	inTxn bool
	// holding: a checkpoint's transaction is prepared and not yet
	// committed; a flush now would write outside any transaction.
	holding bool

	stop chan struct{} // ends the timer
	done chan struct{}
}

// flushTimeout bounds one flush, its retries included.
const flushTimeout = 5 * time.Minute

func (w *sinkWriter) start() {
	w.buf = append(w.buf[:0], copyHeader...)
	if w.s.cfg.interval <= 0 {
		return
	}
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go w.timer(w.s.cfg.interval)
}

// timer flushes rows that have waited the flush interval.
func (w *sinkWriter) timer(every time.Duration) {
	defer close(w.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		w.mu.Lock()
		if w.rows > 0 && w.failed == nil && !w.closed && !w.holding {
			w.failed = w.flushLocked()
		}
		w.mu.Unlock()
	}
}

func (w *sinkWriter) WriteBatch(rec arrow.RecordBatch) error {
	return w.write(rec, nil)
}

// write buffers the rows of rec sel names, all of them when sel is nil.
func (w *sinkWriter) write(rec arrow.RecordBatch, sel []int32) error {
	n := int(rec.NumRows())
	if sel != nil {
		n = len(sel)
	}
	if n == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.failed != nil {
		return w.failed
	}
	var kinds *array.String
	shift := 0
	if windowop.IsRowKindField(rec.Schema().Field(0)) {
		kinds, shift = rec.Column(0).(*array.String), 1
	}
	schema := w.s.schema
	for c := range w.cols {
		q := w.s.phys[c]
		if w.s.order != nil {
			q = w.s.order[q]
		}
		w.cols[c] = rec.Column(q + shift)
	}
	for c, col := range w.cols {
		if !schema.Field(w.s.phys[c]).Nullable && col.NullN() > 0 {
			all := make([]arrow.Array, schema.NumFields())
			for i := range all {
				q := i
				if w.s.order != nil {
					q = w.s.order[i]
				}
				all[i] = rec.Column(q + shift)
			}
			return connector.NotNullError(w.s.table.Name, schema, w.s.phys[c], all, w.s.loc)
		}
	}
	kind := windowop.Insert
	for j := range n {
		i := j
		if sel != nil {
			i = int(sel[j])
		}
		if kinds != nil {
			kind = windowop.RowKind(kinds.Value(i))
		}
		if w.mode.row(w, kind, w.cols, i) {
			w.rows++
		}
		if max := w.s.cfg.maxRows; max > 0 && w.rows >= max {
			if err := w.flushLocked(); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendRow appends a COPY tuple of row i of cols, and extra fields
// after them (the upsert mode's sequence number and deletion flag).
func (w *sinkWriter) appendRow(cols []arrow.Array, i int, extra int) {
	b := be.AppendUint16(w.buf, uint16(len(cols)+extra))
	for c, col := range cols {
		b = appendField(b, w.s.enc[c], col, i)
	}
	w.buf = b
}

// flushLocked applies the buffered rows, trying again (on a new
// connection) after a lost connection, unless a transaction was lost with
// it.
func (w *sinkWriter) flushLocked() error {
	if w.rows == 0 {
		return nil
	}
	if w.holding {
		return w.s.wrap("flushing rows", errors.New("a checkpoint's transaction is prepared and not yet committed"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := w.retrying(ctx, func() error { return w.mode.flush(ctx, w) }); err != nil {
		return w.s.wrap("flushing rows", err)
	}
	w.buf, w.rows = append(w.buf[:0], copyHeader...), 0
	w.mode.reset()
	return nil
}

// retrying runs op, again after a failure that lost the connection or a
// serialization failure or deadlock, at most 'sink.max-retries' times.
func (w *sinkWriter) retrying(ctx context.Context, op func() error) error {
	for attempt := 0; ; attempt++ {
		err := w.connect(ctx)
		if err == nil {
			if err = op(); err == nil {
				return nil
			}
		}
		if w.inTxn || attempt >= w.s.cfg.maxRetries || !retriable(err, w.conn) {
			return err
		}
		if w.conn != nil && w.conn.IsClosed() {
			w.conn = nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
}

// retriable reports a failure worth trying again.
func retriable(err error, conn *pgconn.PgConn) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case pg.Code == "40001", pg.Code == "40P01": // serialization failure, deadlock
			return true
		case len(pg.Code) == 5 && (pg.Code[:2] == "08" || pg.Code[:3] == "57P"): // connection, shutdown
			return true
		}
		return false
	}
	return conn == nil || conn.IsClosed() || pgconn.SafeToRetry(err)
}

// connect opens the connection when there is none.
func (w *sinkWriter) connect(ctx context.Context) error {
	if w.conn != nil {
		return nil
	}
	conn, err := pgconn.ConnectConfig(ctx, w.s.cfg.conn)
	if err != nil {
		return err
	}
	w.conn = conn
	if err := w.mode.setup(ctx, w); err != nil {
		conn.Close(context.Background())
		w.conn = nil
		return err
	}
	return nil
}

// copyIn copies the buffer in with the COPY statement stmt.
func (w *sinkWriter) copyIn(ctx context.Context, stmt string) error {
	w.buf = append(w.buf, copyTrailer...)
	_, err := w.conn.CopyFrom(ctx, bytes.NewReader(w.buf), stmt)
	w.buf = w.buf[:len(w.buf)-len(copyTrailer)]
	return err
}

// exec runs statements with the simple protocol.
func (w *sinkWriter) exec(ctx context.Context, statements string) error {
	_, err := w.conn.Exec(ctx, statements).ReadAll()
	return err
}

// Close flushes what is buffered and closes the connection; with
// checkpoints, the last checkpoint wrote what the run wrote, and what
// came after it is dropped (a restart writes it again).
func (w *sinkWriter) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return writer.ErrWriterClosed
	}
	w.closed = true
	w.mu.Unlock()
	if w.stop != nil {
		close(w.stop)
		<-w.done
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.failed
	if err == nil && !w.checkpoints {
		err = w.flushLocked()
	}
	if w.conn != nil {
		w.conn.Close(context.Background())
		w.conn = nil
	}
	return err
}

// wrap names the table and the database in an error, without the
// password.
func (s *tableSink) wrap(what string, err error) error {
	msg := err.Error()
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Detail != "" {
		msg += " (" + pg.Detail + ")"
	}
	return errors.New(redact(fmt.Sprintf("table %s (PostgreSQL table %s at %s): %s: %s", s.table.Name, s.cfg.table, s.cfg.shown, what, msg), s.cfg.password))
}

// connectTo opens a connection to the sink's database.
func connectTo(ctx context.Context, s *tableSink) (*pgconn.PgConn, error) {
	conn, err := pgconn.ConnectConfig(ctx, s.cfg.conn)
	if err != nil {
		return nil, s.wrap("connecting", err)
	}
	return conn, nil
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
