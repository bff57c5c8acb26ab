package writer

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// ResultWriter presents query results as they arrive.
type ResultWriter interface {
	// WriteBatch writes the rows of rec; it does not take ownership of rec.
	WriteBatch(rec arrow.RecordBatch) error
	// Close finishes the output (header of an empty result, footer).
	Close() error
}

// ErrWriterClosed is what a result writer returns for a batch written
// after Close.
var ErrWriterClosed = errors.New("result writer is closed")
