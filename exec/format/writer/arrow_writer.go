package writer

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

type arrowWriter struct {
	schema *arrow.Schema
	w      *ipc.Writer
	closed bool
}

// NewArrowWriter writes results as an Arrow IPC stream: the schema, then
// one record batch per result batch as it arrives (so a reader sees
// windows as they fire), then the end-of-stream marker on Close. Values
// keep their Arrow types, so no time zone applies. Close does not close w.
func NewArrowWriter(w io.Writer, schema *arrow.Schema) ResultWriter {
	return &arrowWriter{schema: schema, w: ipc.NewWriter(w, ipc.WithSchema(schema))}
}

func (a *arrowWriter) WriteBatch(rec arrow.RecordBatch) error {
	if a.closed {
		return ErrWriterClosed
	}
	if int(rec.NumCols()) != a.schema.NumFields() {
		return fmt.Errorf("arrow writer: batch has %d columns, schema has %d", rec.NumCols(), a.schema.NumFields())
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if !rec.Schema().Equal(a.schema) {
		// same columns, other names or nullability: the stream has one schema
		for i, col := range rec.Columns() {
			if !arrow.TypeEqual(col.DataType(), a.schema.Field(i).Type) {
				return fmt.Errorf("arrow writer: column %d is %s, schema has %s", i+1, col.DataType(), a.schema.Field(i).Type)
			}
		}
		rec = array.NewRecordBatch(a.schema, rec.Columns(), rec.NumRows())
		defer rec.Release()
	}
	if err := a.w.Write(rec); err != nil {
		return fmt.Errorf("arrow writer: %w", err)
	}
	return nil
}

func (a *arrowWriter) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if err := a.w.Close(); err != nil {
		return fmt.Errorf("arrow writer: %w", err)
	}
	return nil
}
