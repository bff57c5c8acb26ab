package exec

import (
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/pipeline"
)

// WriterSink is the last stage of a query: it writes each result batch to a
// writer.ResultWriter as it arrives (so windows print as they fire) and counts rows.
type WriterSink struct {
	w    writer.ResultWriter
	rows int64
}

// NewWriterSink wraps w. The sink does not close w; the caller does.
func NewWriterSink(w writer.ResultWriter) *WriterSink { return &WriterSink{w: w} }

func (s *WriterSink) ProcessBatch(b pipeline.Batch) error {
	s.rows += b.Record.NumRows()
	return s.w.WriteBatch(b.Record)
}

// ProcessWatermark hands the watermark to a writer that writes it on
// (scaleout.WatermarkWriter: a repartition topic's).
func (s *WriterSink) ProcessWatermark(wm int64) error {
	if w, ok := s.w.(interface{ WriteWatermark(wm int64) error }); ok {
		return w.WriteWatermark(wm)
	}
	return nil
}

func (s *WriterSink) ProcessEnd() error { return nil }
func (s *WriterSink) Close()            {}

// Rows returns the number of rows written.
func (s *WriterSink) Rows() int64 { return s.rows }

var _ pipeline.Operator = (*WriterSink)(nil)
