package blackhole

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/writer"
)

// blackholeWriter is Flink's 'blackhole' connector: it discards every row.
type blackholeWriter struct{}

// newWriter returns a writer that discards its input.
func newWriter() writer.ResultWriter { return blackholeWriter{} }

func (blackholeWriter) WriteBatch(arrow.RecordBatch) error { return nil }
func (blackholeWriter) Close() error                       { return nil }
