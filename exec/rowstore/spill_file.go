package rowstore

import (
	"fmt"
	"os"
	"slices"
)

// spillFile is a store's spill file: chunks' column buffers appended one
// after the other, read back value by value. The file is removed as soon
// as it is created where the system allows (it lives on while open), so
// no run, not even a killed one, leaves it behind; elsewhere it is
// removed at close.
type spillFile struct {
	f       *os.File
	path    string // still to remove at close; "" once removed
	size    int64  // written and buffered
	buf     []byte // the file's last bytes, not written yet
	budget  *Budget
	scratch []byte // reads, reused
}

// spillWriteBuffer is how many bytes of chunks a spill file gathers
// before it writes them: a Top-N spills chunks of a few rows, and a write
// each was 3% of Nexmark q19's CPU.
const spillWriteBuffer = 1 << 20

func openSpillFile(b *Budget) (*spillFile, error) {
	f, err := os.CreateTemp(b.dir, "wsql-spill-*")
	if err != nil {
		return nil, fmt.Errorf("state spill file: %w", err)
	}
	sf := &spillFile{f: f, path: f.Name(), budget: b}
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

// flush writes the buffered bytes.
func (sf *spillFile) flush() error {
	if len(sf.buf) == 0 {
		return nil
	}
	if _, err := sf.f.WriteAt(sf.buf, sf.size-int64(len(sf.buf))); err != nil {
		return fmt.Errorf("state spill file: %w", err)
	}
	sf.buf = sf.buf[:0]
	return nil
}

func (sf *spillFile) close() error {
	if sf == nil || sf.f == nil {
		return nil
	}
	sf.budget.closed(sf)
	err := sf.f.Close()
	sf.f = nil
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
// Neighbours are read together.
func (sf *spillFile) readSpans(spans []span, out []byte) error {
	if err := sf.flush(); err != nil { // reads are rare: no read of the buffer
		return err
	}
	at := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].off, spans[i].off+int64(spans[i].n)
		j := i + 1
		for ; j < len(spans) && spans[j].off <= to+spanGap; j++ {
			to = max(to, spans[j].off+int64(spans[j].n))
		}
		sf.scratch = slices.Grow(sf.scratch[:0], int(to-from))[:to-from]
		if _, err := sf.f.ReadAt(sf.scratch, from); err != nil {
			return fmt.Errorf("state spill file: %w", err)
		}
		for _, s := range spans[i:j] {
			at += copy(out[at:at+s.n], sf.scratch[s.off-from:])
		}
		i = j
	}
	return nil
}
