// Package format turns text into Arrow record batches and record batches
// into text: the CSV and JSON-lines decoders (sequential, and the parallel
// decoder that cuts a file into chunks of whole records) and the value
// text the result writers (exec/format/writer), CAST and the Go values
// share, so a value reads back as it was written.
//
// A decoder reads one split of a file: Next returns a batch at a time,
// Position says where the read stands between two batches, and a decoder
// resumed there (ResumeAt, or a parallel decoder started at it) gives
// exactly the rows, bad rows and errors an uninterrupted read would have.
// A malformed row is a *ParseError (errors.Is ErrBadRow); it stops the
// read, or is reported through OnBadRow and skipped when the options
// ignore parse errors.
//
// The package knows nothing of sources, sinks or jobs: exec opens files,
// follows them and hands the decoders their readers and positions.
package format
