package textsource

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format"
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
	pos   format.SplitPosition
	tail  uint32 // see saveSplit
}

// saveState records the read's position. Every split's decoder stands
// just past the last row it delivered; the bad-rows file is flushed and
// synced, and its length recorded.
func (r *splitReader) SaveState(e *checkpoint.Encoder) error {
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
		var p format.SplitPosition
		switch d := s.dec.(type) {
		case format.Decoder:
			p = d.Position()
		case endedDecoder:
			p.Skipped = int64(d)
		default:
			return fmt.Errorf("split %s cannot report its position", s.name)
		}
		if err := saveSplit(e, s, p); err != nil {
			return err
		}
	}
	n, err := r.bad.Sync()
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
		s.pos, s.tail = readSplit(d)
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

// tailBytes is how much of a split's file before its position a
// checkpoint fingerprints.
const tailBytes = 256

// saveSplit writes a split's position and a checksum of the bytes of its
// file just before it, which a restart compares with the file it opens
// (seekSplit): a file replaced or rewritten since the checkpoint is
// refused rather than read from a position that means nothing in it.
func saveSplit(e *checkpoint.Encoder, s *fileSplit, p format.SplitPosition) error {
	saveSplitPosition(e, p)
	var sum uint32
	if f, ok := s.f.(*os.File); ok {
		var err error
		if sum, err = tailSum(f, p.Offset); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	e.Uint(uint64(sum))
	return nil
}

// readSplit reads what saveSplit wrote.
func readSplit(d *checkpoint.Decoder) (format.SplitPosition, uint32) {
	return readSplitPosition(d), d.Uint32()
}

// tailSum is the CRC-32 of the up to tailBytes bytes of f before off.
func tailSum(f *os.File, off int64) (uint32, error) {
	n := min(off, tailBytes)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off-n); err != nil {
		return 0, err
	}
	return crc32.ChecksumIEEE(buf), nil
}

// seekSplit positions a split's file where its decoder stopped: the file
// must still hold at least that much, ending in the bytes the checkpoint
// saw (tail, see saveSplit; 0 for a split the checkpoint had not opened).
func seekSplit(f *os.File, path string, p format.SplitPosition, tail uint32) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < p.Offset {
		return fmt.Errorf("%w: %s has %d bytes, but the checkpoint read %d of them: the input must not change between a checkpoint and its restart",
			checkpoint.ErrIncompatible, path, fi.Size(), p.Offset)
	}
	sum, err := tailSum(f, p.Offset)
	if err != nil {
		return err
	}
	if sum != tail {
		return fmt.Errorf("%w: %s is not the file the checkpoint read: its bytes before offset %d changed; the input must not change between a checkpoint and its restart",
			checkpoint.ErrIncompatible, path, p.Offset)
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
