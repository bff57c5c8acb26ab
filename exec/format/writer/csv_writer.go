package writer

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
)

type csvWriter struct {
	w      io.Writer
	schema *arrow.Schema
	loc    *time.Location
	cols   []formattedColumn
	buf    []byte
	header bool // written
	closed bool
	// elements, when set, separates an ARRAY's or ROW's elements as Flink's
	// csv format writes them (a sink's), instead of Flink's text of them
	elements string
}

// NewCSVWriter writes RFC 4180 CSV with a header of the column names (also
// for an empty result) and '\n' line ends. NULL is an empty field and an
// empty string is written as "", so CSVDecoder reads the output back as is.
// Zoned timestamps are shown in loc (nil means UTC). One Write per batch.
func NewCSVWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return &csvWriter{w: w, schema: schema, loc: loc, cols: formattedColumns(schema)}
}

// NewHeaderlessCSVWriter is NewCSVWriter without the header line, for
// files that hold rows only (the filesystem sink's).
func NewHeaderlessCSVWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return &csvWriter{w: w, schema: schema, loc: loc, cols: formattedColumns(schema), header: true}
}

func (c *csvWriter) WriteBatch(rec arrow.RecordBatch) error {
	if c.closed {
		return ErrWriterClosed
	}
	if int(rec.NumCols()) != len(c.cols) {
		return fmt.Errorf("csv writer: batch has %d columns, schema has %d", rec.NumCols(), len(c.cols))
	}
	c.buf = c.buf[:0]
	c.appendHeader()
	for j, col := range rec.Columns() {
		c.cols[j].csv, c.cols[j].elements = true, c.elements
		c.cols[j].format(col, c.loc)
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		for j := range c.cols {
			if j > 0 {
				c.buf = append(c.buf, ',')
			}
			if !c.cols[j].nulls[i] {
				c.buf = format.AppendCSVField(c.buf, c.cols[j].cell(i))
			}
		}
		c.buf = append(c.buf, '\n')
	}
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.w.Write(c.buf)
	return err
}

func (c *csvWriter) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.buf = c.buf[:0]
	c.appendHeader()
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.w.Write(c.buf)
	return err
}

func (c *csvWriter) appendHeader() {
	if c.header {
		return
	}
	c.header = true
	for j, f := range c.schema.Fields() {
		if j > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = format.AppendCSVField(c.buf, []byte(f.Name))
	}
	c.buf = append(c.buf, '\n')
}
