package exec

import (
	"context"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// Source is a planned source as the job driver reads it. Each connector
// provides its own (exec/connector/...); the driver needs only what this
// interface says, never which connector it is.
type Source interface {
	// Spec is what every source shares: the table, its columns, batch
	// size and the watermark settings of the read.
	Spec() *SourceSpec
	// Open starts a read or, with at (the source part of a checkpoint),
	// resumes it where the checkpoint was taken.
	Open(mem memory.Allocator, at *checkpoint.Decoder) (BatchReader, error)
	// NumSplits is how many splits a read starts with.
	NumSplits() int
	// Explain describes the scan for EXPLAIN, between the table and its
	// fields, e.g. "connector=[datagen], number-of-rows=[100], seed=[0], splits=[1]".
	Explain() string
	// Checkpointable returns why a read cannot resume from a checkpoint
	// (an error wrapping ErrCheckpointUnsupported), or nil.
	Checkpointable() error
	// Identity writes the settings that change the rows read (a format's
	// resolved options) into a query's identity, one line.
	Identity(b *strings.Builder)
}

// SourceSpec holds the settings of a read every source has.
type SourceSpec struct {
	// Table names the table read, in the reasons of bad rows.
	Table string
	// Schema is the table's physical columns, the columns of each batch.
	Schema    *arrow.Schema
	BatchSize int
	// IdleTimeout is 'scan.watermark.idle-timeout': a split that delivers no
	// rows for this long of processing time stops holding the watermark
	// back. Zero: splits never go idle.
	IdleTimeout time.Duration
	// MaxFuture is 'scan.watermark.max-future'; nil when not set.
	MaxFuture *MaxFuture
	// BadRowsPath is 'wsql.bad-rows.path': if set, each read creates this
	// file and writes every line skipped under an ignore-parse-errors
	// option to it, as read, one per line (a dead-letter file).
	BadRowsPath string
	// SkipBadRows makes a computed column that fails on a row skip the row
	// as a bad row ('csv.ignore-parse-errors') instead of failing the run.
	SkipBadRows bool
	// BadRowText, when set, writes row i of rec (its first columns
	// fields) the way the source's format reads it back, for the bad-rows
	// file; nil writes CSV fields.
	BadRowText func(b []byte, rec arrow.RecordBatch, i, columns int) []byte
}

// Spec returns s itself: a source type embeds its SourceSpec.
func (s *SourceSpec) Spec() *SourceSpec { return s }

// StateReader is a BatchReader whose position a checkpoint records.
type StateReader interface {
	SaveState(e *checkpoint.Encoder) error
}

// Follower is a BatchReader that waits: for input (a followed file, a
// stream, a table pushed from Go) or to pace its rows (a generator).
// Follow gives it the run's context, whose cancellation ends the wait, so
// a stop (SIGINT, SIGTERM) never waits for the next input; it then hands
// out what it still holds before it returns ctx's error.
type Follower interface {
	Follow(ctx context.Context)
}

// ListedSource is a source whose splits were listed at plan time (files of
// a directory); WithoutListedSplits is a copy that lists them when it is
// read, for a query's identity, which must not change when a file is added.
type ListedSource interface {
	WithoutListedSplits() Source
}

// PathSource is a source that reads a file or a directory of files.
type PathSource interface {
	// InputPath is the file or directory read; "" for a stream.
	InputPath() string
	// InputSplits are the files of the directory listed at plan time.
	InputSplits() []string
}
