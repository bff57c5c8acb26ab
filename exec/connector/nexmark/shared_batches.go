package nexmark

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/connector/generator"
)

// Two reads of one Nexmark configuration make the same rows: Nexmark
// q5 reads the bid view twice, and the two reads go batch by batch
// side by side (a union takes the input of the lowest watermark). A read
// keeps the last batches it made, and another read of the same
// configuration takes a batch from there rather than drawing its rows
// again (drawing a bid's values, 30 ns a row, was a sixth of q5's CPU).
// Rows are a function of the configuration and the row number alone, so
// the batch taken is what the read would have made.

// keptBatches is how many of its last batches a read keeps for others.
const keptBatches = 4

// reads are the open reads by configuration; its lock guards them and
// their kept batches.
var reads = struct {
	sync.Mutex
	byKey map[string][]*sharedFiller
}{byKey: map[string][]*sharedFiller{}}

// takenBatches counts the batches taken from another read (for tests).
var takenBatches atomic.Int64

// sharedFiller is a read's filler that keeps its last batches and takes
// those of another read of its configuration (key).
type sharedFiller struct {
	generator.Filler
	stepper generator.Stepper // the filler's, nil if it steps over no row
	key     string
	kept    [keptBatches]keptBatch
	next    int
}

// keptBatch is the columns of rows [from, from+n) a read made.
type keptBatch struct {
	from int64
	n    int
	cols []arrow.Array
}

// shareBatches makes f's read share its batches with the other open
// reads of s and schema on allocator mem: reads of one job only, whose
// buffers are the job's, so no job holds another's memory.
func shareBatches(f generator.Filler, s *Source, schema *arrow.Schema, mem memory.Allocator) *sharedFiller {
	sf := &sharedFiller{Filler: f, key: fmt.Sprintf("%p %T %+v %s", mem, f, *s, schema)}
	sf.stepper, _ = f.(generator.Stepper)
	reads.Lock()
	reads.byKey[sf.key] = append(reads.byKey[sf.key], sf)
	reads.Unlock()
	return sf
}

// Covered is the filler's (generator.Stepper), or made when it steps
// over no row.
func (f *sharedFiller) Covered(made int64) int64 {
	if f.stepper == nil {
		return made
	}
	return f.stepper.Covered(made)
}

// Fill takes rows [from, from+n) from another read that kept them, or
// makes them; either way it keeps them.
func (f *sharedFiller) Fill(mem memory.Allocator, cols []arrow.Array, from int64, n int) {
	reads.Lock()
	defer reads.Unlock()
	if !f.takeKept(cols, from, n) {
		reads.Unlock()
		f.Filler.Fill(mem, cols, from, n)
		reads.Lock()
	}
	k := &f.kept[f.next]
	f.next = (f.next + 1) % keptBatches
	releaseAll(k.cols)
	k.from, k.n, k.cols = from, n, k.cols[:0]
	for _, c := range cols {
		c.Retain()
		k.cols = append(k.cols, c)
	}
}

// takeKept sets cols to the rows' columns a read kept, and tells whether
// one did. The arrays are shared, not copied (copying a batch's ROW
// columns cost as much as drawing them): Arrow arrays are not written
// once made, and their buffers go back to the allocator of the read that
// made them when the last holder releases them.
func (f *sharedFiller) takeKept(cols []arrow.Array, from int64, n int) bool {
	for _, other := range reads.byKey[f.key] {
		if other == f {
			continue
		}
		for _, k := range other.kept {
			if k.cols == nil || k.from != from || k.n != n {
				continue
			}
			for i, c := range k.cols {
				c.Retain()
				cols[i] = c
			}
			takenBatches.Add(1)
			return true
		}
	}
	return false
}

// Close releases the kept batches and leaves the open reads.
func (f *sharedFiller) Close() error {
	reads.Lock()
	defer reads.Unlock()
	for i := range f.kept {
		releaseAll(f.kept[i].cols)
		f.kept[i] = keptBatch{}
	}
	list := reads.byKey[f.key]
	for i, other := range list {
		if other == f {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(reads.byKey, f.key)
	} else {
		reads.byKey[f.key] = list
	}
	if c, ok := f.Filler.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}
