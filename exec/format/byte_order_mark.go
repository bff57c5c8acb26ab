package format

import (
	"bytes"
	"io"
)

// utf8BOM is the byte order mark some editors (Excel, Notepad) write at the
// start of a UTF-8 file. Flink's and DuckDB's readers skip it, and so do
// the decoders: it is not part of the first record. Only a file's (or
// stream's) first bytes are checked, so offsets stay file offsets: a read
// past a BOM stands at offset 3.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// skipBOM steps over a BOM at the start of the input once the buffer holds
// enough of it to tell; it runs after each fill until then, never per record.
func (b *readBuffer) skipBOM() {
	if b.base != 0 || b.pos != 0 {
		b.startChecked = true
		return
	}
	head := b.buf[:b.end]
	if len(head) < len(utf8BOM) && !b.eof && bytes.HasPrefix(utf8BOM, head) {
		return // a BOM's first bytes, or nothing yet: wait for more
	}
	b.startChecked = true
	if bytes.HasPrefix(head, utf8BOM) {
		b.pos = len(utf8BOM)
	}
}

// readFileStart reads the first bytes of r, the start of a file, for the
// parallel decoder: bom is set when they are a BOM (to skip), else start
// holds what was read (to decode). eof is set when r ended.
func readFileStart(r io.Reader) (start []byte, bom, eof bool, err error) {
	start = make([]byte, len(utf8BOM))
	n, err := io.ReadFull(r, start)
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		return start[:n], false, true, nil
	default:
		return start[:n], false, false, err
	}
	if bytes.Equal(start, utf8BOM) {
		return nil, true, false, nil
	}
	return start, false, false, nil
}
