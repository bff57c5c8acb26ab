package print

import (
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/windowop"
)

// printWriter is the sink of Flink's 'print' connector: one line per row,
// `+I[v1, v2, ...]`, prefixed with `identifier> ` when one is set. An update
// stream's row kind column gives the prefix (-U, +U) instead of being
// printed. NULL prints as null, as Flink's Row does.
type printWriter struct {
	w      io.Writer
	prefix []byte
	loc    *time.Location
	buf    []byte
	// precisions are the columns' timeprecision (-1 for most), and apps
	// their value writers for the batch
	precisions []int
	apps       []func(dst []byte, i int) []byte
}

// newWriter writes rows the way Flink's print connector does.
func newWriter(w io.Writer, identifier string, loc *time.Location, precisions []int) writer.ResultWriter {
	p := &printWriter{w: w, loc: loc, precisions: precisions}
	if identifier != "" {
		p.prefix = []byte(identifier + "> ")
	}
	return p
}

func (p *printWriter) WriteBatch(rec arrow.RecordBatch) error {
	b := p.buf[:0]
	first := 0
	var kinds *array.String
	if rec.NumCols() > 0 && windowop.IsRowKindField(rec.Schema().Field(0)) {
		kinds, first = rec.Column(0).(*array.String), 1
	}
	p.apps = p.apps[:0]
	for c, col := range rec.Columns()[first:] {
		app := format.ValueAppender(col, p.loc)
		if c < len(p.precisions) {
			app = timeprecision.Trim(app, p.precisions[c])
		}
		p.apps = append(p.apps, app)
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		b = append(b, p.prefix...)
		if kinds != nil {
			b = append(b, kinds.Value(i)...)
			b = append(b, '[')
		} else {
			b = append(b, "+I["...)
		}
		for c, col := range rec.Columns()[first:] {
			if c > 0 {
				b = append(b, ", "...)
			}
			if col.IsNull(i) {
				b = append(b, "null"...)
			} else {
				b = p.apps[c](b, i)
			}
		}
		b = append(b, "]\n"...)
	}
	p.buf = b
	_, err := p.w.Write(b)
	return err
}

func (p *printWriter) Close() error { return nil }
