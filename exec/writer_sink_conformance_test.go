package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

// pipelineWriter is a ResultWriter that hands each batch it writes to an
// operator, so the conformance test sees what the sink writes.
type pipelineWriter struct{ next pipeline.Operator }

func (w pipelineWriter) WriteBatch(rec arrow.RecordBatch) error {
	return w.next.ProcessBatch(pipeline.Batch{Record: rec})
}

func (w pipelineWriter) Close() error { return nil }

func TestWriterSinkConformance(t *testing.T) {
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(_ memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			return NewWriterSink(pipelineWriter{next}), nil
		},
		Input: conformanceInput(true),
		Sink:  true,
	})
}
