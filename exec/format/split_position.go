package format

import "github.com/apache/arrow-go/v18/arrow"

// SplitPosition is where the read of one split stands between two
// batches: resuming a decoder there yields exactly the rows, bad rows and
// errors an uninterrupted read would have produced after that batch.
//
// A decoder reports it with Position after Next returned a batch (or
// nothing, or io.EOF); bad rows that were reported through OnBadRow by
// then are behind it, and counted in Skipped. After a bad row stopped a
// read (no ignore-parse-errors option) it is the start of that row, so a
// resumed read fails the same way. To resume, open the file, seek to
// Offset and hand the position to the decoder (CSVDecoder.ResumeAt,
// JSONDecoder.ResumeAt, NewParallelCSVDecoder, NewParallelJSONDecoder)
// before its first Next.
type SplitPosition struct {
	// Offset is the number of bytes of the file consumed: just past the
	// last record delivered or skipped (and any blank or comment lines
	// after it). It is always the start of a record.
	Offset int64
	// Line counts the '\n' up to Offset; the next record starts on line
	// Line+1, which is what errors and OnBadRow report.
	Line int
	// Skipped is the number of bad rows skipped (and reported) so far.
	Skipped int64
	// Started is set once the first record is behind: a resumed CSV
	// decoder skips a header (IgnoreFirstLine) only when it is not.
	// Started is Offset > 0: the header is the first thing a CSV decoder
	// consumes.
	Started bool
	// ChunkEnd is, for the parallel decoder, the end of the chunk holding
	// Offset: a resumed read decodes up to there as one chunk first, so
	// that its batches are those of the uninterrupted read (which matters
	// for the order of results of a parallel window). Zero otherwise.
	ChunkEnd int64
}

// Decoder is a format's decoder of one split that reports its position:
// CSVDecoder, JSONDecoder, and ParallelDecoder over either.
type Decoder interface {
	// Next returns the next batch, or io.EOF at the end of the split.
	Next() (arrow.RecordBatch, error)
	// Skipped counts the bad rows skipped so far.
	Skipped() int64
	Position() SplitPosition
}

var (
	_ Decoder = (*CSVDecoder)(nil)
	_ Decoder = (*JSONDecoder)(nil)
	_ Decoder = (*ParallelDecoder)(nil)
)
