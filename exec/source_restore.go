package exec

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/checkpoint"
)

// sourceState is what a checkpoint records of a read of files: the splits
// (to check the restart reads the same ones), whose turn it is, and per
// split whether it ended and where its decoder stands.
type sourceState struct {
	paths  []string
	next   int
	live   int
	rows   int64
	splits []splitState
	badLen int64 // bytes of the bad-rows file; -1 without one
}

type splitState struct {
	ended bool
	pos   SplitPosition
}

// saveState records the read's position. Every split's decoder stands
// just past the last row it delivered; the bad-rows file is flushed and
// synced, and its length recorded.
func (r *splitReader) saveState(e *checkpoint.Encoder) error {
	e.Uint(uint64(len(r.splits)))
	for i := range r.splits {
		e.String(r.splits[i].name)
	}
	e.Int(int64(r.next))
	e.Int(int64(r.live))
	e.Int(r.rows)
	for i := range r.splits {
		s := &r.splits[i]
		e.Bool(s.ended)
		var p SplitPosition
		switch d := s.dec.(type) {
		case positionDecoder:
			p = d.Position()
		case endedDecoder:
			p.Skipped = int64(d)
		default:
			return fmt.Errorf("split %s cannot report its position", s.name)
		}
		p.save(e)
	}
	n, err := r.bad.sync()
	if err != nil {
		return err
	}
	e.Int(n)
	return nil
}

// readSourceState reads what saveState wrote, for a read of paths.
func readSourceState(d *checkpoint.Decoder, paths []string) (*sourceState, error) {
	st := &sourceState{paths: make([]string, d.Len(1))}
	for i := range st.paths {
		st.paths[i] = d.String()
	}
	if d.Err() == nil && !equalStrings(st.paths, paths) {
		return nil, fmt.Errorf("%w: the checkpoint read the files %q, this run reads %q; the input must not change between a checkpoint and its restart",
			checkpoint.ErrIncompatible, st.paths, paths)
	}
	st.next, st.live, st.rows = int(d.Int()), int(d.Int()), d.Int()
	st.splits = make([]splitState, len(paths))
	for i := range st.splits {
		s := &st.splits[i]
		s.ended = d.Bool()
		s.pos = readSplitPosition(d)
	}
	st.badLen = d.Int()
	if err := d.Finish(); err != nil {
		return nil, err
	}
	live := 0
	for _, s := range st.splits {
		if !s.ended {
			live++
		}
	}
	if live != st.live || st.next < 0 || st.next >= max(1, len(paths)) {
		return nil, fmt.Errorf("%w: source state of %d splits has %d live, next %d", checkpoint.ErrCorrupt, len(paths), st.live, st.next)
	}
	return st, nil
}

// seekSplit positions a split's file where its decoder stopped: the file
// must still hold at least that much.
func seekSplit(f *os.File, path string, p SplitPosition) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < p.Offset {
		return fmt.Errorf("%w: %s has %d bytes, but the checkpoint read %d of them: the input must not change between a checkpoint and its restart",
			checkpoint.ErrIncompatible, path, fi.Size(), p.Offset)
	}
	_, err = f.Seek(p.Offset, io.SeekStart)
	return err
}

// endedDecoder stands in for the decoder of a split that had ended when
// the checkpoint was taken: it delivers nothing and remembers the split's
// bad rows for the summary.
type endedDecoder int64

func (endedDecoder) Next() (arrow.RecordBatch, error) { return nil, io.EOF }
func (d endedDecoder) Skipped() int64                 { return int64(d) }

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
