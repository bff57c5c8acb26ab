package exec

import (
	"fmt"
	"io"
)

// readBuffer is the input side the CSV and JSON decoders share: a large,
// growing buffer over the reader, the line count for errors, and whether
// the last read came up short (the reader may have nothing more ready).
type readBuffer struct {
	r         io.Reader
	source    string
	buf       []byte
	pos, end  int
	eof       bool
	lastShort bool // the last Read returned less than asked: more may block
	line      int  // '\n' consumed so far
	partial   bool // the input ended with a line without '\n'
}

// fill reads at least need more bytes (so re-parsing a long pending record
// stays linear), unless rows are pending and the reader seems to have no
// more data ready: then it returns errCSVYield so the decoder hands out the
// batch first. what names a unit of input ("record", "line") in errors.
func (b *readBuffer) fill(need int, pending bool, what string) error {
	if pending && b.lastShort {
		b.lastShort = false
		return errCSVYield
	}
	if b.buf == nil {
		b.buf = make([]byte, csvDefaultBufSize)
	}
	if b.pos > 0 {
		b.end = copy(b.buf, b.buf[b.pos:b.end])
		b.pos = 0
	}
	need = max(need, 1)
	zero := 0
	for got := 0; got < need; {
		if b.end == len(b.buf) {
			if len(b.buf) >= csvMaxRecordBytes {
				return fmt.Errorf("%s:%d: %s longer than %d bytes", b.source, b.line+1, what, csvMaxRecordBytes)
			}
			nb := make([]byte, 2*len(b.buf))
			copy(nb, b.buf[:b.end])
			b.buf = nb
		}
		want := len(b.buf) - b.end
		n, err := b.r.Read(b.buf[b.end:])
		b.end += n
		got += n
		b.lastShort = n < want
		if err == io.EOF {
			b.eof = true
			return nil
		}
		if err == errNoData {
			return err // not sticky: Next returns what it has, maybe nothing
		}
		if err != nil {
			return fmt.Errorf("%s: %w", b.source, err)
		}
		if n == 0 {
			if zero++; zero > 100 {
				return fmt.Errorf("%s: %w", b.source, io.ErrNoProgress)
			}
		}
		if b.lastShort && pending {
			return nil
		}
	}
	return nil
}

// useChunk makes the buffer a chunk of a file held in memory, whose first
// line is line+1 of the file: the whole input, nothing more to read (the
// parallel decoder's workers).
func (b *readBuffer) useChunk(chunk []byte, line int) {
	b.buf, b.pos, b.end, b.eof, b.line = chunk, 0, len(chunk), true, line
}
