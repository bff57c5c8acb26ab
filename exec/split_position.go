package exec

import "github.com/wsql/wsql/checkpoint"

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
// JSONDecoder.ResumeAt, newParallelDecoderAt) before its first Next.
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

// save writes p into a checkpoint.
func (p SplitPosition) save(e *checkpoint.Encoder) {
	e.Int(p.Offset)
	e.Int(int64(p.Line))
	e.Int(p.Skipped)
	e.Bool(p.Started)
	e.Int(p.ChunkEnd)
}

// readSplitPosition reads what SplitPosition.save wrote.
func readSplitPosition(d *checkpoint.Decoder) SplitPosition {
	p := SplitPosition{Offset: d.Int(), Line: int(d.Int()), Skipped: d.Int(), Started: d.Bool(), ChunkEnd: d.Int()}
	if p.Offset < 0 || p.Line < 0 || p.Skipped < 0 || (p.ChunkEnd != 0 && p.ChunkEnd < p.Offset) {
		d.Fail("a split at position %+v", p)
	}
	return p
}

// positionDecoder is a decoder of one split that reports its position:
// CSVDecoder, JSONDecoder, and parallelDecoder over either.
type positionDecoder interface {
	splitDecoder
	Position() SplitPosition
}

var (
	_ positionDecoder = (*CSVDecoder)(nil)
	_ positionDecoder = (*JSONDecoder)(nil)
	_ positionDecoder = (*parallelDecoder)(nil)
)
