package wsql

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format/writer"
)

// OutputFile is a file a Run writes its results to: the CLI's --output.
// Give it as Output.File, and make NewWriter's writers and OnText write to
// it (it is an io.Writer).
//
// The file is opened at its first use, not by CreateOutputFile or
// OpenOutputFile: Run first checks that no query of the script reads it
// (an output never overwrites an input), and a script refused then
// leaves the file as it was.
//
// Results go to a hidden file beside the file (beside its target, for a
// symbolic link), which replaces it when the Run succeeds or is stopped
// by its context (Ctrl-C ends a streaming query): a Run that fails, or a
// process that dies, leaves the file as it was, or absent
// (output_file_replace.go). A device or a pipe (/dev/stdout) is written
// as output comes.
//
// Without checkpoints, that is `.NAME.tmp`, removed by a failed Run. A
// SELECT run with checkpoints writes exactly once, as the filesystem sink
// does, to `.NAME.partial`, which a failed Run keeps for the restart: its
// rows go to a hidden file `.NAME.inprogress` and are appended to
// `.NAME.partial` once a checkpoint covering them is durable, so it holds
// results up to the last checkpoint. The checkpoint records its committed
// length and the result writer's state (the CSV header is written once, a
// table keeps its widths). A restart from it cuts the file back to that
// length, completing first an append a crash interrupted, and continues,
// so after any number of crashes the file holds what an uninterrupted
// run writes. Only the
// writers of wsql's text formats can resume (NewCSVWriter, NewJSONWriter,
// NewTableWriter): an Arrow IPC stream cannot be cut and continued.
//
// An OutputFile serves one Run at a time, or several in turn (the CLI's
// -i file, then its script); Close it after the last: that completes it.
type OutputFile struct {
	path    string
	f       *os.File // nil until the first use
	err     error    // the first open's failure, returned by every later use
	regular bool     // a regular file: it can be written at a position and cut
	// tmp is the file f is, renamed over target (the path, through its
	// links) by Close once the last Run completed: succeeded, or stopped
	// by its context (output_file_replace.go).
	tmp, target string
	completed   bool
	made        bool // tmp was made by this run (OpenOutputFile's: copied from the file)
	modified    bool // this run wrote or cut tmp
	// keep: opened by OpenOutputFile for a run that may resume. Output
	// outside checkpointed queries (EXPLAIN, SHOW, a table's closing
	// line) is held in memory until the next query starts or the run
	// ends: a restored query checks it against what the file holds, and
	// a run refused before that (a second process on the same checkpoints)
	// never writes over the file.
	keep bool
	held []byte
	pos  int64 // the file's length as this run has written it so far
	mode outputMode

	side    *os.File // the in-progress file, opened by the first checkpointed query
	pending int64    // bytes in side since the last commit
	ownSide bool     // this run emptied side: what it holds is this run's
	listed  bool     // side holds bytes a checkpoint lists that the file may lack (pre-committed, not committed)
	synced  bool     // the directory was synced since the files were created
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type outputMode uint8

const (
	outputBetween   outputMode = iota // between queries: held (keep) or written at pos
	outputStraight                    // a query without checkpoints: written at pos
	outputCommitted                   // a checkpointed query: to side, committed at checkpoints
	outputDiscarded                   // after a checkpointed query failed: its uncommitted tail is dropped
)

// CreateOutputFile is the file at path for a run that does not resume
// from checkpoints: its temporary file is created at the first write, or
// at the end of a successful Run that wrote nothing (an empty result),
// and replaces it at Close. A path that is a directory, or whose
// directory is missing, is refused now.
func CreateOutputFile(path string) (*OutputFile, error) {
	if err := checkOutputFilePath(path); err != nil {
		return nil, err
	}
	return &OutputFile{path: path}, nil
}

// OpenOutputFile is the file at path for a run that may resume from
// checkpoints. Its content is kept (in `.NAME.partial`, which starts as a
// copy of the file): a restored query continues after what
// its checkpoint committed (checked before anything is written), a query
// starting afresh cuts the file back to the output before it, and the end
// of a successful run cuts what is left over from an earlier run. A
// missing file is created when the first query starts, or at the end of
// a successful Run. A path that is a directory, or whose directory is
// missing, is refused now.
func OpenOutputFile(path string) (*OutputFile, error) {
	if err := checkOutputFilePath(path); err != nil {
		return nil, err
	}
	return &OutputFile{path: path, keep: true}, nil
}

// checkOutputFilePath refuses, without touching anything, a path that
// can never be opened as an output file.
func checkOutputFilePath(path string) error {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return fmt.Errorf("output file %s is a directory: name a file", path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("output file %s: its directory %s does not exist: create it first", path, dir)
		}
	}
	return nil // anything else (permissions) is reported when it is opened
}

// open opens the file at its first use, creating it when create is set
// (otherwise a missing file is an fs.ErrNotExist error, and nothing is
// created). What it opens is the file that replaces the output file at
// the end (output_file_replace.go), or a device or a pipe itself.
func (o *OutputFile) open(create bool) error {
	if o.f != nil || o.err != nil {
		return o.err
	}
	err := o.openReplacing(create)
	if err != nil && (create || !errors.Is(err, fs.ErrNotExist)) {
		o.err = err // a missing file, not created, is not a failure: the caller decides
	}
	return err
}

// started marks the start of a Run: until it completes, Close removes
// the temporary file.
func (o *OutputFile) started() { o.completed = false }

// stopped marks a Run stopped by its context: the results so far replace
// the file (a streaming query ends so), with checkpoints those up to the
// last one, which a restart continues.
func (o *OutputFile) stopped() { o.completed = true }

// Path is the file's path as given.
func (o *OutputFile) Path() string { return o.path }

// Write writes p where the output of the moment goes.
func (o *OutputFile) Write(p []byte) (int, error) {
	switch o.mode {
	case outputCommitted:
		n, err := o.side.Write(p)
		o.pending += int64(n)
		return n, err
	case outputDiscarded:
		return len(p), nil
	case outputBetween:
		if o.keep {
			o.held = append(o.held, p...)
			return len(p), nil
		}
	}
	return o.writeAt(p)
}

func (o *OutputFile) writeAt(p []byte) (int, error) {
	if err := o.open(true); err != nil {
		return 0, err
	}
	if !o.regular {
		return o.f.Write(p) // a pipe or a terminal: no positions
	}
	n, err := o.f.WriteAt(p, o.pos)
	o.pos += int64(n)
	o.modified = true
	return n, err
}

// place writes the held output at the end of the run's output, cutting
// what follows in the file (left by an earlier run).
func (o *OutputFile) place() error {
	if err := o.open(true); err != nil {
		return err
	}
	if o.regular {
		if err := o.f.Truncate(o.pos); err != nil {
			return o.fail(err)
		}
		o.modified = true
	}
	held := o.held
	o.held = nil
	if _, err := o.writeAt(held); err != nil {
		return o.fail(err)
	}
	return nil
}

func (o *OutputFile) fail(err error) error {
	return fmt.Errorf("output file %s: %w", o.path, err)
}

// finish ends a successful Run: the output held is written and the file
// ends with this run's output. A run that wrote nothing leaves an empty
// file, as an empty result should.
func (o *OutputFile) finish() error {
	if !o.keep {
		err := o.open(true)
		o.completed = err == nil
		return err
	}
	if err := o.place(); err != nil {
		return err
	}
	if o.side != nil {
		if err := o.f.Sync(); err != nil {
			return o.fail(err)
		}
	}
	// every query's results are in the file: the in-progress file, also
	// one a finished query's restore left alone, holds nothing needed
	o.ownSide, o.listed = true, false
	if o.side == nil {
		if err := os.Remove(o.sidePath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return o.fail(err)
		}
	}
	o.completed = true
	return nil
}

// Close closes the file. The hidden file then replaces the file if the
// last Run completed (succeeded, or was stopped by its context); if not,
// it is removed, unless it holds results checkpoints committed for the
// restart. The in-progress file is removed unless it holds results a
// checkpoint lists and the file may not (a failed commit: the restart
// appends them) or this run did not get to use it. A failure to open the file is returned too, also when
// only writes whose errors were not checked (OnText) met it.
func (o *OutputFile) Close() error {
	err := o.err
	if o.side != nil {
		if serr := o.side.Close(); err == nil {
			err = serr
		}
		if o.ownSide && !o.listed {
			if rerr := os.Remove(o.side.Name()); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
				err = rerr
			}
		}
		o.side = nil
	}
	replace := o.tmp != "" && o.completed && err == nil
	if o.f != nil {
		if replace {
			err = o.f.Sync() // the file's bytes are durable before its name is
		}
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		o.f = nil
	}
	if o.tmp != "" {
		if replace = replace && err == nil; replace {
			err = o.replace()
		}
		if (!replace || err != nil) && o.disposable() {
			os.Remove(o.tmp)
		}
		o.tmp = ""
	}
	return err
}

// sidePath is the in-progress file beside the output file.
func (o *OutputFile) sidePath() string {
	dir, name := filepath.Split(o.path)
	return filepath.Join(dir, "."+name+".inprogress")
}

// openSide opens the in-progress file, keeping its content (a restore
// reads it), and syncs the directory once so both files' names survive a
// crash.
func (o *OutputFile) openSide() error {
	if err := o.open(true); err != nil {
		return err
	}
	if !o.regular {
		return o.notRegular()
	}
	if o.side == nil {
		side, err := os.OpenFile(o.sidePath(), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return o.fail(err)
		}
		o.side = side
	}
	if !o.synced {
		if err := checkpoint.SyncDir(filepath.Dir(o.path)); err != nil {
			return o.fail(err)
		}
		o.synced = true
	}
	return nil
}

func (o *OutputFile) notRegular() error {
	return fmt.Errorf("output file %s is not a regular file: with checkpoints, results are appended to it at each checkpoint and cut back to the last one after a crash; write them to a regular file", o.path)
}

// resetSide empties the in-progress file.
func (o *OutputFile) resetSide() error {
	if err := o.side.Truncate(0); err != nil {
		return o.fail(err)
	}
	if _, err := o.side.Seek(0, io.SeekStart); err != nil {
		return o.fail(err)
	}
	o.pending, o.ownSide = 0, true
	return nil
}

// appendSide writes the first n bytes of the in-progress file at the
// file's offset at and syncs the file.
func (o *OutputFile) appendSide(at, n int64) error {
	if _, err := o.side.Seek(0, io.SeekStart); err != nil {
		return o.fail(err)
	}
	if _, err := o.f.Seek(at, io.SeekStart); err != nil {
		return o.fail(err)
	}
	o.modified = true
	copied, err := io.Copy(o.f, io.LimitReader(o.side, n)) // copy_file_range where the system has it
	if err == nil && copied < n {
		err = fmt.Errorf("%s holds %d of the %d bytes to append", o.side.Name(), copied, n)
	}
	if err == nil {
		err = o.f.Sync()
	}
	if err != nil {
		return o.fail(err)
	}
	return nil
}

// tailSum is the CRC-32C of the up to 256 bytes of the file before at:
// a restore checks that the file still ends as it did at the checkpoint.
func (o *OutputFile) tailSum(at int64) (uint32, error) {
	from := max(0, at-256)
	b := make([]byte, at-from)
	if _, err := o.f.ReadAt(b, from); err != nil {
		return 0, o.fail(err)
	}
	return crc32.Checksum(b, castagnoli), nil
}

// beginStraight starts a query without checkpoints: its results go
// straight into the file.
func (o *OutputFile) beginStraight() error {
	if err := o.place(); err != nil {
		return err
	}
	o.mode = outputStraight
	return nil
}

// beginFresh starts a checkpointed query that has no checkpoint yet.
func (o *OutputFile) beginFresh() error {
	if err := o.openSide(); err != nil {
		return err
	}
	if err := o.place(); err != nil {
		return err
	}
	if err := o.resetSide(); err != nil {
		return err
	}
	o.mode = outputCommitted
	return nil
}

// outputState is the file's part of a checkpoint, from the commit it
// ends with.
type outputState struct {
	start     int64  // the file's length when the query's results began
	committed int64  // its length before the commit
	pending   int64  // bytes the commit appends
	sum       uint32 // tailSum(committed)
}

func (s outputState) save(e *checkpoint.Encoder) {
	e.Int(s.start)
	e.Int(s.committed)
	e.Int(s.pending)
	e.Uint(uint64(s.sum))
}

func readOutputState(d *checkpoint.Decoder) outputState {
	s := outputState{start: d.Int(), committed: d.Int(), pending: d.Int(), sum: uint32(d.Uint())}
	if d.Err() == nil && (s.start < 0 || s.committed < s.start || s.pending < 0) {
		d.Fail("output file lengths %d, %d, %d", s.start, s.committed, s.pending)
	}
	return s
}

// restoreTo continues the results of a query from its checkpoint's state
// s: the file is checked against it, an append the crash interrupted is
// completed, and, unless the query had finished, what follows the
// checkpoint's results is cut.
func (o *OutputFile) restoreTo(s outputState, finished bool, ckpt string) error {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%w: checkpoint %s: output file %s: %s; remove the checkpoint to run the query afresh",
			checkpoint.ErrIncompatible, ckpt, o.path, fmt.Sprintf(format, args...))
	}
	if before := o.pos + int64(len(o.held)); before != s.start {
		return refuse("the results before this query are %d bytes, but were %d when the checkpoint was taken: the script or its earlier results changed", before, s.start)
	}
	// Nothing is created or written before the file passes the checks.
	if err := o.open(false); errors.Is(err, fs.ErrNotExist) {
		if s.committed > 0 {
			return refuse("it is missing, but the checkpoint committed %d bytes to it", s.committed)
		}
		if err := o.open(true); err != nil { // it held nothing the checkpoint needs
			return err
		}
	} else if err != nil {
		return err
	}
	if !o.regular {
		return o.notRegular()
	}
	st, err := o.f.Stat()
	if err != nil {
		return o.fail(err)
	}
	if st.Size() < s.committed {
		return refuse("it has %d bytes, but the checkpoint committed %d: it was cut or written afresh since (the CLI keeps --output for a restart only with --checkpoint-dir)", st.Size(), s.committed)
	}
	if len(o.held) > 0 {
		b := make([]byte, len(o.held))
		if _, err := o.f.ReadAt(b, o.pos); err != nil {
			return o.fail(err)
		}
		if !bytes.Equal(b, o.held) {
			return refuse("the results before this query differ from those in the file")
		}
	}
	if sum, err := o.tailSum(s.committed); err != nil {
		return err
	} else if sum != s.sum {
		return refuse("its bytes before offset %d changed since the checkpoint", s.committed)
	}
	if err := o.openSide(); err != nil {
		return err
	}
	end := s.committed + s.pending
	if st.Size() < end {
		// the crash came before the commit had appended everything
		sst, err := o.side.Stat()
		if err != nil {
			return o.fail(err)
		}
		if sst.Size() < s.pending {
			return refuse("the checkpoint covers %d bytes from offset %d, but neither the file nor %s holds them", s.pending, s.committed, o.sidePath())
		}
		if err := o.appendSide(s.committed, s.pending); err != nil {
			return err
		}
		if finished {
			// it held this query's last results, now in the file
			if err := o.resetSide(); err != nil {
				return err
			}
		}
	}
	o.pos, o.held = end, nil
	if finished {
		// What follows is a later query's, and so may be what the
		// in-progress file holds: both stay for that query's restore.
		return nil
	}
	o.modified = true
	if err := o.f.Truncate(end); err != nil {
		return o.fail(err)
	}
	if err := o.f.Sync(); err != nil {
		return o.fail(err)
	}
	if err := o.resetSide(); err != nil {
		return err
	}
	o.mode = outputCommitted
	return nil
}

// end ends a query's results: ok says whether it ran to its end. The
// uncommitted results of a checkpointed query that failed or was stopped
// are dropped (with the writer's closing output): a restart produces them
// again.
func (o *OutputFile) end(ok bool) {
	if o.mode == outputCommitted && !ok {
		o.mode = outputDiscarded
		return
	}
	o.mode = outputBetween
}

// committedResults is a checkpointed query's result writer on an
// OutputFile: the format's writer writes to the in-progress file, and
// the checkpoints commit it (exec.CommittingWriter).
type committedResults struct {
	writer.ResumableWriter
	file *OutputFile
	rows int64 // rows written
	// at the last PreCommit
	state         outputState
	committedRows int64 // rows in the file
	preRows       int64 // rows the pending commit brings it to
}

var _ exec.CommittingWriter = (*committedResults)(nil)

func (c *committedResults) WriteBatch(rec RecordBatch) error {
	c.rows += rec.NumRows()
	return c.ResumableWriter.WriteBatch(rec)
}

// PreCommit makes the results since the last commit durable in the
// in-progress file.
func (c *committedResults) PreCommit() error {
	o := c.file
	if err := o.side.Sync(); err != nil {
		return o.fail(err)
	}
	sum, err := o.tailSum(o.pos)
	if err != nil {
		return err
	}
	c.state.committed, c.state.pending, c.state.sum = o.pos, o.pending, sum
	c.preRows = c.rows
	o.listed = o.pending > 0
	return nil
}

func (c *committedResults) State(e *checkpoint.Encoder) {
	c.state.save(e)
	e.Int(c.preRows)
	e.String(c.Format())
	c.ResumableWriter.SaveState(e)
}

// Commit appends the results the saved checkpoint covers to the file.
func (c *committedResults) Commit() error {
	o := c.file
	if c.state.pending > 0 {
		if err := o.appendSide(c.state.committed, c.state.pending); err != nil {
			return err
		}
	}
	o.pos = c.state.committed + c.state.pending
	c.committedRows = c.preRows
	// the checkpoint is taken between steps: nothing is written between
	// its pre-commit and its commit
	if rest := o.pending - c.state.pending; rest > 0 {
		return o.fail(fmt.Errorf("%d bytes were written between the checkpoint's pre-commit and its commit", rest))
	}
	o.listed = false
	return o.resetSide()
}

// resultsTo sends a SELECT's results, written by w, to the output file:
// straight without checkpoints, committed at checkpoints with them (a
// restored query continuing its checkpoint's results).
func (o *OutputFile) resultsTo(w ResultWriter, cp *exec.Checkpointing) (ResultWriter, error) {
	if cp == nil {
		return w, o.beginStraight()
	}
	rw, ok := w.(writer.ResumableWriter)
	if !ok {
		return nil, fmt.Errorf("results go to the output file %s exactly once with checkpoints, but this result format cannot resume after a restart (an Arrow IPC stream cannot be cut back and continued): use csv, json or table", o.path)
	}
	c := &committedResults{ResumableWriter: rw, file: o}
	if cp.Restore == nil {
		if err := o.beginFresh(); err != nil {
			return nil, err
		}
		c.state.start = o.pos
	} else if err := c.restore(cp, false); err != nil {
		return nil, err
	}
	return c, nil
}

// restore reads the file's and the writer's state from the checkpoint.
func (c *committedResults) restore(cp *exec.Checkpointing, finished bool) error {
	d := exec.SinkState(cp.Restore)
	if d == nil {
		return fmt.Errorf("%w: checkpoint %s was taken while the results went elsewhere, not to the output file %s: run with the same output, or remove the checkpoint to start afresh",
			checkpoint.ErrIncompatible, cp.Path, c.file.path)
	}
	s, rows, format := readOutputState(d), d.Int(), d.String()
	if err := d.Err(); err != nil {
		return fmt.Errorf("checkpoint %s: the output file's state: %w", cp.Path, err)
	}
	if format != c.Format() {
		return fmt.Errorf("%w: checkpoint %s: the results in %s are %s, but this run writes %s: use the same format, or remove the checkpoint to start afresh",
			checkpoint.ErrIncompatible, cp.Path, c.file.path, format, c.Format())
	}
	if err := c.file.restoreTo(s, finished, cp.Path); err != nil {
		return err
	}
	c.state.start, c.rows = s.start, rows
	c.ResumableWriter.RestoreState(d)
	if d.Err() == nil && c.rows < 0 {
		d.Fail("%d result rows", c.rows)
	}
	if err := d.Finish(); err != nil {
		return fmt.Errorf("checkpoint %s: the output file's state: %w", cp.Path, err)
	}
	c.committedRows = c.rows
	return nil
}

// finishedResults brings the output file to where a finished query's
// last checkpoint left it, and writes the format's closing output (a
// table's last line) as the finished run did.
func (o *OutputFile) finishedResults(w ResultWriter, cp *exec.Checkpointing) error {
	rw, ok := w.(writer.ResumableWriter)
	if !ok {
		w.Close()
		return fmt.Errorf("this result format cannot resume after a restart: use csv, json or table")
	}
	c := &committedResults{ResumableWriter: rw, file: o}
	if err := c.restore(cp, true); err != nil {
		w.Close()
		return err
	}
	o.end(true)
	return w.Close()
}

// endResults ends the results of a SELECT on an output file. It returns
// how many result rows the file holds for a checkpointed query (-1 for
// others): a failed run's uncommitted rows are dropped.
func (o *OutputFile) endResults(w ResultWriter, ok bool) int64 {
	o.end(ok)
	if c, isCommitted := w.(*committedResults); isCommitted {
		if ok {
			return c.rows
		}
		return c.committedRows
	}
	return -1
}
