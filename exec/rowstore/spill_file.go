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
	size    int64
	budget  *Budget
	scratch []byte // reads, reused
}

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

// write appends p and returns where it starts.
func (sf *spillFile) write(p []byte) (int64, error) {
	at := sf.size
	if _, err := sf.f.WriteAt(p, at); err != nil {
		return 0, fmt.Errorf("state spill file: %w", err)
	}
	sf.size += int64(len(p))
	sf.budget.spilled.Add(int64(len(p)))
	return at, nil
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
