package exec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ErrSource marks errors opening or configuring a source.
var ErrSource = errors.New("source error")

// FileSource is the filesystem connector over a CSV file or a directory of
// CSV files: the plan-time description of what to read. Each file is a split
// with its own watermark generator (DESIGN §4 "Splits"); a single file is a
// directory of one split. Open starts a read.
type FileSource struct {
	Path string
	// Splits are the files to read, one split each, in order. The planner
	// lists them (ListSplits) so EXPLAIN shows what a run reads; nil means
	// Open lists Path itself.
	Splits    []string
	Format    string // "csv"
	Schema    *arrow.Schema
	CSV       CSVOptions
	BatchSize int
	// IdleTimeout is 'scan.watermark.idle-timeout': a split that delivers no
	// rows for this long of processing time stops holding the watermark
	// back. Zero: splits never go idle.
	IdleTimeout time.Duration
}

// BatchReader yields the batches of one read of a source, split by split.
type BatchReader interface {
	// Next returns the next batch with the split it came from; once per
	// split, after its last batch, the end of that split (Record nil, End
	// set); io.EOF once every split has ended. The caller owns Record.
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
}

// SourceStats counts what a source read.
type SourceStats struct {
	Rows    int64 // rows delivered
	Skipped int64 // bad rows skipped under an ignore-parse-errors option
}

// ListSplits returns the splits of path: path itself when it is a file, or
// every regular file of the directory sorted by name, skipping names that
// start with '.' or '_' as Flink does (hidden files, _SUCCESS markers).
// Subdirectories are not read. An empty directory has no splits.
func ListSplits(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path) // sorted by name
	if err != nil {
		return nil, err
	}
	splits := []string{}
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		p := filepath.Join(path, e.Name())
		st, err := os.Stat(p) // follows symbolic links
		if err != nil {
			return nil, err
		}
		if st.Mode().IsRegular() {
			splits = append(splits, p)
		}
	}
	return splits, nil
}

// NumSplits returns how many splits a read has: the planned ones, or 1 when
// they were not listed (a path that did not exist at plan time).
func (s *FileSource) NumSplits() int {
	if s.Splits == nil {
		return 1
	}
	return len(s.Splits)
}

// Open opens every split and returns a reader that interleaves them.
func (s *FileSource) Open(mem memory.Allocator) (BatchReader, error) {
	paths := s.Splits
	if paths == nil {
		var err error
		if paths, err = ListSplits(s.Path); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSource, err)
		}
	}
	size := s.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	r := &splitReader{splits: make([]fileSplit, len(paths)), live: len(paths)}
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("%w: %w", ErrSource, err)
		}
		r.splits[i] = fileSplit{f: f, dec: NewCSVDecoder(f, p, s.Schema, s.CSV, mem, size)}
	}
	return r, nil
}

// DefaultBatchSize is the number of rows per batch when none is set.
const DefaultBatchSize = 4096

// String describes the source for EXPLAIN and messages.
func (s *FileSource) String() string {
	return "filesystem(path=" + strconv.Quote(s.Path) + ", format=" + s.Format + ")"
}
