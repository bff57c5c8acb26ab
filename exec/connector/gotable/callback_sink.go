package gotable

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// CallbackSink is a sink table a Go program registered: an INSERT INTO it
// hands every result batch to Write as windows fire.
type CallbackSink struct {
	// Write receives each batch, with the sink table's column names, in
	// its order, after the row-kind column `op` when the query produces an
	// update stream. It does not own the batch: Retain it to keep it past
	// the call. An error stops the INSERT.
	Write func(context.Context, arrow.RecordBatch) error
	// Table is the sink table's name, for messages.
	Table string
}

// Writer returns the writer of one INSERT running in ctx: schema is the
// sink table's columns and columns the query column written to each (nil:
// in order).
func (s *CallbackSink) Writer(ctx context.Context, schema *arrow.Schema, columns []int) writer.ResultWriter {
	return &callbackWriter{ctx: ctx, sink: s, schema: schema, columns: columns}
}

type callbackWriter struct {
	ctx     context.Context
	sink    *CallbackSink
	schema  *arrow.Schema
	columns []int
	withOp  *arrow.Schema // schema after the row-kind column, made once
}

// WriteBatch relabels the batch's columns (no copy) and calls Write.
func (w *callbackWriter) WriteBatch(rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	schema, skip := w.schema, 0
	var cols []arrow.Array
	if rec.NumCols() > 0 && windowop.IsRowKindField(rec.Schema().Field(0)) {
		if w.withOp == nil {
			w.withOp = arrow.NewSchema(append([]arrow.Field{rec.Schema().Field(0)}, w.schema.Fields()...), nil)
		}
		schema, skip = w.withOp, 1
		cols = append(cols, rec.Column(0))
	}
	for i := range w.schema.NumFields() {
		c := i
		if w.columns != nil {
			c = w.columns[i]
		}
		cols = append(cols, rec.Column(c+skip))
	}
	out := array.NewRecordBatch(schema, cols, rec.NumRows())
	defer out.Release()
	return w.call(out)
}

// call hands out to the program's function; a panic there is the
// program's, and ends the INSERT with an error that says so.
func (w *callbackWriter) call(out arrow.RecordBatch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = pipeline.PanicAsError(r, "the SinkFunc of sink table "+w.sink.Table)
		}
	}()
	return w.sink.Write(w.ctx, out)
}

func (w *callbackWriter) Close() error { return nil }
