package filesystem

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format/writer"
)

// partFileWriter writes a filesystem sink as a directory of part files
// that become visible at checkpoints, as Flink's fileSink does: rows go to
// a hidden in-progress file `.part-NNNNNN.<format>.inprogress` (wsql skips
// names starting with '.' when it reads a directory); at a checkpoint
// PreCommit ends it and it becomes pending; once the checkpoint listing it
// is durable, Commit renames it to `part-NNNNNN.<format>`. The counter is
// six digits, zero-padded, from 0, so name order is output order (up to a
// million parts). Each part file is complete on its own: CSV without a
// header, JSON lines, or a Parquet file with its footer.
//
// After a crash the run restarts from its last checkpoint (CreateCommitting
// with the state State wrote): the pending files it lists are committed,
// everything written after it is deleted, and the numbering continues, so
// the committed files are those of an uninterrupted run.
//
// A later INSERT of a script into the same directory (CreateOwned's nth)
// names its files `part-<i>-NNNNNN.<format>`, i counting the script's
// INSERTs into the directory from 0, as Flink's jobs add part files of
// their own: what one INSERT deletes on a fresh start or a restore, and
// what it owns (sink_owner.go), is its own files only, never another's.
//
// The engine's protocol: at each checkpoint PreCommit, State into the
// checkpoint, save the checkpoint durably, Commit; at the end of the input
// PreCommit, the final checkpoint, Commit, Close.
type partFileWriter struct {
	sink      *fileSink
	dir       string
	nth       int // the script's INSERTs into the directory before this one
	loc       *time.Location
	newWriter func(io.Writer) (writer.ResultWriter, error)

	next    uint64   // number of the next part file opened
	pending []uint64 // ended and fsynced, awaiting Commit, ascending
	// subs are, for a partitioned sink, the partition directory of each
	// part numbered below next (`col=value/...`, relative to dir): the
	// numbering is one across partitions, in the order parts are opened.
	// Nil for an unpartitioned sink, whose parts are all in dir.
	subs []string

	// the in-progress files, by partition directory ("" unpartitioned),
	// in part order; none between a PreCommit and the next batch
	open   []*openPart
	byDir  map[string]*openPart
	commit map[string]bool // partitions with pending parts, to commit

	own *sinkOwnership // the claim on the directory (CreateOwned); nil without

	err    error // a failed write or PreCommit: the output is not trusted
	closed bool
}

// openPart is an in-progress part file.
type openPart struct {
	dir  string // its partition directory
	f    *os.File
	size countingWriter // what the format writer wrote into f
	w    writer.ResultWriter
	part uint64
	// opened is when the file was opened, for
	// 'sink.rolling-policy.rollover-interval'
	opened time.Time
}

// countingWriter counts the bytes written through it, for
// 'sink.rolling-policy.file-size'.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

var _ writer.ResultWriter = (*partFileWriter)(nil)

// CreateCommitting opens the sink for a checkpointed run. state is nil on a
// fresh start, or what State wrote into the checkpoint being restored.
//
// The sink's Path is a directory, created if missing. A fresh start
// deletes the part files of the sink's format a former run left in it
// (committed and in progress; no other file) and numbers from 0. A restore
// commits the pending files of the state (an error if one is gone), deletes
// the sink's other in-progress files and its committed files numbered from
// the state's next number on, and continues the numbering there. The state
// is read from d's current position; the caller checks for bytes left over.
func (s *fileSink) CreateCommitting(loc *time.Location, state *checkpoint.Decoder) (*partFileWriter, error) {
	return s.createCommitting(loc, state, 0, nil, nil)
}

// createCommitting is CreateCommitting for the nth INSERT (from 0) of a
// script into the sink's directory, claiming the INSERT's part files first
// when own is set (CreateOwned; ownerState is the checkpoint's
// "sink-owner" part, nil when it has none). From the second INSERT on, the
// part files are `part-<nth>-NNNNNN.<format>`, and what the writer deletes
// is only its own files.
func (s *fileSink) createCommitting(loc *time.Location, state *checkpoint.Decoder, nth int, own *sinkOwnership, ownerState *checkpoint.Decoder) (*partFileWriter, error) {
	newWriter, err := s.formatWriter(loc)
	if err != nil {
		return nil, err
	}
	w := &partFileWriter{sink: s, dir: s.Path, nth: nth, loc: loc, newWriter: newWriter, byDir: map[string]*openPart{}, commit: map[string]bool{}}
	var pending []uint64
	if state != nil {
		w.next = state.Uint()
		pending = checkpoint.ReadUints[uint64](state)
		if s.Partition != nil {
			w.subs = make([]string, 0, min(w.next, 1<<20))
			for range w.next {
				if w.subs = append(w.subs, state.String()); state.Err() != nil {
					break // a damaged state: reported below
				}
				if sub := w.subs[len(w.subs)-1]; !isPartitionDir(sub) {
					state.Fail("part %d's directory %q is not a partition directory", len(w.subs)-1, sub)
					break
				}
			}
		}
		for i, p := range pending {
			if p >= w.next {
				state.Fail("pending part %d is not below the next part number %d", p, w.next)
				break
			}
			if i > 0 && p <= pending[i-1] {
				state.Fail("pending parts %d and %d are out of order", pending[i-1], p)
				break
			}
		}
		if err := state.Err(); err != nil {
			return nil, fmt.Errorf("filesystem sink: state of %s: %w", s.String(), err)
		}
	}
	if err := w.makeDir(); err != nil {
		return nil, err
	}
	if own != nil {
		w.own = own
		if err := own.claim(w, state != nil, pending, ownerState); err != nil {
			w.Close()
			return nil, err
		}
	}
	if state != nil {
		err = w.restore(pending)
	} else {
		err = w.clean(func(uint64, bool) bool { return true })
	}
	if err == nil && own != nil {
		err = own.record(w)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// makeDir makes sure the sink's path is a directory, creating it (durably)
// if it is missing.
func (w *partFileWriter) makeDir() error {
	st, err := os.Stat(w.dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("filesystem sink: with checkpoints the filesystem sink writes part files into a directory; %s is a file", w.dir)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("filesystem sink: %w", err)
	}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	if err := checkpoint.SyncDir(filepath.Dir(filepath.Clean(w.dir))); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}

// restore commits the pending parts of the checkpoint being restored and
// deletes the sink's files no checkpoint covers.
func (w *partFileWriter) restore(pending []uint64) error {
	for _, p := range pending {
		err := os.Rename(w.path(p, true), w.path(p, false))
		if err == nil {
			continue // the crash came before Commit
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("filesystem sink: committing %s: %w", w.name(p, true), err)
		}
		if _, serr := os.Lstat(w.path(p, false)); serr == nil {
			continue // committed before the crash
		} else if !errors.Is(serr, fs.ErrNotExist) {
			return fmt.Errorf("filesystem sink: %w", serr)
		}
		return fmt.Errorf("filesystem sink: the checkpoint being restored covers part file %s of %s, but neither it nor %s exists: the output the checkpoint covers is gone",
			w.displayName(p, false), w.dir, w.name(p, true))
	}
	if err := w.commitPartitions(pending); err != nil {
		return err
	}
	return w.clean(func(n uint64, inProgress bool) bool { return inProgress || n >= w.next })
}

// clean deletes the writer's part files for which del returns true and
// fsyncs the directories: those in the directory, and for a partitioned
// sink those in its partition directories below it too.
func (w *partFileWriter) clean(del func(n uint64, inProgress bool) bool) error {
	dirs := []string{w.dir}
	if w.sink.Partition != nil {
		var err error
		if dirs, err = partitionDirs(w.dir); err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			n, inProgress, ok := parsePartName(e.Name(), w.prefix(), w.sink.Format)
			if !ok || !del(n, inProgress) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("filesystem sink: %w", err)
			}
		}
		if err := checkpoint.SyncDir(dir); err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
	}
	return nil
}

// partitionDirs are root and the directories below it, the hidden ones
// (names starting with '.') left out: where a partitioned sink's part
// files are.
func partitionDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	})
	return dirs, err
}

// name is part n's file name: committed, or hidden in progress.
func (w *partFileWriter) name(n uint64, inProgress bool) string {
	name := fmt.Sprintf("%s%06d.%s", w.prefix(), n, w.sink.Format)
	if inProgress {
		return "." + name + ".inprogress"
	}
	return name
}

// prefix starts the writer's part file names: "part-" for a script's first
// INSERT into the directory, "part-<nth>-" for a later one.
func (w *partFileWriter) prefix() string {
	if w.nth == 0 {
		return "part-"
	}
	return "part-" + strconv.Itoa(w.nth) + "-"
}

func (w *partFileWriter) path(n uint64, inProgress bool) string {
	return filepath.Join(w.partDir(n), w.name(n, inProgress))
}

// partDir is the directory of part n: the sink's, or its partition's.
func (w *partFileWriter) partDir(n uint64) string {
	if n < uint64(len(w.subs)) {
		return filepath.Join(w.dir, filepath.FromSlash(w.subs[n]))
	}
	return w.dir
}

// displayName is part n's name for messages: with its partition directory.
func (w *partFileWriter) displayName(n uint64, inProgress bool) string {
	if n < uint64(len(w.subs)) {
		return w.subs[n] + "/" + w.name(n, inProgress)
	}
	return w.name(n, inProgress)
}

// parsePartName reads a part file name of the format: `<prefix>NNNNNN.<format>`
// or `.<prefix>NNNNNN.<format>.inprogress`, the number written as name writes
// it (six digits or more, no extra leading zeros).
func parsePartName(name, prefix, format string) (n uint64, inProgress, ok bool) {
	if rest, found := strings.CutPrefix(name, "."); found {
		if name, inProgress = strings.CutSuffix(rest, ".inprogress"); !inProgress {
			return 0, false, false
		}
	}
	digits, found := strings.CutPrefix(name, prefix)
	if !found {
		return 0, false, false
	}
	if digits, found = strings.CutSuffix(digits, "."+format); !found || len(digits) < 6 {
		return 0, false, false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, false, false
		}
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || fmt.Sprintf("%06d", n) != digits {
		return 0, false, false
	}
	return n, inProgress, true
}

// WriteBatch writes rec's rows (in the sink table's column order) to the
// in-progress part file, opening a new one if PreCommit ended the last; a
// partitioned sink's rows go to their partition's in-progress file. A
// batch without rows opens nothing.
func (w *partFileWriter) WriteBatch(rec arrow.RecordBatch) error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if w.sink.Partition == nil {
		return w.writePart("", w.sink, rec)
	}
	batches, err := w.sink.split(rec, w.loc)
	if err != nil {
		return w.fail(fmt.Errorf("filesystem sink: %w", err))
	}
	defer func() {
		for _, b := range batches {
			b.Rec.Release()
		}
	}()
	for _, b := range batches {
		if err := w.writePart(b.Dir, w.sink.Partition.Data, b.Rec); err != nil {
			return err
		}
	}
	return nil
}

// writePart writes rec through sink (the table's, or a partition's data
// columns) into the in-progress file of partition dir, rolling it once it
// holds 'sink.rolling-policy.file-size' bytes.
func (w *partFileWriter) writePart(dir string, sink *fileSink, rec arrow.RecordBatch) error {
	p := w.byDir[dir]
	if p == nil {
		var err error
		if p, err = w.openPart(dir); err != nil {
			return w.fail(err)
		}
	}
	if err := sink.writeOrdered(p.w, rec, w.loc); err != nil {
		return w.fail(fmt.Errorf("filesystem sink: writing %s: %w", w.displayName(p.part, true), err))
	}
	if roll := w.sink.RollSize; roll > 0 && p.size.n >= roll {
		return w.end(p)
	}
	if d := w.sink.RolloverInterval; d > 0 && time.Since(p.opened) >= d {
		return w.end(p)
	}
	return nil
}

// openPart starts the next part file, in progress, in partition dir.
func (w *partFileWriter) openPart(dir string) (*openPart, error) {
	n := w.next
	if w.sink.Partition != nil {
		if err := w.makePartitionDir(dir); err != nil {
			return nil, err
		}
		w.subs = append(w.subs, dir)
	}
	f, err := os.OpenFile(w.path(n, true), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		if w.sink.Partition != nil {
			w.subs = w.subs[:n]
		}
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	p := &openPart{dir: dir, f: f, part: n, size: countingWriter{w: f}, opened: time.Now()}
	fw, err := w.newWriter(&p.size)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	p.w = fw
	w.open = append(w.open, p)
	w.byDir[dir] = p
	w.next++
	return p, nil
}

// makePartitionDir creates partition dir below the sink's directory, each
// new level made durable in its parent.
func (w *partFileWriter) makePartitionDir(dir string) error {
	full := filepath.Join(w.dir, filepath.FromSlash(dir))
	if st, err := os.Stat(full); err == nil && st.IsDir() {
		return nil
	}
	if err := os.MkdirAll(full, 0o755); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	for d := full; d != filepath.Clean(w.dir); d = filepath.Dir(d) {
		if err := checkpoint.SyncDir(filepath.Dir(d)); err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
	}
	return nil
}

// fail makes err sticky: after a failed write the in-progress file is not
// to be committed.
func (w *partFileWriter) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

// PreCommit ends the in-progress part files, if they hold anything: each
// writer is finished (a Parquet footer), the file flushed, fsynced and
// closed, and it joins the pending files. The next batch opens new ones.
// The directories are fsynced too, so the files' names survive a crash.
func (w *partFileWriter) PreCommit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	for len(w.open) > 0 {
		if err := w.end(w.open[0]); err != nil {
			return err
		}
	}
	return nil
}

// end ends in-progress part p (see PreCommit): rolled, it is pending until
// the next checkpoint commits it.
func (w *partFileWriter) end(p *openPart) error {
	name := w.displayName(p.part, true)
	err := p.w.Close()
	if err == nil {
		err = p.f.Sync()
	}
	if err == nil && w.own != nil {
		err = w.own.ended(p.f, p.part)
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	for i, o := range w.open {
		if o == p {
			w.open = append(w.open[:i], w.open[i+1:]...)
			break
		}
	}
	delete(w.byDir, p.dir)
	if err == nil {
		err = checkpoint.SyncDir(w.partDir(p.part))
	}
	if err != nil {
		return w.fail(fmt.Errorf("filesystem sink: ending %s: %w", name, err))
	}
	// a rolled part may end before one opened earlier: keep them ascending
	i := len(w.pending)
	for i > 0 && w.pending[i-1] > p.part {
		i--
	}
	w.pending = append(w.pending[:i], append([]uint64{p.part}, w.pending[i:]...)...)
	return nil
}

// State writes what a restore needs: the next part number and the pending
// files (their part numbers).
func (w *partFileWriter) State(e *checkpoint.Encoder) {
	e.Uint(w.next)
	checkpoint.Uints(e, w.pending)
	if w.sink.Partition != nil {
		for _, s := range w.subs {
			e.String(s)
		}
	}
}

// OwnerState writes the checkpoint's "sink-owner" part: the claim on the
// directory a restore checks (see CreateOwned). False when the writer
// claimed nothing.
func (w *partFileWriter) OwnerState(e *checkpoint.Encoder) bool {
	if w.own == nil {
		return false
	}
	w.own.state(e)
	return true
}

// Commit makes the pending files visible (rename to the final name), fsyncs
// the directories and forgets them. Called after the checkpoint that lists
// them is durable. A pending file already committed (by an earlier Commit
// that failed part way) is skipped. Then the partitions whose files were
// committed are committed, by the partition commit policy.
func (w *partFileWriter) Commit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if len(w.pending) == 0 {
		return nil
	}
	dirs := map[string]bool{}
	committed := w.pending
	for len(w.pending) > 0 {
		p := w.pending[0]
		if err := os.Rename(w.path(p, true), w.path(p, false)); err != nil {
			if _, serr := os.Lstat(w.path(p, false)); !errors.Is(err, fs.ErrNotExist) || serr != nil {
				return fmt.Errorf("filesystem sink: committing %s: %w", w.displayName(p, true), err)
			}
		}
		dirs[w.partDir(p)] = true
		w.pending = w.pending[1:]
	}
	w.pending = nil
	for _, d := range sortedKeys(dirs) {
		if err := checkpoint.SyncDir(d); err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
	}
	return w.commitPartitions(committed)
}

// commitPartitions commits the partitions of the parts just committed,
// each once, in part order.
func (w *partFileWriter) commitPartitions(parts []uint64) error {
	if w.sink.Partition == nil {
		return nil
	}
	done := map[string]bool{}
	for _, p := range parts {
		if dir := w.subs[p]; !done[dir] {
			done[dir] = true
			if err := w.sink.Partition.commit(w.dir, dir); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Close closes the in-progress file without committing it; it stays
// hidden (a restart deletes it). Pending files stay hidden too, until a
// restart from the checkpoint listing them commits them. Close is
// idempotent.
func (w *partFileWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var err error
	for _, p := range w.open {
		if cerr := p.f.Close(); err == nil {
			err = cerr
		}
	}
	w.open, w.byDir = nil, nil
	if w.own != nil {
		if uerr := w.own.release(); err == nil {
			err = uerr
		}
	}
	if err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}
