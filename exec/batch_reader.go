package exec

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// ErrSource marks errors opening or configuring a source.
var ErrSource = errors.New("source error")

// DefaultBatchSize is the number of rows per batch when none is set.
const DefaultBatchSize = 4096

// BatchReader yields the batches of one read of a source, split by split.
type BatchReader interface {
	// Next returns the next batch with the split it came from; once per
	// split, after its last batch, the end of that split (Record nil, End
	// set); io.EOF once every split has ended. The caller owns Record.
	// An unbounded reader (a followed file, exec/connector/textsource)
	// may also return a step with neither Record nor End: nothing new for
	// now (Split is then meaningless); NumSplits may have grown since.
	Next() (SplitBatch, error)
	// NumSplits is the number of splits the read interleaves.
	NumSplits() int
	// Stats reports rows read and bad rows skipped so far, over all splits.
	Stats() SourceStats
	// Close releases every file; it is idempotent.
	Close() error
}

// SplitBatch is one step of a BatchReader: a batch of rows of one split, or
// the end of that split.
type SplitBatch struct {
	Record arrow.RecordBatch // nil when End is set
	Split  int               // index into the source's splits
	End    bool
	// A source that supplies its own watermarks (a table pushed from Go)
	// also returns steps with no Record: HasWatermark with the split's new
	// Watermark, or Idle when the split says it is idle.
	HasWatermark bool
	Watermark    int64
	Idle         bool
}

// SourceStats counts what a source read.
type SourceStats struct {
	Rows    int64 // rows delivered, and those stepped over
	Skipped int64 // bad rows skipped under an ignore-parse-errors option
	// Stepped counts the rows a source stepped over without making them,
	// those a WHERE it took would drop (EqualsPusher); Rows counts them.
	Stepped int64
	// Rotated and Truncated count the followed files found replaced under
	// their name or shorter than what was read (see exec/connector/textsource, follow.go).
	Rotated, Truncated int64
}
