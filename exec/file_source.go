package exec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ErrSource marks errors opening or configuring a source.
var ErrSource = errors.New("source error")

// FileSource is the filesystem connector over one CSV file: the plan-time
// description of what to read. Open starts a read.
type FileSource struct {
	Path      string
	Format    string // "csv"
	Schema    *arrow.Schema
	CSV       CSVOptions
	BatchSize int
}

// BatchReader yields the batches of one read of a source.
type BatchReader interface {
	// Next returns the next batch, owned by the caller, or io.EOF.
	Next() (arrow.RecordBatch, error)
	// Stats reports rows read and bad rows skipped so far.
	Stats() SourceStats
	Close() error
}

// SourceStats counts what a source read.
type SourceStats struct {
	Rows    int64 // rows delivered
	Skipped int64 // bad rows skipped under an ignore-parse-errors option
}

// Open opens the file and returns a reader of its batches.
func (s *FileSource) Open(mem memory.Allocator) (BatchReader, error) {
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%w: %s is a directory; reading directories is not supported yet", ErrSource, s.Path)
	}
	size := s.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	return &fileReader{f: f, dec: NewCSVDecoder(f, s.Path, s.Schema, s.CSV, mem, size)}, nil
}

// DefaultBatchSize is the number of rows per batch when none is set.
const DefaultBatchSize = 4096

// String describes the source for EXPLAIN and messages.
func (s *FileSource) String() string {
	return "filesystem(path=" + strconv.Quote(s.Path) + ", format=" + s.Format + ")"
}

type fileReader struct {
	f    *os.File
	dec  *CSVDecoder
	rows int64
}

func (r *fileReader) Next() (arrow.RecordBatch, error) {
	rec, err := r.dec.Next()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, err
	}
	r.rows += rec.NumRows()
	return rec, nil
}

func (r *fileReader) Stats() SourceStats {
	return SourceStats{Rows: r.rows, Skipped: r.dec.Skipped()}
}

func (r *fileReader) Close() error { return r.f.Close() }
