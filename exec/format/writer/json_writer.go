package writer

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
)

type jsonWriter struct {
	w    io.Writer
	keys [][]byte // `{"name":` for the first column, `,"name":` after
	loc  *time.Location
	std  format.TimestampStandard
	apps []func(dst []byte, i int) []byte
	// precisions are the columns' timeprecision.Of, -1 for most
	precisions []int
	buf        []byte
	closed     bool
}

// NewJSONWriter writes JSON lines, one object per row with the schema's
// column names as keys, in the form JSONDecoder reads back:
//   - NULL is null; STRING a JSON string (only '"', '\' and control
//     characters escaped, as Jackson does);
//   - DOUBLE/FLOAT the shortest digits that round-trip, NaN and ±Infinity
//     as the strings "NaN", "Infinity", "-Infinity" (Jackson's default);
//   - DECIMAL(p,s) a number with exactly s fraction digits;
//   - DATE, TIME strings; TIMESTAMP(p) a string with p fraction digits in
//     the standard std (a space or a 'T' between date and time);
//   - TIMESTAMP_LTZ the wall time in loc (nil means UTC) with its offset,
//     'Z' when it is 0, so the instant survives any session zone. Flink
//     writes LTZ in UTC with 'Z'; in a UTC session the two agree.
//
// One Write per batch, so each batch is visible as soon as it is written.
func NewJSONWriter(w io.Writer, schema *arrow.Schema, loc *time.Location, std format.TimestampStandard) ResultWriter {
	if loc == nil {
		loc = time.UTC
	}
	j := &jsonWriter{w: w, loc: loc, std: std, apps: make([]func([]byte, int) []byte, schema.NumFields())}
	for i, f := range schema.Fields() {
		j.precisions = append(j.precisions, timeprecision.Of(f))
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		key := format.AppendJSONString([]byte{sep}, f.Name)
		j.keys = append(j.keys, append(key, ':'))
	}
	return j
}

func (j *jsonWriter) WriteBatch(rec arrow.RecordBatch) error {
	if j.closed {
		return ErrWriterClosed
	}
	if int(rec.NumCols()) != len(j.keys) {
		return fmt.Errorf("json writer: batch has %d columns, schema has %d", rec.NumCols(), len(j.keys))
	}
	for c, col := range rec.Columns() {
		j.apps[c] = timeprecision.Trim(format.JSONValueAppender(col, j.loc, j.std), j.precisions[c])
	}
	b := j.buf[:0]
	cols := rec.Columns()
	for i := 0; i < int(rec.NumRows()); i++ {
		for c, col := range cols {
			b = append(b, j.keys[c]...)
			if col.IsNull(i) {
				b = append(b, "null"...)
			} else {
				b = j.apps[c](b, i)
			}
		}
		if len(cols) == 0 {
			b = append(b, '{')
		}
		b = append(b, "}\n"...)
	}
	j.buf = b
	if len(b) == 0 {
		return nil
	}
	_, err := j.w.Write(b)
	return err
}

func (j *jsonWriter) Close() error {
	j.closed = true
	return nil
}
