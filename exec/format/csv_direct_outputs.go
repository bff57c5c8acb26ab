package format

import "github.com/apache/arrow-go/v18/arrow/memory"

// reserveOutputs gives each fixed-width column without one an Arrow
// buffer of a whole batch to append its values into (see
// CSVDecoder.outMem). A batch never holds more than batchSize rows, so
// appends stay within it.
func (d *CSVDecoder) reserveOutputs() {
	for i := range d.cols {
		c := &d.cols[i]
		if c.out != nil || c.width == 0 || c.kind == csvNested || len(c.fixed) > 0 {
			continue
		}
		c.out = memory.NewResizableBuffer(d.outMem)
		c.out.Reserve(d.batchSize * c.width)
		c.fixed = c.out.Buf()[:0]
	}
}

// releaseOutputs releases the buffers reserved for a batch that did not
// come: the decoder's owner calls it when it is done with the decoder.
func (d *CSVDecoder) releaseOutputs() {
	for i := range d.cols {
		if c := &d.cols[i]; c.out != nil {
			c.out.Release()
			c.out, c.fixed = nil, nil
		}
	}
}

// sameBacking tells whether b is a slice of the memory a starts with:
// whether appends to b stayed in the buffer a is.
func sameBacking(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// releaseOutputs is CSVDecoder.releaseOutputs for the JSON decoder's columns.
func (d *JSONDecoder) releaseOutputs() { d.batch.releaseOutputs() }
