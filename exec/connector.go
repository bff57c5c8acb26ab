package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// Connector is a source that makes its own batches: a FileSource with
// Connector set opens it instead of reading files. The generator
// connectors ('datagen', 'nexmark') are one split each, whose rows depend
// only on their options and seed (and, for datagen's time columns, the
// injected clock), never on the batch size; the sources a Go program
// attaches (PushSource, RecordReaderSource) deliver what the program gives.
type Connector interface {
	// Open starts a read producing batches of at most batchSize rows of
	// schema (the table's physical columns).
	Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (BatchReader, error)
	// Explain lists the connector and its key options for EXPLAIN, e.g.
	// "connector=[datagen], number-of-rows=[100], seed=[0]".
	Explain() string
	// Bounded reports whether the source ends by itself.
	Bounded() bool
}

// Resumable is a Connector whose read can be checkpointed and resumed: the
// reader Open returns records its position (the stateReader's saveState),
// and OpenAt continues a read from it. The generators are: their rows
// depend only on their options, so the rows after a resume are those an
// uninterrupted read would have delivered (pacing restarts).
type Resumable interface {
	Connector
	// OpenAt continues a read from the state its reader's saveState wrote,
	// with the same options and schema. A state that does not fit them is
	// an error wrapping checkpoint.ErrCorrupt.
	OpenAt(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (BatchReader, error)
}
