package rowstore

import (
	"fmt"
	"os"
	"slices"
	"unsafe"
)

// spillFile is a store's spill file: chunks' column buffers appended one
// after the other, read back value by value. The file is removed as soon
// as it is created where the system allows (it lives on while open), so
// no run, not even a killed one, leaves it behind; elsewhere it is
// removed at close.
//
// Where the system allows, the file is written past the page cache
// (direct I/O) and read through it: written through the page cache, each
// spilled byte took a page of it that the system had not used before,
// and writing Nexmark q9's 0.9 GiB took 1.4 to 2.5 s of CPU against 0.2
// written directly; the page cache also held all of it. Direct writes
// are of whole blocks from an aligned buffer, so the file's last partial
// block stays in buf (and is written again with the next one); reads of
// it are served from buf.
type spillFile struct {
	f       *os.File // reads, and the writes without direct I/O
	direct  *os.File // the writes past the page cache; nil without
	path    string   // still to remove at close; "" once removed
	size    int64    // written and buffered
	buf     []byte   // the file's bytes from size-len(buf) on, not written yet
	budget  *Budget
	scratch []byte // reads, reused
}

// spillWriteBuffer is how many bytes of chunks a spill file gathers
// before it writes them: a Top-N spills chunks of a few rows, and a write
// each was 3% of Nexmark q19's CPU.
const spillWriteBuffer = 1 << 20

// spillBlock is the size and alignment of a direct write: a page, a
// multiple of the block size of the disks direct I/O is done on.
const spillBlock = 4096

func openSpillFile(b *Budget) (*spillFile, error) {
	f, err := os.CreateTemp(b.dir, "wsql-spill-*")
	if err != nil {
		return nil, fmt.Errorf("state spill file: %w", err)
	}
	sf := &spillFile{f: f, path: f.Name(), budget: b, buf: alignedBuffer(spillWriteBuffer)}
	if sf.direct = openDirect(sf.path); sf.direct != nil {
		adviseRandomReads(f)
	}
	if os.Remove(sf.path) == nil {
		sf.path = ""
	}
	b.opened(sf)
	return sf, nil
}

// appended notes that the last n bytes of buf are new, and writes buf
// once it is full.
func (sf *spillFile) appended(n int) error {
	sf.size += int64(n)
	sf.budget.spilled.Add(int64(n))
	if len(sf.buf) >= spillWriteBuffer {
		return sf.flush()
	}
	return nil
}

// flush writes the buffered bytes: directly the whole blocks of them,
// keeping the last partial block in buf; through the page cache all.
func (sf *spillFile) flush() error {
	at := sf.size - int64(len(sf.buf)) // a block's start when direct
	n := len(sf.buf)
	if sf.direct != nil {
		n -= n % spillBlock
		if !aligned(sf.buf) { // a chunk larger than the buffer grew it
			b := alignedBuffer(max(len(sf.buf), spillWriteBuffer))
			sf.buf = append(b, sf.buf...)
		}
		if _, err := sf.direct.WriteAt(sf.buf[:n], at); err != nil {
			// a file system that takes the open but not the writes:
			// through the page cache from here on
			sf.direct.Close()
			sf.direct = nil
			n = len(sf.buf)
		}
	}
	if sf.direct == nil {
		if _, err := sf.f.WriteAt(sf.buf[:n], at); err != nil {
			return fmt.Errorf("state spill file: %w", err)
		}
	}
	sf.buf = sf.buf[:copy(sf.buf, sf.buf[n:])]
	return nil
}

// alignedBuffer is an empty buffer of capacity n at least, its start
// aligned for direct writes.
func alignedBuffer(n int) []byte {
	b := make([]byte, n+spillBlock)
	skip := (spillBlock - int(uintptr(unsafe.Pointer(&b[0]))%spillBlock)) % spillBlock
	return b[skip:skip:len(b)]
}

func aligned(b []byte) bool {
	return cap(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%spillBlock == 0
}

func (sf *spillFile) close() error {
	if sf == nil || sf.f == nil {
		return nil
	}
	sf.budget.closed(sf)
	err := sf.f.Close()
	if sf.direct != nil {
		sf.direct.Close()
	}
	sf.f, sf.direct = nil, nil
	if sf.path != "" {
		if rerr := os.Remove(sf.path); err == nil {
			err = rerr
		}
	}
	return err
}

// span is n bytes of the file at off.
type span struct {
	off int64
	n   int
}

// spanGap is how far apart two spans may be and still be read in one
// ReadAt: a page's worth of bytes read for nothing costs less than a
// system call.
const spanGap = 4096

// readSpans reads spans, sorted by offset (they may overlap), into out,
// one after the other: span i's bytes at out[sum of the lengths before i:].
// Neighbours are read together; the bytes not written yet are copied
// from the buffer.
func (sf *spillFile) readSpans(spans []span, out []byte) error {
	at := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].off, spans[i].off+int64(spans[i].n)
		j := i + 1
		for ; j < len(spans) && spans[j].off <= to+spanGap; j++ {
			to = max(to, spans[j].off+int64(spans[j].n))
		}
		sf.scratch = slices.Grow(sf.scratch[:0], int(to-from))[:to-from]
		if err := sf.readAt(sf.scratch, from); err != nil {
			return err
		}
		for _, s := range spans[i:j] {
			at += copy(out[at:at+s.n], sf.scratch[s.off-from:])
		}
		i = j
	}
	return nil
}

// readAt reads len(p) bytes from off: from the file those written, from
// the buffer the rest.
func (sf *spillFile) readAt(p []byte, off int64) error {
	written := sf.size - int64(len(sf.buf))
	if n := min(int64(len(p)), max(written-off, 0)); n > 0 {
		if _, err := sf.f.ReadAt(p[:n], off); err != nil {
			return fmt.Errorf("state spill file: %w", err)
		}
		p, off = p[n:], off+n
	}
	if len(p) > 0 {
		copy(p, sf.buf[off-written:])
	}
	return nil
}
