package format

// csvScratch is a chunk decoder's working slices: the simple-rows path's
// field bounds and each column's values before they are copied into a
// batch. A finished chunk's decoder hands them to its worker's next chunk's
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

// give hands d, a new chunk's decoder (or a JSON decoder's batch), the
// slices of the worker's last one, if any.
func (w *chunkWorker) give(d *CSVDecoder) {
	if w.scratch != nil {
		d.adoptScratch(w.scratch)
		w.scratch = nil
	}
}

// take keeps the slices of d, a chunk's decoder that decodes no more.
func (w *chunkWorker) take(d *CSVDecoder) { w.scratch = d.takeScratch() }
