package badrows

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format"
)

// File is the dead-letter file of one read: every skipped line, as read,
// one per line. The first write error sticks and ends the read. The
// source's reader and the watermark assigner's future filter
// (exec/max_future.go) both write to it, so it belongs to the job, not to
// one connector.
type File struct {
	f   *os.File // nil once closed
	w   *bufio.Writer
	n   int64 // bytes written, the file's length once flushed
	err error
}

// Create creates (or empties) the file at path for a read.
func Create(path string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("bad rows file: %w", err)
	}
	return &File{f: f, w: bufio.NewWriter(f)}, nil
}

// Reopen continues the bad-rows file of a restored read: what
// was written after the checkpoint (size bytes) is cut off, since those
// rows are read again.
func Reopen(path string, size int64) (*File, error) {
	if size < 0 {
		return nil, fmt.Errorf("bad rows file: %w: the checkpoint wrote none", checkpoint.ErrIncompatible)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err == nil {
		if err = f.Truncate(size); err == nil {
			_, err = f.Seek(size, io.SeekStart)
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("bad rows file: %w", err)
	}
	return &File{f: f, w: bufio.NewWriter(f), n: size}, nil
}

// Sync flushes and fsyncs the file for a checkpoint and returns its
// length; -1 for no file (b nil).
func (b *File) Sync() (int64, error) {
	if b == nil {
		return -1, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.f == nil {
		return b.n, nil // closed at the end of the input: complete
	}
	err := b.w.Flush()
	if err == nil {
		err = b.f.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("bad rows file: %w", err)
	}
	return b.n, nil
}

// Write writes a skipped row as it was read or, for a record longer than
// 'wsql.max-record-bytes' (raw nil: it was never held whole), a '#' line
// with the reason, which names where the record starts.
func (b *File) Write(e *format.ParseError, raw []byte) {
	if b.err != nil || b.f == nil {
		return
	}
	if raw == nil && e != nil {
		b.WriteLine([]byte("# " + e.Error()))
		return
	}
	_, err := b.w.Write(raw)
	if err == nil {
		err = b.w.WriteByte('\n')
	}
	b.n += int64(len(raw)) + 1
	if err != nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
}

// Close flushes and closes the file; it is idempotent.
func (b *File) Close() error {
	if b.f == nil {
		return b.err
	}
	if err := b.w.Flush(); err != nil && b.err == nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
	if err := b.f.Close(); err != nil && b.err == nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
	b.f = nil
	return b.err
}

// WriteLine writes one line as it is (a reason or a rendered row).
func (b *File) WriteLine(line []byte) {
	if b.err != nil || b.f == nil {
		return
	}
	_, err := b.w.Write(line)
	if err == nil {
		err = b.w.WriteByte('\n')
	}
	b.n += int64(len(line)) + 1 // the length a checkpoint records
	if err != nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
	}
}

// Err is the first error writing the file, which ends the read.
func (b *File) Err() error { return b.err }

// Flush writes out what is buffered while the file is open, so a followed
// source waiting for input leaves it complete; a failure sticks (Err).
func (b *File) Flush() error {
	if b.f == nil {
		return nil
	}
	if err := b.w.Flush(); err != nil {
		b.err = fmt.Errorf("bad rows file: %w", err)
		return b.err
	}
	return nil
}
