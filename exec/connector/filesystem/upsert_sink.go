package filesystem

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/windowop"
)

// upsertWriter is the filesystem sink of a table with a PRIMARY KEY: as
// Flink's upsert sinks, it materialises the update stream by the key (+I
// and +U put the row of their key, -D removes it, -U is skipped, as the
// +U that follows replaces the row). The file holds the current rows in
// the order their keys first appeared, so the output does not depend on
// how the rows were batched; it is rewritten atomically (a hidden file
// renamed over it) at the end of the input and, with checkpoints, at each
// checkpoint's commit.
//
// The rows are kept as the text the format writes for them, so a row is
// formatted once, however often the file is rewritten, and a checkpoint
// holds the text.
type upsertWriter struct {
	sink *fileSink
	path string
	loc  *time.Location
	text writer.ResultWriter // the format's writer into buf
	buf  bytes.Buffer
	csv  bool // a row ends at a line end outside quotes

	index  map[string]int // key text -> rows
	rows   []upsertRow
	keyBuf []byte

	committing bool // with checkpoints: Commit makes the file visible
	pending    bool // PreCommit wrote the hidden file Commit renames
	err        error
	closed     bool
}

type upsertRow struct {
	key  string
	line []byte // the row's text with its line end
	live bool   // false once deleted; the key keeps its place
}

var (
	_ writer.ResultWriter   = (*upsertWriter)(nil)
	_ exec.CommittingWriter = (*upsertWriter)(nil)
)

// createUpsert opens the upsert file of a run without checkpoints, or of a
// checkpointed run when state (from State) is set; the file is rewritten
// empty (or with the state's rows) at once, so a run that fails before its
// end leaves a whole file.
func (s *fileSink) createUpsert(loc *time.Location, path string, state *checkpoint.Decoder) (*upsertWriter, error) {
	newWriter, err := s.formatWriter(loc)
	if err != nil {
		return nil, err
	}
	w := &upsertWriter{sink: s, path: path, loc: loc, csv: s.Format != formats.JSON, index: map[string]int{}}
	if w.text, err = newWriter(&w.buf); err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	if state != nil {
		for n := state.Len(1); n > 0 && state.Err() == nil; n-- {
			r := upsertRow{key: state.String(), line: append([]byte(nil), state.Bytes()...), live: state.Bool()}
			w.index[r.key] = len(w.rows)
			w.rows = append(w.rows, r)
		}
		if err := state.Err(); err != nil {
			return nil, fmt.Errorf("filesystem sink: state of %s: %w", s.String(), err)
		}
	}
	if err := w.writeFile(); err != nil {
		return nil, err
	}
	return w, nil
}

// CreateUpsertCommitting opens the upsert file of the nth INSERT for a
// checkpointed run; restore is the checkpoint restored, nil on a fresh
// start. A restore rewrites the file with the rows of the checkpoint, which
// is what was committed at it, whether or not the crash came before the
// commit.
func (s *fileSink) CreateUpsertCommitting(loc *time.Location, restore *checkpoint.Snapshot, nth int) (*upsertWriter, error) {
	path, err := s.nthPath(nth)
	if err != nil {
		return nil, err
	}
	var state *checkpoint.Decoder
	if restore != nil {
		if state = exec.SinkState(restore); state == nil {
			return nil, fmt.Errorf("%w: the checkpoint has no sink-files state", checkpoint.ErrIncompatible)
		}
	}
	w, err := s.createUpsert(loc, path, state)
	if err != nil {
		return nil, err
	}
	if state != nil {
		if err := state.Finish(); err != nil {
			return nil, fmt.Errorf("filesystem sink: state of %s: %w", s.String(), err)
		}
	}
	w.committing = true
	return w, nil
}

func (w *upsertWriter) WriteBatch(rec arrow.RecordBatch) error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	kinds, cols, err := w.sink.declared(rec, w.loc)
	if err != nil {
		return w.fail(fmt.Errorf("filesystem sink: %w", err))
	}
	declared := array.NewRecordBatch(w.sink.Schema, cols, rec.NumRows())
	defer declared.Release()
	w.buf.Reset()
	if err := w.text.WriteBatch(declared); err != nil {
		return w.fail(fmt.Errorf("filesystem sink: %w", err))
	}
	text := w.buf.Bytes()
	for i := 0; i < int(rec.NumRows()); i++ {
		n := w.rowEnd(text)
		line := text[:n]
		text = text[n:]
		kind := windowop.Insert
		if kinds != nil {
			kind = windowop.RowKind(kinds.Value(i))
		}
		switch kind {
		case windowop.UpdateBefore:
			continue
		case windowop.Delete:
			if r, ok := w.index[string(w.key(cols, i))]; ok {
				w.rows[r].live = false
			}
		default:
			w.put(w.key(cols, i), line)
		}
	}
	return nil
}

// rowEnd is the length of the first row of text, its line end included:
// CSV quotes may hold line ends, JSON lines cannot.
func (w *upsertWriter) rowEnd(text []byte) int {
	quoted := false
	for i, c := range text {
		switch {
		case c == '"' && w.csv:
			quoted = !quoted
		case c == '\n' && !quoted:
			return i + 1
		}
	}
	return len(text)
}

// key is row i's key: each key column's text after its length.
func (w *upsertWriter) key(cols []arrow.Array, i int) []byte {
	b := w.keyBuf[:0]
	for _, k := range w.sink.Key {
		start := len(b)
		b = append(b, 0, 0, 0, 0)
		b = format.AppendValue(b, cols[k], i, w.loc)
		binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	}
	w.keyBuf = b
	return b
}

func (w *upsertWriter) put(key, line []byte) {
	if r, ok := w.index[string(key)]; ok {
		w.rows[r].line = append(w.rows[r].line[:0], line...)
		w.rows[r].live = true
		return
	}
	w.index[string(key)] = len(w.rows)
	w.rows = append(w.rows, upsertRow{key: string(key), line: append([]byte(nil), line...), live: true})
}

func (w *upsertWriter) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

// hidden is the file the rows are written to before the rename.
func (w *upsertWriter) hidden() string {
	return filepath.Join(filepath.Dir(w.path), "."+filepath.Base(w.path)+".inprogress")
}

// writeHidden writes the live rows to the hidden file, fsynced.
func (w *upsertWriter) writeHidden() error {
	f, err := os.Create(w.hidden())
	if err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	var b []byte
	for _, r := range w.rows {
		if r.live {
			b = append(b, r.line...)
			if len(b) >= 1<<20 {
				if _, err = f.Write(b); err != nil {
					break
				}
				b = b[:0]
			}
		}
	}
	if err == nil {
		_, err = f.Write(b)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.hidden())
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}

// rename makes the hidden file the sink's, durably.
func (w *upsertWriter) rename() error {
	if err := os.Rename(w.hidden(), w.path); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	if err := checkpoint.SyncDir(filepath.Dir(w.path)); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}

// writeFile replaces the file with the live rows.
func (w *upsertWriter) writeFile() error {
	if err := w.writeHidden(); err != nil {
		return err
	}
	return w.rename()
}

// PreCommit writes the rows of the checkpoint about to be taken to the
// hidden file; Commit renames it over the sink's file.
func (w *upsertWriter) PreCommit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if w.err != nil {
		return w.err
	}
	if err := w.writeHidden(); err != nil {
		return w.fail(err)
	}
	w.pending = true
	return nil
}

// State writes the rows, live and deleted (a deleted key keeps its place).
func (w *upsertWriter) State(e *checkpoint.Encoder) {
	e.Uint(uint64(len(w.rows)))
	for _, r := range w.rows {
		e.String(r.key)
		e.Bytes(r.line)
		e.Bool(r.live)
	}
}

func (w *upsertWriter) Commit() error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if !w.pending {
		return nil
	}
	w.pending = false
	return w.rename()
}

// Close writes the file at the end of a run without checkpoints (with
// them, the final checkpoint's commit did). Close is idempotent.
func (w *upsertWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.committing || w.err != nil {
		return nil
	}
	return w.writeFile()
}
