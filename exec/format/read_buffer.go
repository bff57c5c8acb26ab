package format

import (
	"fmt"
	"io"
)

// readBuffer is the input side the CSV and JSON decoders share: a large,
// growing buffer over the reader, the line count for errors, the file
// offset of the buffer (for SplitPosition), and whether the last read came
// up short (the reader may have nothing more ready).
type readBuffer struct {
	r         io.Reader
	source    string
	buf       []byte
	pos, end  int
	base      int64 // file offset of buf[0]: bytes discarded before it
	eof       bool
	lastShort bool // the last Read returned less than asked: more may block
	line      int  // line ends consumed so far
	partial   bool // the input ended with a line without a line end
	// limit is the longest record, line end included (MaxRecordBytes):
	// the buffer grows to at most max(csvDefaultBufSize, limit+1) bytes.
	limit int
	// startChecked is set once a BOM at the input's start is skipped or
	// known to be absent (see skipBOM).
	startChecked bool
	reparsed     int // bytes of the record pending at buf[0] parsed again (tailMayEnd)
}

// fill reads at least need more bytes (so re-parsing a long pending record
// stays linear), unless rows are pending and the reader seems to have no
// more data ready: then it returns errCSVYield so the decoder hands out the
// batch first. It also returns early when the reader has no more data ready
// and what it read may end the pending record (tailMayEnd). The caller
// found no record end in buf[pos:end]: when that is more than the limit,
// fill returns errRecordTooLong instead.
func (b *readBuffer) fill(need int, pending bool) error {
	err := b.read(need, pending)
	if !b.startChecked {
		b.skipBOM()
	}
	return err
}

// read is fill without the BOM check.
func (b *readBuffer) read(need int, pending bool) error {
	if pending && b.lastShort {
		b.lastShort = false
		return errCSVYield
	}
	if b.buf == nil {
		size := csvDefaultBufSize
		if in, ok := b.r.(interface{ Len() int }); ok {
			// input already in memory (a poll of Kafka messages, read by a
			// decoder each): a buffer no larger than it, not 1 MiB cleared
			// for every few messages
			size = min(size, max(in.Len()+1, 512))
		}
		b.buf = make([]byte, size)
	}
	if b.pos > 0 {
		b.reparsed = 0 // what is pending starts after the last read's record
		b.end = copy(b.buf, b.buf[b.pos:b.end])
		b.base += int64(b.pos)
		b.pos = 0
	}
	if b.end > b.limit {
		// buf[:end] is the start of one record, without its end
		return errRecordTooLong
	}
	need = max(need, 1)
	zero := 0
	for got := 0; got < need; {
		if b.end == len(b.buf) {
			if len(b.buf) > b.limit {
				return nil // the caller parses; a record still without its end is too long
			}
			nb := make([]byte, min(2*len(b.buf), b.limit+1))
			copy(nb, b.buf[:b.end])
			b.buf = nb
		}
		want := len(b.buf) - b.end
		n, err := b.r.Read(b.buf[b.end:])
		read := b.buf[b.end : b.end+n]
		b.end += n
		got += n
		b.lastShort = n < want
		if err == io.EOF {
			b.eof = true
			return nil
		}
		if err == ErrNoData {
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
		if b.lastShort && (pending || b.tailMayEnd(read)) {
			return nil
		}
	}
	return nil
}

// tailMayEnd reports whether the record pending at buf[0], once more
// bytes came in a read that left the reader with nothing more ready,
// should be parsed again before reading on. Waiting for need bytes keeps
// the parsing of a long record linear, but a record may end with far
// fewer bytes than it started with: a writer that writes a line in two
// pieces and then nothing for a while would otherwise have its row held
// back until as many bytes again arrive (the next rows, maybe minutes
// later), and with it the results of its window. A CSV record or a JSON
// line ends only at a line end, so read must hold one; and the bytes
// parsed again stay within three times the record's, which keeps the
// whole linear when a long record comes in many small pieces.
func (b *readBuffer) tailMayEnd(read []byte) bool {
	if csvLineEnd(read) < 0 || b.reparsed > 2*b.end {
		return false
	}
	b.reparsed += b.end
	return true
}

// useChunk makes the buffer a chunk of a file held in memory, which starts
// at byte off of the file and whose first line is line+1 of the file: the
// whole input, nothing more to read (the parallel decoder's workers).
func (b *readBuffer) useChunk(chunk []byte, off int64, line int) {
	b.buf, b.pos, b.end, b.eof, b.base, b.line = chunk, 0, len(chunk), true, off, line
}

// offset is the file offset of buf[pos]: the bytes consumed.
func (b *readBuffer) offset() int64 { return b.base + int64(b.pos) }

// offsetOf is the file offset of the start of s, a slice of buf that runs
// to buf's capacity (any b.buf[i:j]): the start of a record just consumed,
// found without tracking it for every record.
func (b *readBuffer) offsetOf(s []byte) int64 {
	return b.base + int64(cap(b.buf)-cap(s))
}

// resumeAt makes the buffer, before its first read, continue a read that
// stands at p, its reader being positioned at p.Offset.
func (b *readBuffer) resumeAt(p SplitPosition) {
	b.base, b.line = p.Offset, p.Line
}
