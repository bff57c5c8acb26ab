package format

import "sync"

// csvScratch is a chunk decoder's working slices: the simple-rows path's
// field bounds and each column's values before they are copied into a
// batch. A finished chunk's decoder hands them to the next chunk's
// instead of each growing them again from nothing (80 of the 94 MB the
// benchmark's CSV TUMBLE still allocated, and so most of its garbage
// collections).
type csvScratch struct {
	bounds []int32
	cols   []csvColumnScratch
}

type csvColumnScratch struct {
	valid, bools []bool
	offs         []int32
	data         []byte
}

// adoptScratch gives the decoder of a new chunk the slices of s (a JSON
// decoder's batch takes them too).
func (d *CSVDecoder) adoptScratch(s *csvScratch) {
	d.simple.bounds = s.bounds[:0]
	for i := range min(len(d.cols), len(s.cols)) {
		c, k := &d.cols[i], &s.cols[i]
		if c.kind == csvNested {
			continue // its values are in its nestedColumn
		}
		c.valid, c.bools, c.data = k.valid[:0], k.bools[:0], k.data[:0]
		c.offs = append(k.offs[:0], 0)
	}
}

// takeScratch takes the slices of a decoder that decodes no more. The
// batches it made hold copies of them.
func (d *CSVDecoder) takeScratch() *csvScratch {
	s := &csvScratch{bounds: d.simple.bounds}
	for i := range d.cols {
		c := &d.cols[i]
		if c.kind == csvNested {
			s.cols = append(s.cols, csvColumnScratch{})
			continue
		}
		s.cols = append(s.cols, csvColumnScratch{valid: c.valid, bools: c.bools, offs: c.offs, data: c.data})
		c.valid, c.bools, c.offs, c.data = nil, nil, nil, nil
	}
	d.simple.bounds = nil
	return s
}

// csvScratchPool holds the working slices of finished chunk decoders. A
// plain list under a lock rather than a sync.Pool, which drops what it
// holds at each garbage collection: a handful of decoders run at once.
type csvScratchPool struct {
	mu   sync.Mutex
	free []*csvScratch
}

// give hands d, a new chunk's decoder (or a JSON decoder's batch), the
// slices of a finished one, if any are kept.
func (p *csvScratchPool) give(d *CSVDecoder) {
	if s := p.get(); s != nil {
		d.adoptScratch(s)
	}
}

// take keeps the slices of d, a chunk's decoder that decodes no more.
func (p *csvScratchPool) take(d *CSVDecoder) { p.put(d.takeScratch()) }

// get takes slices for a new chunk's decoder (nil if there are none).
func (p *csvScratchPool) get() *csvScratch {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	s := p.free[n-1]
	p.free = p.free[:n-1]
	return s
}

// put keeps s unless as many as could be used are kept.
func (p *csvScratchPool) put(s *csvScratch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < 16 {
		p.free = append(p.free, s)
	}
}
