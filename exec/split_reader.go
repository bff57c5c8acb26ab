package exec

import (
	"errors"
	"io"
	"os"
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
}

type fileSplit struct {
	f     *os.File // nil once the split ended or the reader closed
	dec   *CSVDecoder
	ended bool
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
	return first
}

func (s *fileSplit) close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

var _ BatchReader = (*splitReader)(nil)
