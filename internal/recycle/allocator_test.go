package recycle

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// The allocator hands a freed buffer to the next request of its size
// class, and gives every buffer back to its parent by Close, also the ones
// freed after it.
func TestAllocatorReusesAndBalances(t *testing.T) {
	parent := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer parent.AssertSize(t, 0)
	a := New(parent)
	b := a.Allocate(100)
	require.Len(t, b, 100)
	require.Equal(t, 128, parent.CurrentAlloc())
	a.Free(b)
	c := a.Allocate(120) // same class: the same memory
	require.Equal(t, &b[0], &c[0])
	c = a.Reallocate(128, c) // fits: no new buffer
	require.Equal(t, &b[0], &c[0])
	c = a.Reallocate(300, c)
	require.Len(t, c, 300)
	require.Equal(t, 128+512, parent.CurrentAlloc(), "the 128-byte buffer is kept for reuse")
	big := a.Allocate(1 << 20)
	a.Close()
	a.Free(c)
	a.Free(big)
}

// NewUpTo keeps the buffers of up to its largest size only: a larger
// request is the parent's at its own size, and goes back to it when freed.
func TestAllocatorUpToKeepsOnlyTheSmallerBuffers(t *testing.T) {
	parent := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer parent.AssertSize(t, 0)
	a := NewUpTo(parent, 1<<20)
	defer a.Close()
	large := a.Allocate(3 << 20)
	require.Equal(t, 3<<20, parent.CurrentAlloc(), "not rounded up to 4 MiB")
	a.Free(large)
	require.Zero(t, parent.CurrentAlloc(), "not kept")
	small := a.Allocate(1000 << 10) // in the 1 MiB class
	require.Equal(t, 1<<20, parent.CurrentAlloc())
	a.Free(small)
	again := a.Allocate(900 << 10)
	require.Equal(t, &small[0], &again[0], "kept and reused")
	a.Free(again)
}

// Under PoisonFreed a freed buffer is overwritten at once.
func TestPoisonFreedOverwrites(t *testing.T) {
	PoisonFreed()
	defer poisoned.Store(false)
	a := New(memory.NewGoAllocator())
	defer a.Close()
	b := a.Allocate(10)
	copy(b, "0123456789")
	a.Free(b)
	require.Equal(t, []byte{poison, poison, poison}, b[:3])
}

// A reused buffer comes back zeroed, as a new one does.
func TestAllocatorZeroesReusedBuffers(t *testing.T) {
	a := New(memory.NewGoAllocator())
	defer a.Close()
	b := a.Allocate(100)
	copy(b, "not zero")
	a.Free(b)
	c := a.Allocate(90)
	require.Equal(t, &b[0], &c[0], "the same memory")
	require.Equal(t, make([]byte, 90), c)
}

// A reused buffer grown in place (Arrow's Resize within its capacity) is
// zeroed past what was first asked of it too: a Nexmark batch's strings
// were read from an earlier batch's bytes.
func TestAllocatorZeroesAReusedBufferGrownInPlace(t *testing.T) {
	a := New(memory.NewGoAllocator())
	defer a.Close()
	b := a.Allocate(100)
	b = b[:cap(b)]
	for i := range b {
		b[i] = 0xAA
	}
	a.Free(b)
	c := a.Allocate(70)
	require.Equal(t, &b[0], &c[0], "the same memory")
	c = a.Reallocate(120, c)
	require.Equal(t, &b[0], &c[0], "grown in place")
	require.Equal(t, make([]byte, 120), c)
}

// The unzeroed view hands a reused buffer back as it was freed, and its
// buffers go back to the allocator's classes; another allocator is its
// own view.
func TestUnzeroedReusesWithoutClearing(t *testing.T) {
	parent := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer parent.AssertSize(t, 0)
	a := New(parent)
	u := Unzeroed(a)
	b := u.Allocate(100)
	copy(b, "written")
	u.Free(b)
	c := u.Allocate(90)
	require.Equal(t, &b[0], &c[0], "the same memory")
	require.Equal(t, "written", string(c[:7]))
	a.Free(c)
	d := a.Allocate(100)
	require.Equal(t, &b[0], &d[0], "freed through the view, reused by the allocator")
	require.Equal(t, make([]byte, 100), d, "zeroed when asked of the allocator")
	a.Free(d)
	a.Close()
	require.Equal(t, memory.Allocator(parent), Unzeroed(parent))
}

// A size class keeps up to keptSize bytes of freed buffers, or perClass
// buffers of a class larger than that share: the batches a parallel
// decoder has in flight all come back to be reused, while a class of
// large buffers keeps few.
func TestAllocatorKeepsUpToAShareOfBytesPerClass(t *testing.T) {
	parent := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer parent.AssertSize(t, 0)
	a := New(parent)
	keep := func(size, n int) int {
		bufs := make([][]byte, n)
		for i := range bufs {
			bufs[i] = a.Allocate(size)
		}
		before := parent.CurrentAlloc()
		for _, b := range bufs {
			a.Free(b)
		}
		return (before - parent.CurrentAlloc()) / size // the buffers the parent got back
	}
	require.Equal(t, 1, keep(32<<10, keptSize/(32<<10)+1), "a small class keeps its share, one buffer more goes back")
	require.Equal(t, 4, keep(4<<20, perClass+4), "a large class keeps perClass")
	a.Close()
}
