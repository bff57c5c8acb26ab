package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/checkpoint"
)

// errNoData is what a followed file returns at its current end instead of
// io.EOF: the decoders hand out the rows they have (maybe none) and keep
// any partial line for when the rest arrives.
var errNoData = errors.New("no data yet")

// tailFile reads a file that may still grow: its end is "no data yet".
type tailFile struct{ f *os.File }

func (t tailFile) Read(p []byte) (int, error) {
	n, err := t.f.Read(p)
	if err == io.EOF {
		if n > 0 {
			return n, nil
		}
		return 0, errNoData
	}
	return n, err
}

// followReader is the unbounded read of a filesystem source with
// 'source.monitor-interval' (Flink's continuous file monitoring): a split
// does not end at the end of its file but reads what is appended to it,
// and, when the path is a directory, files that appear in it (the names
// ListSplits would list, so not those starting with '.' or '_') join as new
// splits, in name order, at the next poll. A line is read once its line end
// has been written, so a last line without one waits. Files are not
// expected to be truncated or replaced (Flink's monitoring reads a modified
// file again; wsql does not).
//
// Splits are read round-robin like splitReader's. When no split has
// anything new, Next waits for the interval (the wait ends at once when the
// context is cancelled) and returns a step with neither Record nor End, so
// the driver regains control: it registers splits added since and lets idle
// splits ('scan.watermark.idle-timeout') stop holding the watermark back.
// Next also returns such a step right after new files were found, before
// their rows. The read never ends by itself: only a cancelled context (Next
// returns its error) or an error stops it.
type followReader struct {
	src      *FileSource
	mem      memory.Allocator
	size     int
	csv      CSVOptions
	json     JSONOptions
	interval time.Duration
	dir      bool // the path is a directory, listed at each poll
	seen     map[string]bool
	splits   []fileSplit
	next     int // the split whose turn it is
	quiet    int // splits in a row that had nothing new
	lastList time.Time
	rows     int64
	bad      *badRowsFile
	ctx      context.Context
}

// openFollow opens the splits listed so far for an unbounded read or, with
// at (what followReader.saveState wrote), the splits of the checkpoint at
// their positions; files that appeared since join at the next poll.
func (s *FileSource) openFollow(paths []string, mem memory.Allocator, size int, at *checkpoint.Decoder) (BatchReader, error) {
	st, err := os.Stat(s.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSource, err)
	}
	r := &followReader{
		src: s, mem: mem, size: size, interval: s.MonitorInterval,
		dir: st.IsDir(), seen: map[string]bool{}, lastList: time.Now(), ctx: context.Background(),
	}
	r.csv, r.json = s.formatOptions()
	var saved *followState
	if at != nil {
		if saved, err = readFollowState(at); err != nil {
			return nil, err
		}
		paths = saved.paths
	}
	if s.BadRowsPath != "" {
		var bad *badRowsFile
		if saved != nil {
			bad, err = reopenBadRowsFile(s.BadRowsPath, saved.badLen)
		} else {
			bad, err = createBadRowsFile(s.BadRowsPath)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSource, err)
		}
		r.bad = bad
		r.csv.OnBadRow = chainBadRow(r.csv.OnBadRow, bad.write)
		r.json.OnBadRow = chainBadRow(r.json.OnBadRow, bad.write)
	} else if saved != nil && saved.badLen >= 0 {
		return nil, fmt.Errorf("%w: the checkpoint wrote a bad-rows file, this run has none", checkpoint.ErrIncompatible)
	}
	for i, p := range paths {
		var pos *SplitPosition
		var tail uint32
		if saved != nil {
			pos, tail = &saved.positions[i], saved.tails[i]
		}
		if err := r.add(p, pos, tail); err != nil {
			r.Close()
			if pos != nil && errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %w: the checkpoint was reading %s, which is gone; the files of a followed source must stay until the query is done with them",
					ErrSource, checkpoint.ErrIncompatible, p)
			}
			return nil, fmt.Errorf("%w: %w", ErrSource, err)
		}
	}
	if saved != nil {
		r.next, r.rows = saved.next, saved.rows
	}
	return r, nil
}

// follow makes waits end when ctx is cancelled; the driver calls it.
func (r *followReader) follow(ctx context.Context) { r.ctx = ctx }

// add opens path as the next split, from its start or from at (where
// the file ends in the bytes whose checksum is tail, see saveSplit).
func (r *followReader) add(path string, at *SplitPosition, tail uint32) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	if at != nil {
		if err := seekSplit(f, path, *at, tail); err != nil {
			f.Close()
			return err
		}
	}
	dec, err := r.src.newDecoder(tailFile{f}, path, r.csv, r.json, r.mem, r.size)
	if err != nil {
		f.Close()
		return err
	}
	if at != nil {
		dec.(interface{ ResumeAt(SplitPosition) }).ResumeAt(*at)
	}
	r.seen[path] = true
	r.splits = append(r.splits, fileSplit{name: path, f: f, dec: dec})
	return nil
}

// discover lists the directory and adds the files not seen yet; a file
// that vanished between listing and opening is skipped.
func (r *followReader) discover() (bool, error) {
	r.lastList = time.Now()
	if !r.dir {
		return false, nil
	}
	paths, err := ListSplits(r.src.Path)
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrSource, err)
	}
	added := false
	for _, p := range paths {
		if r.seen[p] {
			continue
		}
		if err := r.add(p, nil, 0); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return false, fmt.Errorf("%w: %w", ErrSource, err)
		}
		added = true
	}
	return added, nil
}

func (r *followReader) Next() (SplitBatch, error) {
	if err := r.ctx.Err(); err != nil {
		return SplitBatch{}, err
	}
	if time.Since(r.lastList) >= r.interval {
		added, err := r.discover()
		if err != nil {
			return SplitBatch{}, err
		}
		if added {
			r.quiet = 0
			return SplitBatch{}, nil // nothing new yet: the driver registers the splits
		}
	}
	for r.quiet < len(r.splits) {
		i := r.next
		r.next = (r.next + 1) % len(r.splits)
		rec, err := r.splits[i].dec.Next() // errors name the split's file
		if r.bad != nil && r.bad.err != nil {
			if rec != nil {
				rec.Release()
			}
			return SplitBatch{}, r.bad.err
		}
		if err != nil {
			return SplitBatch{}, err
		}
		if rec == nil {
			r.quiet++
			continue
		}
		r.quiet = 0
		r.rows += rec.NumRows()
		return SplitBatch{Record: rec, Split: i}, nil
	}
	// Every split is waiting for data.
	r.quiet = 0
	if r.bad != nil && r.bad.f != nil {
		if err := r.bad.w.Flush(); err != nil {
			r.bad.err = fmt.Errorf("bad rows file: %w", err)
			return SplitBatch{}, r.bad.err
		}
	}
	t := time.NewTimer(r.interval)
	defer t.Stop()
	select {
	case <-r.ctx.Done():
		return SplitBatch{}, r.ctx.Err()
	case <-t.C:
	}
	return SplitBatch{}, nil
}

func (r *followReader) NumSplits() int { return len(r.splits) }

func (r *followReader) Stats() SourceStats {
	st := SourceStats{Rows: r.rows}
	for i := range r.splits {
		st.Skipped += r.splits[i].dec.Skipped()
	}
	return st
}

func (r *followReader) Close() error {
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

var _ BatchReader = (*followReader)(nil)

// saveState records the followed splits, in order, with where each
// decoder stands (a partial last line is not behind it: it is read again),
// whose turn it is, and the bad-rows file's length.
func (r *followReader) saveState(e *checkpoint.Encoder) error {
	e.Uint(uint64(len(r.splits)))
	for i := range r.splits {
		s := &r.splits[i]
		d, ok := s.dec.(positionDecoder)
		if !ok {
			return fmt.Errorf("split %s cannot report its position", s.name)
		}
		e.String(s.name)
		if err := saveSplit(e, s, d.Position()); err != nil {
			return err
		}
	}
	e.Int(int64(r.next))
	e.Int(r.rows)
	n, err := r.bad.sync()
	if err != nil {
		return err
	}
	e.Int(n)
	return nil
}

// followState is what followReader.saveState wrote.
type followState struct {
	paths     []string
	positions []SplitPosition
	tails     []uint32 // see saveSplit
	next      int
	rows      int64
	badLen    int64
}

func readFollowState(d *checkpoint.Decoder) (*followState, error) {
	st := &followState{}
	n := d.Len(7)
	for range n {
		st.paths = append(st.paths, d.String())
		p, tail := readSplit(d)
		st.positions = append(st.positions, p)
		st.tails = append(st.tails, tail)
	}
	st.next, st.rows, st.badLen = int(d.Int()), d.Int(), d.Int()
	if d.Err() == nil && (st.next < 0 || st.next >= max(1, n)) {
		d.Fail("split %d of %d", st.next, n)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return st, nil
}
