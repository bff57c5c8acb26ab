package writer

import (
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go/compress"

	"github.com/wsql/wsql/exec/format"
)

// Writing makes a format's writer over one file, with a sink table's
// options resolved; the format registry (exec/connector) makes one per
// table, so a file sink never asks which format it writes. The writer does
// not close w.
type Writing interface {
	NewWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) (ResultWriter, error)
}

// CSVWriting writes CSV without a header, as Flink's csv format does: an
// ARRAY's or ROW's elements separated by ElementDelimiter (";" if empty).
type CSVWriting struct{ ElementDelimiter string }

// JSONWriting writes JSON lines with timestamps in Standard.
type JSONWriting struct{ Standard format.TimestampStandard }

// ParquetWriting writes one Parquet file compressed with Codec.
type ParquetWriting struct{ Codec compress.Codec }

var (
	_ Writing = CSVWriting{}
	_ Writing = JSONWriting{}
	_ Writing = ParquetWriting{}
)

func (c CSVWriting) NewWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) (ResultWriter, error) {
	cw := NewHeaderlessCSVWriter(w, schema, loc).(*csvWriter)
	if cw.elements = c.ElementDelimiter; cw.elements == "" {
		cw.elements = ";"
	}
	return cw, nil
}

func (j JSONWriting) NewWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) (ResultWriter, error) {
	return NewJSONWriter(w, schema, loc, j.Standard), nil
}

func (p ParquetWriting) NewWriter(w io.Writer, schema *arrow.Schema, _ *time.Location) (ResultWriter, error) {
	return NewParquetWriter(w, schema, p.Codec)
}
