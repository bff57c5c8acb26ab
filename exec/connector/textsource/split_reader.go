package textsource

import (
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/badrows"
)

// splitReader reads the splits of a Source interleaved, round-robin:
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
	bad    *badrows.File // nil without 'wsql.bad-rows.path'
	src    *Source       // for its metadata columns
	mem    memory.Allocator
}

type fileSplit struct {
	name  string    // the file, as listed
	f     io.Closer // nil once the split ended or the reader closed
	dec   splitDecoder
	ended bool
	meta  fileMetadata // what the split's metadata columns hold
}

// splitDecoder is a format's decoder of one split (format.CSVDecoder, format.JSONDecoder).
type splitDecoder interface {
	Next() (arrow.RecordBatch, error)
	Skipped() int64
}

func (r *splitReader) Next() (exec.SplitBatch, error) {
	for r.live > 0 {
		i := r.next
		r.next = (r.next + 1) % len(r.splits)
		s := &r.splits[i]
		if s.ended {
			continue
		}
		rec, err := s.dec.Next() // errors name the split's file
		if r.bad != nil && r.bad.Err() != nil {
			if rec != nil {
				rec.Release()
			}
			return exec.SplitBatch{}, r.bad.Err()
		}
		if errors.Is(err, io.EOF) {
			s.ended = true
			r.live--
			s.close()
			return exec.SplitBatch{Split: i, End: true}, nil
		}
		if err != nil {
			return exec.SplitBatch{}, err
		}
		r.rows += rec.NumRows()
		return exec.SplitBatch{Record: r.src.withMetadata(rec, &s.meta, r.mem), Split: i}, nil
	}
	if r.bad != nil {
		// Flushed at the end of the input, so a failed write is reported
		// rather than lost in a deferred Close.
		if err := r.bad.Close(); err != nil {
			return exec.SplitBatch{}, err
		}
	}
	return exec.SplitBatch{}, io.EOF
}

func (r *splitReader) NumSplits() int { return len(r.splits) }

func (r *splitReader) Stats() exec.SourceStats {
	st := exec.SourceStats{Rows: r.rows}
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
		if err := r.bad.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *fileSplit) close() error {
	if s.f == nil {
		return nil
	}
	if p, ok := s.dec.(interface{ Close() }); ok {
		p.Close() // a parallel decoder's goroutines read the file
	}
	err := s.f.Close()
	s.f = nil
	return err
}

var _ exec.BatchReader = (*splitReader)(nil)

// BadRows is the read's bad-rows file, which the future filter writes to as well.
func (r *splitReader) BadRows() *badrows.File { return r.bad }
