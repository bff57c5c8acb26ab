package kafka

import (
	"math/bits"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"
)

// recordPool lends franz-go the slices of Records a fetch decodes into
// (kgo.WithPools); a read recycles each poll's records once it decoded
// them, so a read of millions of records does not allocate and clear a
// Record for each (a tenth of the read's CPU, measured, with the garbage
// collection it caused). The slices come in powers of two.
type recordPool struct {
	sizes [32]sync.Pool // by log2 of the capacity
}

var records = &recordPool{}

func (p *recordPool) GetRecords(n int) []kgo.Record {
	size := bits.Len(uint(max(n, 1) - 1))
	if s, ok := p.sizes[size].Get().(*[]kgo.Record); ok {
		return (*s)[:n]
	}
	return make([]kgo.Record, n, 1<<size)
}

// PutRecords takes back a slice, its records zeroed by franz-go.
func (p *recordPool) PutRecords(s []kgo.Record) {
	size := bits.Len(uint(cap(s))) - 1
	if cap(s) == 0 || 1<<size != cap(s) {
		return // not one of ours
	}
	s = s[:0]
	p.sizes[size].Put(&s)
}

// recycle gives the records of a decoded poll back to the pool: nothing
// may read them after.
func recycle(recs []*kgo.Record) {
	for _, r := range recs {
		r.Recycle()
	}
}
