package filesystem

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

	// the in-progress file, nil between a PreCommit and the next batch
	f    *os.File
	w    writer.ResultWriter
	part uint64

	own *sinkOwnership // the claim on the directory (CreateOwned); nil without

	err    error // a failed write or PreCommit: the output is not trusted
	closed bool
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
	w := &partFileWriter{sink: s, dir: s.Path, nth: nth, loc: loc, newWriter: newWriter}
	var pending []uint64
	if state != nil {
		w.next = state.Uint()
		pending = checkpoint.ReadUints[uint64](state)
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
			w.name(p, false), w.dir, w.name(p, true))
	}
	return w.clean(func(n uint64, inProgress bool) bool { return inProgress || n >= w.next })
}

// clean deletes the writer's part files in the directory for which del
// returns true and fsyncs the directory.
func (w *partFileWriter) clean(del func(n uint64, inProgress bool) bool) error {
	entries, err := os.ReadDir(w.dir)
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
		if err := os.Remove(filepath.Join(w.dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("filesystem sink: %w", err)
		}
	}
	if err := checkpoint.SyncDir(w.dir); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
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
	return filepath.Join(w.dir, w.name(n, inProgress))
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
// in-progress part file, opening a new one if PreCommit ended the last. A
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
	if w.f == nil {
		if err := w.open(); err != nil {
			return w.fail(err)
		}
	}
	if err := w.sink.writeOrdered(w.w, rec, w.loc); err != nil {
		return w.fail(fmt.Errorf("filesystem sink: writing %s: %w", w.name(w.part, true), err))
	}
	return nil
}

// open starts the next part file, in progress.
func (w *partFileWriter) open() error {
	n := w.next
	f, err := os.OpenFile(w.path(n, true), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	fw, err := w.newWriter(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("filesystem sink: %w", err)
	}
	w.f, w.w, w.part = f, fw, n
	w.next++
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

// PreCommit ends the in-progress part file, if it holds anything: the
// writer is finished (a Parquet footer), the file flushed, fsynced and
// closed, and it joins the pending files. The next batch opens a new one.
// The directory is fsynced too, so the file's name survives a crash.
func (w *partFileWriter) PreCommit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	if w.f == nil {
		return nil
	}
	f, name := w.f, w.name(w.part, true)
	err := w.w.Close()
	if err == nil {
		err = f.Sync()
	}
	if err == nil && w.own != nil {
		err = w.own.ended(f, w.part)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	w.f, w.w = nil, nil
	if err == nil {
		err = checkpoint.SyncDir(w.dir)
	}
	if err != nil {
		return w.fail(fmt.Errorf("filesystem sink: ending %s: %w", name, err))
	}
	w.pending = append(w.pending, w.part)
	return nil
}

// State writes what a restore needs: the next part number and the pending
// files (their part numbers).
func (w *partFileWriter) State(e *checkpoint.Encoder) {
	e.Uint(w.next)
	checkpoint.Uints(e, w.pending)
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
// the directory and forgets them. Called after the checkpoint that lists
// them is durable. A pending file already committed (by an earlier Commit
// that failed part way) is skipped.
func (w *partFileWriter) Commit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if len(w.pending) == 0 {
		return nil
	}
	for len(w.pending) > 0 {
		p := w.pending[0]
		if err := os.Rename(w.path(p, true), w.path(p, false)); err != nil {
			if _, serr := os.Lstat(w.path(p, false)); !errors.Is(err, fs.ErrNotExist) || serr != nil {
				return fmt.Errorf("filesystem sink: committing %s: %w", w.name(p, true), err)
			}
		}
		w.pending = w.pending[1:]
	}
	w.pending = nil
	if err := checkpoint.SyncDir(w.dir); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
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
	if w.f != nil {
		err = w.f.Close()
		w.f, w.w = nil, nil
	}
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
