package gotable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
)

// ErrPushClosed is returned when rows are pushed to a split or table that
// was closed (or released with its engine).
var ErrPushClosed = errors.New("the pushed table or split is closed")

// PushSource is a table whose rows a Go program pushes: Arrow batches or
// Go values, split by split, with watermarks and idleness the program may
// state itself. One query reads it at a time; what is pushed while no
// query reads waits in a bounded queue, and pushing blocks while the queue
// is full, so a slow query slows the producer instead of growing memory.
//
// Rows pushed one at a time collect in a builder per split and are cut
// into batches of the batch size, or sooner when the reader would
// otherwise wait: results never depend on where batches are cut. Every
// step of a split (rows, watermark, idleness, end) reaches the query in
// the order the program made it. A PushSource is safe for concurrent use;
// steps of different splits pushed from different goroutines interleave
// as they happen to.
type PushSource struct {
	schema    *arrow.Schema
	mem       memory.Allocator
	batchSize int
	maxQueued int64 // rows the queue holds before pushing blocks

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced whenever the state moves
	queue      []pushStep
	queuedRows int64
	splits     []*pushSplit
	reading    bool
	released   bool
	pending    int // the split whose builder holds rows, or -1
	row        []goValue
}

type pushSplit struct {
	b      *array.RecordBuilder // rows not yet cut into a batch; nil once closed
	closed bool
}

// pushStep is one step of a split waiting for the reader.
type pushStep struct {
	split int
	rec   arrow.RecordBatch
	wm    int64
	kind  pushKind
}

type pushKind uint8

const (
	pushRows pushKind = iota
	pushWatermark
	pushIdle
	pushEnd
)

// NewPushSource returns a source of schema's rows (the table's physical
// columns) with one split. Rows pushed as Go values are built with mem.
func NewPushSource(schema *arrow.Schema, mem memory.Allocator, batchSize int) *PushSource {
	if batchSize <= 0 {
		batchSize = exec.DefaultBatchSize
	}
	s := &PushSource{schema: schema, mem: mem, batchSize: batchSize, maxQueued: 16 * int64(batchSize), changed: make(chan struct{}), pending: -1}
	s.AddSplit()
	return s
}

// Schema is the schema of the rows the source takes.
func (s *PushSource) Schema() *arrow.Schema { return s.schema }

// AddSplit adds a split and returns its index. A split that joins while a
// query runs starts without a watermark and holds the table's watermark
// back until it catches up, goes idle or closes, as a new file of a
// followed directory does.
func (s *PushSource) AddSplit() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.splits = append(s.splits, &pushSplit{b: array.NewRecordBuilder(s.mem, s.schema)})
	s.notify()
	return len(s.splits) - 1
}

// NumSplits is the number of splits so far.
func (s *PushSource) NumSplits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.splits)
}

// Append queues a batch of split's rows. The batch must have the table's
// columns; the source retains it, so the caller may release its own
// reference at once. It waits while the queue is full.
func (s *PushSource) Append(ctx context.Context, split int, rec arrow.RecordBatch) error {
	if err := CheckSchema(rec.Schema(), s.schema); err != nil {
		return err
	}
	for i, f := range s.schema.Fields() {
		if n := rec.Column(i).NullN(); !f.Nullable && n > 0 {
			return fmt.Errorf("column %s is NOT NULL (a rowtime column is) and the batch has %d nulls in it", f.Name, n)
		}
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if err := checkPushedValues(rec); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, err := s.open(split)
	if err != nil {
		return err
	}
	if err := s.waitForRoom(ctx); err != nil {
		return err
	}
	if sp.closed || s.released {
		return ErrPushClosed
	}
	s.flush(split)
	rec.Retain()
	s.enqueue(pushStep{split: split, rec: rec, kind: pushRows})
	return nil
}

// AppendValues adds one row of Go values, one per column in table order
// (see convertGoValue for what each column takes).
func (s *PushSource) AppendValues(ctx context.Context, split int, values []any) error {
	if len(values) != s.schema.NumFields() {
		return fmt.Errorf("the row has %d values, the table has %d columns (%s)", len(values), s.schema.NumFields(), fieldList(s.schema))
	}
	return s.appendRow(ctx, split, func(i int) any { return values[i] })
}

// AppendMap adds one row whose values are named by column (ignoring
// case); a column without an entry is NULL, an entry without a column an
// error.
func (s *PushSource) AppendMap(ctx context.Context, split int, m map[string]any) error {
	idx := make([]string, s.schema.NumFields())
	for k := range m {
		found := false
		for i, f := range s.schema.Fields() {
			if strings.EqualFold(k, f.Name) {
				idx[i], found = k, true
			}
		}
		if !found {
			return fmt.Errorf("the table has no column %s (columns: %s)", k, fieldList(s.schema))
		}
	}
	return s.appendRow(ctx, split, func(i int) any {
		if idx[i] == "" {
			return nil
		}
		return m[idx[i]]
	})
}

// AppendStruct adds one row from a struct or a pointer to one: each column
// takes the field tagged `wsql:"column"` or the exported field of its
// name, ignoring case; a column without a field is NULL.
func (s *PushSource) AppendStruct(ctx context.Context, split int, v any) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("AppendStruct takes a struct, not %T", v)
	}
	cols, err := columnsOfStruct(rv.Type(), s.schema)
	if err != nil {
		return err
	}
	return s.appendRow(ctx, split, func(i int) any {
		if j := cols.fields[i]; j >= 0 {
			return rv.Field(j).Interface()
		}
		return nil
	})
}

// appendRow converts the row's values (value(i) is column i's), then
// appends them to the split's builder: a value that does not fit leaves
// nothing behind.
func (s *PushSource) appendRow(ctx context.Context, split int, value func(int) any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, err := s.open(split)
	if err != nil {
		return err
	}
	s.row = s.row[:0]
	for i, f := range s.schema.Fields() {
		v, err := convertGoValue(value(i), f)
		if err != nil {
			return err
		}
		s.row = append(s.row, v)
	}
	// Rows wait in a builder, of one split at a time: a row of another
	// split first cuts the pending ones, so the query sees rows in the
	// order they were pushed.
	if p := s.pending; (p != split && p >= 0) || sp.b.Field(0).Len() >= s.batchSize {
		if err := s.waitForRoom(ctx); err != nil {
			return err
		}
		if sp.closed || s.released {
			return ErrPushClosed
		}
		if s.pending >= 0 {
			s.flush(s.pending)
		}
	}
	s.pending = split
	for i, v := range s.row {
		appendGoValue(sp.b.Field(i), v)
	}
	s.notify()
	return nil
}

// Watermark states split's watermark (event time in ms): rows pushed to
// it later with a time at or below it are late. Only a table declared
// with `WATERMARK FOR ts AS SOURCE_WATERMARK()` uses it. It never blocks.
func (s *PushSource) Watermark(split int, wm int64) error {
	return s.mark(split, pushStep{split: split, wm: wm, kind: pushWatermark})
}

// MarkIdle says split has nothing to push for now: it stops holding the
// table's watermark back until it pushes rows or a watermark again.
func (s *PushSource) MarkIdle(split int) error {
	return s.mark(split, pushStep{split: split, kind: pushIdle})
}

// CloseSplit ends split: it pushes nothing more and no longer holds the
// watermark back. Closing a closed split does nothing.
func (s *PushSource) CloseSplit(split int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if split < 0 || split >= len(s.splits) {
		return fmt.Errorf("split %d does not exist (the table has %d)", split, len(s.splits))
	}
	if s.splits[split].closed || s.released {
		return nil
	}
	s.flush(split)
	s.closeBuilder(split)
	s.enqueue(pushStep{split: split, kind: pushEnd})
	return nil
}

// Close ends every split: once the queue is read, the query reading the
// table sees the end of its input and fires its remaining windows.
func (s *PushSource) Close() error {
	for i := range s.NumSplits() {
		if err := s.CloseSplit(i); err != nil {
			return err
		}
	}
	return nil
}

// Release closes the source and drops what no query has read yet: for a
// table that is dropped or an engine that is closed.
func (s *PushSource) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.splits {
		s.closeBuilder(i)
	}
	s.pending = -1
	for _, st := range s.queue {
		if st.rec != nil {
			st.rec.Release()
		}
	}
	s.queue, s.queuedRows, s.released = nil, 0, true
	s.notify()
}

func (s *PushSource) mark(split int, st pushStep) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.open(split); err != nil {
		return err
	}
	s.flush(split)
	s.enqueue(st)
	return nil
}

// open returns split if rows may still be pushed to it; s.mu is held.
func (s *PushSource) open(split int) (*pushSplit, error) {
	if split < 0 || split >= len(s.splits) {
		return nil, fmt.Errorf("split %d does not exist (the table has %d)", split, len(s.splits))
	}
	if sp := s.splits[split]; !sp.closed && !s.released {
		return sp, nil
	}
	return nil, ErrPushClosed
}

// waitForRoom waits, with s.mu held and released while waiting, until the
// queue has room or the source was released.
func (s *PushSource) waitForRoom(ctx context.Context) error {
	for s.queuedRows >= s.maxQueued && !s.released {
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			s.mu.Lock()
			return ctx.Err()
		}
		s.mu.Lock()
	}
	return nil
}

// flush cuts split's pending rows into a batch at the end of the queue.
func (s *PushSource) flush(split int) {
	if split == s.pending {
		s.pending = -1
	}
	if b := s.splits[split].b; b != nil && b.Field(0).Len() > 0 {
		s.enqueue(pushStep{split: split, rec: b.NewRecordBatch(), kind: pushRows})
	}
}

func (s *PushSource) closeBuilder(split int) {
	sp := s.splits[split]
	sp.closed = true
	if sp.b != nil {
		sp.b.Release()
		sp.b = nil
	}
}

func (s *PushSource) enqueue(st pushStep) {
	s.queue = append(s.queue, st)
	if st.rec != nil {
		s.queuedRows += st.rec.NumRows()
	}
	s.notify()
}

// allClosed tells whether every split has ended; s.mu is held.
func (s *PushSource) allClosed() bool {
	for _, sp := range s.splits {
		if !sp.closed {
			return false
		}
	}
	return true
}

// notify wakes everyone waiting for the state to move; s.mu is held.
func (s *PushSource) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Open starts the read of the one query that may read the table now.
func (s *PushSource) Open(_ memory.Allocator, schema *arrow.Schema, _ int) (exec.BatchReader, error) {
	if err := CheckSchema(schema, s.schema); err != nil {
		return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reading {
		return nil, fmt.Errorf("%w: another query is reading this pushed table; one query reads it at a time", exec.ErrSource)
	}
	s.reading = true
	return &pushReader{s: s, ctx: context.Background()}, nil
}

// Explain names the connector for EXPLAIN.
func (s *PushSource) Explain() string { return "connector=[pushed from Go]" }

// Bounded is false: the table ends when the program closes it.
func (s *PushSource) Bounded() bool { return false }

// pushReader is the exec.BatchReader of the query reading a PushSource.
type pushReader struct {
	s      *PushSource
	ctx    context.Context
	rows   int64
	closed bool
}

// pushPoll is how long Next waits for a step before it reports nothing
// new, so the driver can check split idleness on the clock.
const pushPoll = 100 * time.Millisecond

// follow gives the reader the query's context: Next waits on it.
func (r *pushReader) Follow(ctx context.Context) { r.ctx = ctx }

func (r *pushReader) Next() (exec.SplitBatch, error) {
	s := r.s
	s.mu.Lock()
	for {
		if r.closed {
			s.mu.Unlock()
			return exec.SplitBatch{}, io.EOF
		}
		if len(s.queue) > 0 {
			st := s.queue[0]
			s.queue[0] = pushStep{}
			s.queue = s.queue[1:]
			if st.rec != nil {
				s.queuedRows -= st.rec.NumRows()
				r.rows += st.rec.NumRows()
			}
			s.notify() // room for a blocked producer
			s.mu.Unlock()
			switch st.kind {
			case pushWatermark:
				return exec.SplitBatch{Split: st.split, HasWatermark: true, Watermark: st.wm}, nil
			case pushIdle:
				return exec.SplitBatch{Split: st.split, Idle: true}, nil
			case pushEnd:
				return exec.SplitBatch{Split: st.split, End: true}, nil
			}
			return exec.SplitBatch{Split: st.split, Record: st.rec}, nil
		}
		// Nothing queued: rows still in a builder are cut now rather than
		// waiting for a full batch.
		if s.pending >= 0 {
			s.flush(s.pending)
		}
		if len(s.queue) > 0 {
			continue
		}
		if s.released || s.allClosed() {
			s.mu.Unlock()
			return exec.SplitBatch{}, io.EOF
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-r.ctx.Done():
			return exec.SplitBatch{}, r.ctx.Err()
		case <-time.After(pushPoll):
			return exec.SplitBatch{}, nil // nothing new
		}
		s.mu.Lock()
	}
}

func (r *pushReader) NumSplits() int { return r.s.NumSplits() }

func (r *pushReader) Stats() exec.SourceStats {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return exec.SourceStats{Rows: r.rows}
}

// Close lets another query read the table; what it has not read stays
// queued for that query.
func (r *pushReader) Close() error {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if !r.closed {
		r.closed = true
		r.s.reading = false
	}
	return nil
}
