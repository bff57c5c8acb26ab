package exec

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// BatchMaker is a source that makes its own batches, read through a
// MakerSource. The generator connectors ('datagen', 'nexmark') are one
// split each, whose rows depend only on their options and seed (and, for
// datagen's time columns, the injected clock), never on the batch size;
// the sources a Go program attaches (a pushed table, an
// array.RecordReader) deliver what the program gives.
type BatchMaker interface {
	// Open starts a read producing batches of at most batchSize rows of
	// schema (the table's physical columns).
	Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (BatchReader, error)
	// Explain lists the connector and its key options for EXPLAIN, e.g.
	// "connector=[datagen], number-of-rows=[100], seed=[0]".
	Explain() string
	// Bounded reports whether the source ends by itself.
	Bounded() bool
}

// Resumable is a BatchMaker whose read can be checkpointed and resumed:
// the reader Open returns records its position (StateReader), and OpenAt
// continues a read from it. The generators are: their rows depend only on
// their options, so the rows after a resume are those an uninterrupted
// read would have delivered (pacing restarts).
type Resumable interface {
	BatchMaker
	// OpenAt continues a read from the state its reader's SaveState wrote,
	// with the same options and schema. A state that does not fit them is
	// an error wrapping checkpoint.ErrCorrupt.
	OpenAt(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (BatchReader, error)
}

// ColumnPruner is a BatchMaker that may skip making the columns a query
// does not read: read marks the schema fields it reads.
type ColumnPruner interface {
	ReadOnly(read []bool)
}

// FieldPruner is a BatchMaker that may skip making the fields of a ROW
// column a query does not read: after ReadOnly, fields[i] names the
// fields of schema field i the query reads (any case), or is nil when it
// reads the column whole (or not at all).
type FieldPruner interface {
	ReadFieldsOnly(fields [][]string)
}

// EqualsPusher is a BatchMaker that can make only the rows whose schema
// field col equals v (a WHERE col = v the planner pushes down), stepping
// over the others without making them; they count as read. It says
// whether it took the condition: the WHERE stays in the plan either way.
//
// Rows never made never advance the watermark, so only a source whose
// rows come in the order of their event time may take a condition, and
// the planner pushes one only under a watermark at or behind the rowtime
// (ts - INTERVAL with a delay of zero or more): a row stepped over is then
// no later than the next row made, and no row made is late, pushed or not.
type EqualsPusher interface {
	PushEquals(col int, v int64) bool
}

// MakerSource is the Source over a BatchMaker.
type MakerSource struct {
	SourceSpec
	Maker BatchMaker
}

// Open starts a read of the maker or resumes one from at.
func (s *MakerSource) Open(mem memory.Allocator, at *checkpoint.Decoder) (BatchReader, error) {
	if at != nil {
		rc, ok := s.Maker.(Resumable)
		if !ok {
			return nil, fmt.Errorf("%w for the source %s: it cannot resume from a position", ErrCheckpointUnsupported, s.Maker.Explain())
		}
		return rc.OpenAt(mem, s.Schema, s.BatchSize, at)
	}
	return s.Maker.Open(mem, s.Schema, s.BatchSize)
}

// NumSplits is 1: a generator is one split, and the splits of a table
// pushed from Go come and go as the program adds them, after planning.
func (s *MakerSource) NumSplits() int { return 1 }

// Explain is the maker's own text and its splits (a table pushed from Go
// has those the program added so far).
func (s *MakerSource) Explain() string {
	splits := 1
	if n, ok := s.Maker.(interface{ NumSplits() int }); ok {
		splits = n.NumSplits()
	}
	return fmt.Sprintf("%s, splits=[%d]", s.Maker.Explain(), splits)
}

// Checkpointable is nil for a Resumable maker.
func (s *MakerSource) Checkpointable() error {
	if _, ok := s.Maker.(Resumable); !ok {
		return fmt.Errorf("%w for the source %s: it cannot resume from a position; checkpoints need files or generators", ErrCheckpointUnsupported, s.Maker.Explain())
	}
	return nil
}

// Identity writes an empty format: the rows depend on the options alone.
func (s *MakerSource) Identity(b *strings.Builder) { b.WriteString(`  format ""`) }
