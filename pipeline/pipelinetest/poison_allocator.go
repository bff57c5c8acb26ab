package pipelinetest

import "github.com/apache/arrow-go/v18/arrow/memory"

// poisonAllocator overwrites every buffer it frees, so a batch that still
// points into released memory (an input kept without Retain, an output
// released too early) shows garbage instead of the old values.
type poisonAllocator struct {
	memory.Allocator
}

const poisonByte = 0xA5

func (p poisonAllocator) Free(b []byte) {
	poison(b)
	p.Allocator.Free(b)
}

func (p poisonAllocator) Reallocate(size int, b []byte) []byte {
	out := p.Allocator.Reallocate(size, b)
	if cap(b) > 0 && (cap(out) == 0 || &out[:1][0] != &b[:1][0]) {
		poison(b)
	}
	return out
}

func poison(b []byte) {
	b = b[:cap(b)]
	for i := range b {
		b[i] = poisonByte
	}
}

// newAllocator is the allocator of one run: checked, so the run can tell
// that every byte was released, and poisoning what is freed.
func newAllocator() *memory.CheckedAllocator {
	return memory.NewCheckedAllocator(poisonAllocator{memory.NewGoAllocator()})
}
