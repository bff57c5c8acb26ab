package textsource

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
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/badrows"
	"github.com/wsql/wsql/exec/format"
)

// tailFile reads a file that may still grow: its end is "no data yet".
// Once final, its end is the end of input (a rotated file, read to its
// end); once ended, it has nothing more at all (a truncated file, or a
// clean stop): the decoder then reads a last line without a line end as a
// row, as at the end of any input.
type tailFile struct {
	f     *os.File
	final bool
	ended bool
}

func (t *tailFile) Read(p []byte) (int, error) {
	if t.ended {
		return 0, io.EOF
	}
	n, err := t.f.Read(p)
	if err == io.EOF {
		if n > 0 {
			return n, nil
		}
		if t.final {
			return 0, io.EOF
		}
		return 0, format.ErrNoData
	}
	return n, err
}

// followSplit is one followed file: its name, the file open under it (a
// rotated file stays open until it is read to its end) and its decoder.
type followSplit struct {
	fileSplit
	tail *tailFile
	// switching is set once the name holds another file (rotated) or the
	// file got shorter than what was read (truncated): the decoder reads
	// what is left (rotated) or what it holds (truncated), and then the
	// split goes on with the new content from its start.
	switching switchKind
	behind    bool // at a clean stop, the file held more than was read
	poll      followPoll
}

type switchKind uint8

const (
	noSwitch switchKind = iota
	rotated
	truncated
)

// followReader is the unbounded read of a filesystem source with
// 'source.monitor-interval' (Flink's continuous file monitoring): a split
// does not end at the end of its file but reads what is appended to it,
// and, when the path is a directory, files that appear in it (the names
// ListSplits would list, so not those starting with '.' or '_') join as new
// splits, in name order, at the next poll. A line is read once its line end
// has been written, so a last line without one waits, until a clean stop
// (the context is cancelled): then a split that has read its file to the
// end reads that line as a row, as at the end of input.
//
// As tail -F does, a split whose file has no new data checks its name: if
// the name now holds another file (rotation: mv f f.1 and a new f), the old
// file, still open, is read to its end, its last line as a row, and the
// split goes on with the new file from its start; if the file is shorter
// than what was read (truncated), what was read is finished the same way
// and the file is read again from its start. Both are counted (Stats). A
// rotated file that shows up under a new name in a followed directory is
// recognised (same file, same modification time) and not read twice.
// Truncation is seen only while the file is shorter than what was read: a
// file truncated and rewritten past that length between two polls looks
// appended to.
//
// Splits are read round-robin like splitReader's, each when it is due
// (followPoll: soon after new data, up to an interval after none). When no
// split has anything new, Next waits until one is due or the directory is
// to be listed (the wait ends at once when the context is cancelled) and
// returns a step with neither Record nor End, so the driver regains
// control: it registers splits added since and lets idle splits
// ('scan.watermark.idle-timeout') stop holding the watermark back.
// Next also returns such a step right after new files were found, before
// their rows. The read never ends by itself: only a cancelled context (Next
// returns its error) or an error stops it.
type followReader struct {
	src      *Source
	mem      memory.Allocator
	size     int
	decoding format.Decoding // the source's, with this read's bad-rows hook
	interval time.Duration
	dir      bool // the path is a directory, listed at each poll
	seen     map[string]bool
	finished []os.FileInfo // rotated files read to their end (see discover)
	splits   []followSplit
	next     int // the split whose turn it is
	quiet    int // splits in a row that had nothing new
	lastList time.Time
	rows     int64
	bad      *badrows.File
	ctx      context.Context

	rotations, truncations int64
	draining               bool // stopped: handing out what the splits hold (see drain)
	drainAt                int
	beforeWait             func() // exec.InputWaiter's flush, or nil
}

// openFollow opens the splits listed so far for an unbounded read or, with
// at (what followReader.saveState wrote), the splits of the checkpoint at
// their positions; files that appeared since join at the next poll.
func (s *Source) openFollow(paths []string, mem memory.Allocator, size int, at *checkpoint.Decoder) (exec.BatchReader, error) {
	if s.Decoding == nil {
		return nil, fmt.Errorf("%w: unknown format %q", exec.ErrSource, s.Format)
	}
	st, err := os.Stat(s.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
	}
	r := &followReader{
		src: s, mem: mem, size: size, interval: s.MonitorInterval,
		dir: st.IsDir(), seen: map[string]bool{}, lastList: time.Now(), ctx: context.Background(),
	}
	var saved *followState
	if at != nil {
		if saved, err = readFollowState(at); err != nil {
			return nil, err
		}
		paths = saved.paths
	}
	var onBad func(*format.ParseError, []byte)
	if s.BadRowsPath != "" {
		var bad *badrows.File
		if saved != nil {
			bad, err = badrows.Reopen(s.BadRowsPath, saved.badLen)
		} else {
			bad, err = badrows.Create(s.BadRowsPath)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
		r.bad = bad
		onBad = bad.Write
	} else if saved != nil && saved.badLen >= 0 {
		return nil, fmt.Errorf("%w: the checkpoint wrote a bad-rows file, this run has none", checkpoint.ErrIncompatible)
	}
	r.decoding = s.Decoding.ForRead(onBad, s.MaxRecordBytes)
	for i, p := range paths {
		var pos *format.SplitPosition
		var tail uint32
		if saved != nil {
			pos, tail = &saved.positions[i], saved.tails[i]
		}
		if err := r.add(p, pos, tail); err != nil {
			r.Close()
			if pos != nil && errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %w: the checkpoint was reading %s, which is gone; the files of a followed source must stay until the query is done with them",
					exec.ErrSource, checkpoint.ErrIncompatible, p)
			}
			if pos != nil && errors.Is(err, checkpoint.ErrIncompatible) {
				return nil, fmt.Errorf("%w: %w; a followed file rotated or truncated while the query was stopped, or while it finished a rotated file, cannot resume: remove the checkpoint to read the files from their start",
					exec.ErrSource, err)
			}
			return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
	}
	if saved != nil {
		r.next, r.rows = saved.next, saved.rows
	}
	return r, nil
}

// follow makes waits end when ctx is cancelled; the driver calls it.
func (r *followReader) Follow(ctx context.Context) { r.ctx = ctx }

// BeforeWait runs flush before each wait for appended lines.
func (r *followReader) BeforeWait(flush func()) { r.beforeWait = flush }

// add opens path as the next split, from its start or from at (where
// the file ends in the bytes whose checksum is tail, see saveSplit).
func (r *followReader) add(path string, at *format.SplitPosition, tail uint32) error {
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
	tf := &tailFile{f: f}
	dec := r.decoding.NewDecoder(tf, path, r.src.decodeSchema(), r.mem, r.size)
	if at != nil {
		dec.(interface{ ResumeAt(format.SplitPosition) }).ResumeAt(*at)
	}
	var meta fileMetadata
	if len(r.src.Metadata) > 0 {
		if meta, err = r.src.statFileMetadata(path); err != nil {
			f.Close()
			return err
		}
	}
	r.seen[path] = true
	r.splits = append(r.splits, followSplit{fileSplit: fileSplit{name: path, f: f, dec: dec, meta: meta}, tail: tf})
	return nil
}

// check looks, when split s has nothing new, whether its name still holds
// the file it reads and whether that file got shorter than what was read;
// if not, it starts the switch (see followSplit.switching) and reports it.
func (r *followReader) check(s *followSplit) (bool, error) {
	f := s.tail.f
	open, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("%w: %s: %w", exec.ErrSource, s.name, err)
	}
	if !open.Mode().IsRegular() {
		return false, nil // a named pipe or device: nothing to rotate or truncate
	}
	named, err := os.Stat(s.name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil // moved away, the new file not there yet: wait for it
		}
		return false, fmt.Errorf("%w: %w", exec.ErrSource, err)
	}
	if !os.SameFile(open, named) {
		s.switching, s.tail.final = rotated, true // read on to the old file's end
		return true, nil
	}
	read, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return false, fmt.Errorf("%w: %s: %w", exec.ErrSource, s.name, err)
	}
	if named.Size() < read {
		s.switching, s.tail.ended = truncated, true // what was read is all of it
		return true, nil
	}
	return false, nil
}

// switchFile goes on, once the decoder finished the old content, with the
// new: the file now under the name (rotated) or the same file from its
// start (truncated), with a new decoder.
func (r *followReader) switchFile(s *followSplit) error {
	old := s.tail.f
	f := old
	if s.switching == rotated {
		fi, err := old.Stat()
		if err == nil {
			r.finished = append(r.finished, fi)
			if len(r.finished) > 1000 {
				r.finished = r.finished[1:]
			}
		}
		if f, err = os.Open(s.name); err != nil {
			return fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
		old.Close()
		r.rotations++
	} else {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("%w: %s: %w", exec.ErrSource, s.name, err)
		}
		r.truncations++
	}
	tail := &tailFile{f: f}
	dec := r.decoding.NewDecoder(tail, s.name, r.src.decodeSchema(), r.mem, r.size)
	// The split's bad rows so far go on counting (and into checkpoints).
	dec.(interface{ ResumeAt(format.SplitPosition) }).ResumeAt(format.SplitPosition{Skipped: s.dec.Skipped()})
	s.f, s.tail, s.dec, s.switching = f, tail, dec, noSwitch
	return nil
}

// rotatedAway tells a file that appeared in a followed directory but is a
// file a split read, or reads, under another name: not read twice.
func (r *followReader) rotatedAway(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	for i := range r.splits {
		if open, err := r.splits[i].tail.f.Stat(); err == nil && os.SameFile(open, fi) {
			return true
		}
	}
	for _, done := range r.finished {
		if os.SameFile(done, fi) && done.ModTime().Equal(fi.ModTime()) {
			return true
		}
	}
	return false
}

// discover lists the directory and adds the files not seen yet; a file
// that vanished between listing and opening is skipped.
func (r *followReader) discover() (bool, error) {
	r.lastList = time.Now()
	if !r.dir {
		return false, nil
	}
	paths, err := r.src.listSplits()
	if err != nil {
		return false, fmt.Errorf("%w: %w", exec.ErrSource, err)
	}
	added := false
	for _, p := range paths {
		if r.seen[p] {
			continue
		}
		if r.rotatedAway(p) {
			r.seen[p] = true
			continue
		}
		if err := r.add(p, nil, 0); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return false, fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
		added = true
	}
	return added, nil
}

func (r *followReader) Next() (exec.SplitBatch, error) {
	if err := r.ctx.Err(); err != nil {
		return r.drain(err)
	}
	if time.Since(r.lastList) >= r.interval {
		added, err := r.discover()
		if err != nil {
			return exec.SplitBatch{}, err
		}
		if added {
			r.quiet = 0
			return exec.SplitBatch{}, nil // nothing new yet: the driver registers the splits
		}
	}
	for r.quiet < len(r.splits) {
		i := r.next
		r.next = (r.next + 1) % len(r.splits)
		s := &r.splits[i]
		if !s.poll.ready(time.Now()) {
			r.quiet++ // read it when it is due
			continue
		}
		rec, err := s.dec.Next() // errors name the split's file
		if r.bad != nil && r.bad.Err() != nil {
			if rec != nil {
				rec.Release()
			}
			return exec.SplitBatch{}, r.bad.Err()
		}
		if err == io.EOF && s.switching != noSwitch {
			// the old content is finished: on with the new
			if err := r.switchFile(s); err != nil {
				return exec.SplitBatch{}, err
			}
			s.poll.found()
			r.quiet, r.next = 0, i
			continue
		}
		if err != nil {
			return exec.SplitBatch{}, err
		}
		if rec == nil {
			s.poll.nothing(time.Now(), r.interval)
			if s.switching == noSwitch {
				switched, err := r.check(s)
				if err != nil {
					return exec.SplitBatch{}, err
				}
				if switched {
					s.poll.found()
					r.quiet, r.next = 0, i
					continue
				}
			}
			r.quiet++
			continue
		}
		r.quiet = 0
		s.poll.found()
		r.rows += rec.NumRows()
		return exec.SplitBatch{Record: r.src.withMetadata(rec, &s.meta, r.mem), Split: i}, nil
	}
	// Every split is waiting for data.
	r.quiet = 0
	if r.bad != nil {
		if err := r.bad.Flush(); err != nil {
			return exec.SplitBatch{}, err
		}
	}
	if r.beforeWait != nil {
		r.beforeWait()
	}
	t := time.NewTimer(r.untilDue())
	defer t.Stop()
	select {
	case <-r.ctx.Done():
		return r.drain(r.ctx.Err())
	case <-t.C:
	}
	return exec.SplitBatch{}, nil
}

// untilDue is how long until a split is due to be read again, or the
// directory to be listed: the wait when no split has anything new.
func (r *followReader) untilDue() time.Duration {
	now := time.Now()
	wait := r.lastList.Add(r.interval).Sub(now)
	for i := range r.splits {
		wait = min(wait, r.splits[i].poll.due.Sub(now))
	}
	return max(wait, 0)
}

// drain hands out, after a clean stop, what the splits that read their
// file to its end still hold: the rows of a last line without a line end
// (read as at the end of input). A split behind its file's end stops where
// it is; a restart from a checkpoint reads on from there. Then it returns
// stop, the context's error.
func (r *followReader) drain(stop error) (exec.SplitBatch, error) {
	if !r.draining {
		r.draining = true
		for i := range r.splits {
			s := &r.splits[i]
			read, err := s.tail.f.Seek(0, io.SeekCurrent)
			fi, serr := s.tail.f.Stat()
			if err != nil || serr != nil || read < fi.Size() {
				s.behind = true // (or unknown): not drained
				continue
			}
			s.tail.ended = true
		}
	}
	for r.drainAt < len(r.splits) {
		i := r.drainAt
		s := &r.splits[i]
		if s.behind {
			r.drainAt++
			continue
		}
		rec, err := s.dec.Next()
		if rec != nil {
			r.rows += rec.NumRows()
			return exec.SplitBatch{Record: r.src.withMetadata(rec, &s.meta, r.mem), Split: i}, nil
		}
		if err != nil && err != io.EOF {
			return exec.SplitBatch{}, err
		}
		r.drainAt++
	}
	if r.bad != nil && r.bad.Err() != nil {
		return exec.SplitBatch{}, r.bad.Err()
	}
	return exec.SplitBatch{}, stop
}

func (r *followReader) NumSplits() int { return len(r.splits) }

func (r *followReader) Stats() exec.SourceStats {
	st := exec.SourceStats{Rows: r.rows, Rotated: r.rotations, Truncated: r.truncations}
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
		if err := r.bad.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

var (
	_ exec.BatchReader = (*followReader)(nil)
	_ exec.InputWaiter = (*followReader)(nil)
)

// saveState records the followed splits, in order, with where each
// decoder stands (a partial last line is not behind it: it is read again),
// whose turn it is, and the bad-rows file's length.
func (r *followReader) SaveState(e *checkpoint.Encoder) error {
	e.Uint(uint64(len(r.splits)))
	for i := range r.splits {
		s := &r.splits[i]
		d, ok := s.dec.(format.Decoder)
		if !ok {
			return fmt.Errorf("split %s cannot report its position", s.name)
		}
		e.String(s.name)
		if err := saveSplit(e, &s.fileSplit, d.Position()); err != nil {
			return err
		}
	}
	e.Int(int64(r.next))
	e.Int(r.rows)
	n, err := r.bad.Sync()
	if err != nil {
		return err
	}
	e.Int(n)
	return nil
}

// followState is what followReader.saveState wrote.
type followState struct {
	paths     []string
	positions []format.SplitPosition
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

// BadRows is the read's bad-rows file, which the future filter writes to as well.
func (r *followReader) BadRows() *badrows.File { return r.bad }
