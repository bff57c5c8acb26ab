package kafka

import (
	"math/bits"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/twmb/franz-go/pkg/kgo"
)

// recordPool lends franz-go the slices a fetch decodes into
// (kgo.WithPools): the Records, and the bytes a compressed batch is
// decompressed into, which the records' keys and values point into. A
// read recycles each poll's records once it decoded them, and franz-go
// gives a batch's bytes back when the last of its records is recycled,
// so a read of millions of records does not allocate, clear and collect
// a Record for each (a tenth of the read's CPU, measured, with the
// garbage collection it caused) nor a buffer for each batch (a third of
// the bytes the read allocated). Both come in powers of two.
type recordPool struct {
	records sizedPool[kgo.Record]
	bytes   sizedPool[byte]
}

var records = &recordPool{}

func (p *recordPool) GetRecords(n int) []kgo.Record { return p.records.get(n)[:n] }

// PutRecords takes back a slice, its records zeroed by franz-go.
func (p *recordPool) PutRecords(s []kgo.Record) { p.records.put(s) }

// GetDecompressBytes gives a slice whose capacity holds the batch
// decompressed: snappy says its length up front; other codecs get a
// guess, and franz-go grows the slice when it is short.
func (p *recordPool) GetDecompressBytes(compressed []byte, codec kgo.CompressionCodecType) []byte {
	n := 4 * len(compressed)
	if codec == kgo.CodecSnappy {
		if l, err := s2.DecodedLen(compressed); err == nil {
			n = l
		}
	}
	return p.bytes.get(n)
}

// PutDecompressBytes takes back a slice, its bytes zeroed by franz-go.
func (p *recordPool) PutDecompressBytes(b []byte) { p.bytes.put(b) }

// sizedPool keeps slices by the log2 of their capacity, up to
// keptPerSize of each. Not a sync.Pool: that one is emptied by every
// garbage collection, and a read's small heap is collected often enough
// that a fifth of the records were allocated anew (measured); what is
// kept here stays, and the heap it adds makes collections rarer.
type sizedPool[T any] struct {
	mu    sync.Mutex
	sizes [48][][]T
}

// keptPerSize bounds the slices kept of a size: a read has a few
// fetches' worth in flight at a time.
const keptPerSize = 16

// get is a slice of capacity n or more, of length 0.
func (p *sizedPool[T]) get(n int) []T {
	size := bits.Len(uint(max(n, 1) - 1))
	p.mu.Lock()
	if kept := p.sizes[size]; len(kept) > 0 {
		s := kept[len(kept)-1]
		p.sizes[size] = kept[:len(kept)-1]
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	return make([]T, 0, 1<<size)
}

// put keeps s for a later get, unless it is not of a pooled size or
// enough of its size are kept.
func (p *sizedPool[T]) put(s []T) {
	size := bits.Len(uint(cap(s))) - 1
	if cap(s) == 0 || 1<<size != cap(s) {
		return // not one of ours
	}
	p.mu.Lock()
	if len(p.sizes[size]) < keptPerSize {
		p.sizes[size] = append(p.sizes[size], s[:0])
	}
	p.mu.Unlock()
}

// recycle gives the records of a decoded poll back to the pool: nothing
// may read them after.
func recycle(recs []*kgo.Record) {
	for _, r := range recs {
		r.Recycle()
	}
}
