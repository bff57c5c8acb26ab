package exec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format"
)

// splitReader reads the splits of a FileSource interleaved, round-robin:
// one batch of each split that has not ended per turn, in split order, every
// split with the same batch size. The order depends only on the files and
// the batch size, so a run is reproducible; interleaving (rather than one
// file after the other) lets every split's watermark take part from the
// start, so a file whose event times lag does not find the watermark
// already past them. Every split's file stays open until the split ends.
type splitReader struct {
	splits []fileSplit
	next   int // the split whose turn it is
	live   int // splits that have not ended
	rows   int64
	bad    *badRowsFile // nil without 'wsql.bad-rows.path'
}

type fileSplit struct {
	name  string    // the file, as listed
	f     io.Closer // nil once the split ended or the reader closed
	dec   splitDecoder
	ended bool
}

// splitDecoder is a format's decoder of one split (format.CSVDecoder, format.JSONDecoder).
type splitDecoder interface {
	Next() (arrow.RecordBatch, error)
	Skipped() int64
}

func (r *splitReader) Next() (SplitBatch, error) {
	for r.live > 0 {
		i := r.next
		r.next = (r.next + 1) % len(r.splits)
		s := &r.splits[i]
		if s.ended {
			continue
		}
		rec, err := s.dec.Next() // errors name the split's file
		if r.bad != nil && r.bad.err != nil {
			if rec != nil {
				rec.Release()
			}
			return SplitBatch{}, r.bad.err
		}
		if errors.Is(err, io.EOF) {
			s.ended = true
			r.live--
			s.close()
			return SplitBatch{Split: i, End: true}, nil
		}
		if err != nil {
			return SplitBatch{}, err
		}
		r.rows += rec.NumRows()
		return SplitBatch{Record: rec, Split: i}, nil
	}
	if r.bad != nil {
		// Flushed at the end of the input, so a failed write is reported
		// rather than lost in a deferred Close.
		if err := r.bad.close(); err != nil {
			return SplitBatch{}, err
		}
	}
	return SplitBatch{}, io.EOF
}

func (r *splitReader) NumSplits() int { return len(r.splits) }

func (r *splitReader) Stats() SourceStats {
	st := SourceStats{Rows: r.rows}
	for i := range r.splits {
		if d := r.splits[i].dec; d != nil {
			st.Skipped += d.Skipped()
		}
	}
	return st
}

func (r *splitReader) Close() error {
	var first error
	for i := range r.splits {
		if err := r.splits[i].close(); err != nil && first == nil {
			first = err
		}
	}
	if r.bad != nil {
		if err := r.bad.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *fileSplit) close() error {
	if s.f == nil {
		return nil
	}
	if p, ok := s.dec.(*format.ParallelDecoder); ok {
		p.Close() // its goroutines read the file
	}
	err := s.f.Close()
	s.f = nil
	return err
}

var _ BatchReader = (*splitReader)(nil)

// badRowsFile is the dead-letter file of one read: every skipped line, as
// read, one per line. The first write error sticks and ends the read.
type badRowsFile struct {
	f   *os.File // nil once closed
	w   *bufio.Writer
	n   int64 // bytes written, the file's length once flushed
	err error
}

func createBadRowsFile(path string) (*badRowsFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("bad rows file: %w", err)
	}
	return &badRowsFile{f: f, w: bufio.NewWriter(f)}, nil
}

// reopenBadRowsFile continues the bad-rows file of a restored read: what
// was written after the checkpoint (size bytes) is cut off, since those
// rows are read again.
func reopenBadRowsFile(path string, size int64) (*badRowsFile, error) {
	if size < 0 {
		return nil, fmt.Errorf("bad rows file: %w: the checkpoint wrote none", checkpoint.ErrIncompatible)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err == nil {
		if err = f.Truncate(size); err == nil {
			_, err = f.Seek(size, io.SeekStart)
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("bad rows file: %w", err)
	}
	return &badRowsFile{f: f, w: bufio.NewWriter(f), n: size}, nil
}

// sync flushes and fsyncs the file for a checkpoint and returns its
// length; -1 for no file (b nil).
func (b *badRowsFile) sync() (int64, error) {
	if b == nil {
		return -1, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.f == nil {
		return b.n, nil // closed at the end of the input: complete
	}
	err := b.w.Flush()
	if err == nil {
		err = b.f.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("bad rows file: %w", err)
	}
	return b.n, nil
}

// write writes a skipped row as it was read or, for a record longer than
// 'wsql.max-record-bytes' (raw nil: it was never held whole), a '#' line
// with the reason, which names where the record starts.
func (b *badRowsFile) write(e *format.ParseError, raw []byte) {
	if b.err != nil || b.f == nil {
		return
	}
	if raw == nil && e != nil {
		b.writeLine([]byte("# " + e.Error()))
		return
	}
	_, err := b.w.Write(raw)
	if err == nil {
		err = b.w.WriteByte('\n')
	}
	b.n += int64(len(raw)) + 1
	if err != nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
}

// close flushes and closes the file; it is idempotent.
func (b *badRowsFile) close() error {
	if b.f == nil {
		return b.err
	}
	if err := b.w.Flush(); err != nil && b.err == nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
	if err := b.f.Close(); err != nil && b.err == nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
	b.f = nil
	return b.err
}
