package wsql

import (
	"context"
	"fmt"
	"time"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector/gotable"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/planner"
)

// PushTable is a table whose rows the Go program pushes, created by
// CreatePushTable. It has one split to begin with, which its methods
// write to (see PushSplit); AddSplit adds more, each with its own
// watermark, like the files of a directory. Close ends the whole table.
//
// One query reads a pushed table at a time. Rows pushed while no query
// reads it wait in a bounded queue (16 batches); pushing blocks while the
// queue is full, so push from a goroutine of its own when the query runs
// in the same program. Its methods are safe for concurrent use.
type PushTable struct {
	*PushSplit // the first split
	name       string
	src        *gotable.PushSource
}

// PushSplit is one split of a pushed table: a sequence of rows with its
// own watermark. The table's watermark is the minimum over its active
// splits, so a split whose events lag behind does not make the others'
// rows late.
type PushSplit struct {
	table *PushTable
	split int
	// fromSource is set when the table declares SOURCE_WATERMARK(): the
	// program states the watermark with AdvanceWatermark.
	fromSource bool
}

// CreatePushTable declares a table whose rows the program pushes. ddl is
// one CREATE TABLE without a 'connector' option; its WATERMARK works as
// for any table, computed from the rows pushed, or, declared as
// `WATERMARK FOR ts AS SOURCE_WATERMARK()`, comes only from
// AdvanceWatermark. 'scan.watermark.idle-timeout' and
// 'scan.watermark.max-future' are the options it takes.
//
//	clicks, err := e.CreatePushTable(ctx, `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING,
//	    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)`)
//	clicks.AppendRow(ctx, time.Now(), "alice")
func (e *Engine) CreatePushTable(ctx context.Context, ddl string) (*PushTable, error) {
	var src *gotable.PushSource
	t, err := e.createGoTable(ctx, ddl, func(t *catalog.Table) (catalog.Attachment, error) {
		src = gotable.NewPushSource(planner.SourceSchema(t), e.mem, e.batchSize)
		return &gotable.Push{Source: src}, nil
	})
	if err != nil {
		return nil, err
	}
	pt := &PushTable{name: t.Name, src: src}
	pt.PushSplit = &PushSplit{table: pt, split: 0, fromSource: t.Watermark != nil && t.Watermark.Source}
	return pt, nil
}

// Name is the table's name.
func (t *PushTable) Name() string { return t.name }

// Schema is the Arrow schema of the rows Append takes: the table's
// physical columns, in order (computed columns are computed by wsql).
func (t *PushTable) Schema() *Schema { return t.src.Schema() }

// AddSplit adds a split. A split that joins while a query runs holds the
// table's watermark back from then on until it catches up, goes idle or
// is closed.
func (t *PushTable) AddSplit() *PushSplit {
	return &PushSplit{table: t, split: t.src.AddSplit(), fromSource: t.fromSource}
}

// Close ends every split of the table: the query reading it sees the end
// of its input once it has read what was pushed, and fires its remaining
// windows.
func (t *PushTable) Close() (err error) {
	defer pipeline.CatchPanic(&err)
	return t.src.Close()
}

// Append pushes a batch of rows. Its schema must be the table's Schema
// (names and Arrow types); the table retains the batch, so the caller may
// release its reference at once. It waits while the queue is full. A
// STRING value that is not valid UTF-8, or a DECIMAL with more digits than
// its precision, refuses the batch, naming the column and row.
func (s *PushSplit) Append(ctx context.Context, batch RecordBatch) (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.Append(ctx, s.split, batch))
}

// AppendRow pushes one row: a Go value per physical column, in order.
// Integer columns take any Go integer that fits; FLOAT and DOUBLE take
// floats and integers (a finite value past FLOAT's range is an error);
// DECIMAL a string such as "12.50", a float (not NaN or an infinity) or an
// integer; STRING a string or []byte of valid UTF-8; BOOLEAN a bool;
// TIMESTAMP(3) and TIMESTAMP_LTZ(3) a time.Time (its instant: TIMESTAMP
// shows it in UTC); DATE a time.Time (its date); TIME a time.Time or a
// time.Duration since midnight; nil is NULL. A value that does not fit is
// an error naming the column, and nothing of the row is pushed.
func (s *PushSplit) AppendRow(ctx context.Context, values ...any) (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.AppendValues(ctx, s.split, values))
}

// AppendStruct pushes one row from a struct (or a pointer to one): each
// column takes the field tagged `wsql:"column"`, or else the exported field
// named like the column, ignoring case; a column without a field is NULL.
// Values convert as in AppendRow.
func (s *PushSplit) AppendStruct(ctx context.Context, v any) (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.AppendStruct(ctx, s.split, v))
}

// AppendMap pushes one row whose values are keyed by column name,
// ignoring case; a missing column is NULL, a key that names no column is
// an error. Values convert as in AppendRow.
func (s *PushSplit) AppendMap(ctx context.Context, row map[string]any) (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.AppendMap(ctx, s.split, row))
}

// AdvanceWatermark states the split's watermark: the split will push no
// more rows at or before wm (those that come are late). It needs a table
// declared with `WATERMARK FOR ts AS SOURCE_WATERMARK()`; other tables
// compute their watermark from the rows.
func (s *PushSplit) AdvanceWatermark(wm time.Time) (err error) {
	defer s.catchPanic(&err)
	if !s.fromSource {
		return fmt.Errorf("wsql: table %s computes its watermark from its rows; declare `WATERMARK FOR ts AS SOURCE_WATERMARK()` to state it with AdvanceWatermark", s.table.name)
	}
	return s.wrap(s.table.src.Watermark(s.split, wm.UnixMilli()))
}

// MarkIdle says the split has nothing to push for now: until it pushes
// rows or a watermark again, it no longer holds the table's watermark
// back, so windows of the other splits can close.
func (s *PushSplit) MarkIdle() (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.MarkIdle(s.split))
}

// Close ends the split (PushTable.Close ends them all).
func (s *PushSplit) Close() (err error) {
	defer s.catchPanic(&err)
	return s.wrap(s.table.src.CloseSplit(s.split))
}

// catchPanic, deferred in a push method, returns a panic of the engine as
// a PushError wrapping a *PanicError (see ErrInternal).
func (s *PushSplit) catchPanic(err *error) {
	if r := recover(); r != nil {
		*err = s.wrap(pipeline.PanicAsError(r, ""))
	}
}

// wrap names the table in errors.
func (s *PushSplit) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &PushError{Table: s.table.name, Split: s.split, Err: err}
}

// ErrPushClosed is the error (inside a PushError) of pushing to a split or
// table that was closed, dropped, or whose engine was closed.
var ErrPushClosed = gotable.ErrPushClosed

// PushError is an error pushing to a table from Go.
type PushError struct {
	Table string
	Split int
	Err   error
}

func (e *PushError) Error() string {
	return "wsql: pushing to table " + e.Table + ": " + e.Err.Error()
}

func (e *PushError) Unwrap() error { return e.Err }
