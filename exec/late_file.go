package exec

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format/writer"
)

// lateFile is the CSV file of 'wsql.late-data.path': the window operator's
// side output of rows that missed a window.
type lateFile struct {
	f    *os.File
	buf  *bufio.Writer
	w    writer.ResumableWriter // CSV: its state is whether the header is written
	sink *WriterSink
}

// openLateFile creates the file or, for a restored run (keep), opens it as
// it is: restore then cuts it back to its length at the checkpoint.
func openLateFile(path string, schema *arrow.Schema, keep bool) (*lateFile, error) {
	flag := os.O_RDWR | os.O_CREATE | os.O_TRUNC
	if keep {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, fmt.Errorf("late data file: %w", err)
	}
	buf := bufio.NewWriter(f)
	w := writer.NewCSVWriter(buf, schema, time.UTC).(writer.ResumableWriter)
	return &lateFile{f: f, buf: buf, w: w, sink: NewWriterSink(w)}, nil
}

// saveState flushes and syncs the file for a checkpoint and records its
// length and whether the header is written.
func (l *lateFile) saveState(e *checkpoint.Encoder) error {
	if err := l.buf.Flush(); err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	n, err := l.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	e.Int(n)
	l.w.SaveState(e)
	e.Int(l.sink.rows)
	return nil
}

// restoreState cuts the file back to its length at the checkpoint: the
// rows after it are late again when their input is read again.
func (l *lateFile) restoreState(d *checkpoint.Decoder) error {
	n := d.Int()
	l.w.RestoreState(d) // whether the header is written
	rows := d.Int()
	if d.Err() != nil {
		return d.Err()
	}
	fi, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	if n < 0 || fi.Size() < n {
		return fmt.Errorf("late data file: %w: %s has %d bytes, the checkpoint wrote %d", checkpoint.ErrIncompatible, l.f.Name(), fi.Size(), n)
	}
	if err := l.f.Truncate(n); err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	if _, err := l.f.Seek(n, io.SeekStart); err != nil {
		return fmt.Errorf("late data file: %w", err)
	}
	l.sink.rows = rows
	return nil
}

// close writes the header even when no row was late, then flushes.
func (l *lateFile) close() error {
	err := l.w.Close()
	if ferr := l.buf.Flush(); err == nil {
		err = ferr
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
