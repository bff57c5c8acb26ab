package debezium

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
)

// Writing writes changes as Debezium's envelope, one JSON object a line.
// The schema a writer gets starts with the row kind column (+I, -U, +U,
// -D); the other columns are the row's fields.
type Writing struct{ Standard format.TimestampStandard }

var _ writer.Writing = Writing{}

func (w Writing) NewWriter(out io.Writer, schema *arrow.Schema, loc *time.Location) (writer.ResultWriter, error) {
	if schema.NumFields() == 0 {
		return nil, fmt.Errorf("debezium-json writer: the schema has no row kind column")
	}
	return &envelopeWriter{w: out, text: newEnvelopeText(schema, schema.NumFields(), loc, w.Standard), columns: schema.NumFields()}, nil
}

// envelopeWriter makes one Write per batch, as the json writer.
type envelopeWriter struct {
	w       io.Writer
	text    *envelopeText
	columns int
	buf     []byte
	closed  bool
}

func (w *envelopeWriter) WriteBatch(rec arrow.RecordBatch) error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if int(rec.NumCols()) != w.columns {
		return fmt.Errorf("debezium-json writer: batch has %d columns, schema has %d", rec.NumCols(), w.columns)
	}
	w.text.bind(rec, w.columns)
	b := w.buf[:0]
	kinds, _ := rec.Column(0).(*array.String)
	for i := 0; i < int(rec.NumRows()); i++ {
		b = append(w.text.appendChange(b, kinds, i), '\n')
	}
	w.buf = b
	if len(b) == 0 {
		return nil
	}
	_, err := w.w.Write(b)
	return err
}

func (w *envelopeWriter) Close() error {
	w.closed = true
	return nil
}
