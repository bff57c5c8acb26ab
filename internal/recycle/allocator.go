package recycle

import (
	"math/bits"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Allocator keeps freed buffers by power-of-two size class, so a class's
// buffers fit any request of the class. A reused buffer is zeroed, as the
// Go allocator's are: parts of Arrow count on it (array.MakeArrayOfNull
// and the IPC writer leave bitmaps as allocated), and clearing costs far
// less than the garbage collection it replaces. Output
// batches may be released on another goroutine, hence the lock: it is
// taken per buffer, a few times a batch. Once closed, freed buffers go to
// the parent.
//
// A class keeps up to keptSize bytes, at least perClass buffers: a
// parallel decoder has some sixty batches in flight, and a limit of 16
// buffers per class sent most of them to the collector (the benchmark's
// CSV TUMBLE allocated 187 MB instead of 5, and used 9% more CPU).
type Allocator struct {
	parent memory.Allocator
	top    int // the largest class kept: larger requests go to the parent as they are
	mu     sync.Mutex
	free   [classes][][]byte // by log2 of the capacity
	closed bool
}

const (
	classes  = 31      // up to 1 GiB; larger buffers are not kept
	perClass = 16      // buffers kept per size class, at least
	keptSize = 8 << 20 // bytes kept per size class, up to perClass buffers of the larger classes
	minClass = 6       // 64 bytes, Arrow's alignment
)

// poisoned is set by PoisonFreed.
var poisoned atomic.Bool

// PoisonFreed makes every Allocator overwrite a buffer as it is freed, for
// tests: a reader that keeps memory of a released batch then sees garbage
// at once instead of only once the buffer happens to be reused.
func PoisonFreed() { poisoned.Store(true) }

// PoisonFreedUnlessBenchmarking is PoisonFreed for a test binary's init,
// except when the binary runs benchmarks (-test.bench): they measure the
// allocator as the product runs it.
func PoisonFreedUnlessBenchmarking() {
	args := os.Args[1:]
	for i, arg := range args {
		arg = strings.TrimLeft(arg, "-") // -flag and --flag are one
		if v, ok := strings.CutPrefix(arg, "test.bench="); ok && v != "" ||
			arg == "test.bench" && i+1 < len(args) && args[i+1] != "" {
			return
		}
	}
	PoisonFreed()
}

// poison is the byte a freed buffer is filled with under PoisonFreed.
const poison = 0xDB

func New(parent memory.Allocator) *Allocator {
	return &Allocator{parent: parent, top: classes - 1}
}

// NewRun is the allocator every allocation of a query's run goes through
// (exec's Job.Run): the stages that make a new batch for each batch they
// get (projections, filters, computed columns) reuse the buffers of the
// batches released before instead of leaving them to the collector
// (Nexmark q1: 44% less CPU). It keeps buffers of up to a column of 256K
// 16-byte values, more than a batch's.
func NewRun(parent memory.Allocator) *Allocator { return NewUpTo(parent, 4<<20) }

// NewUpTo is New keeping buffers of up to largest bytes only: a larger
// request goes to the parent at its own size, neither rounded up to a
// class nor kept. An allocator that every allocation of a run goes
// through (state that grows to hundreds of MiB among them) so keeps the
// batches' buffers without holding on to a state's old ones.
func NewUpTo(parent memory.Allocator, largest int) *Allocator {
	return &Allocator{parent: parent, top: min(class(largest), classes-1)}
}

// class is the size class of a request of size bytes.
func class(size int) int {
	if size <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(size - 1))
}

func (a *Allocator) Allocate(size int) []byte { return a.allocate(size, true) }

// allocate is Allocate, the reused buffer cleared only when zeroed.
func (a *Allocator) allocate(size int, zeroed bool) []byte {
	c := class(size)
	if c > a.top {
		return a.parent.Allocate(size)
	}
	a.mu.Lock()
	if n := len(a.free[c]); n > 0 {
		b := a.free[c][n-1]
		a.free[c][n-1] = nil
		a.free[c] = a.free[c][:n-1]
		a.mu.Unlock()
		if zeroed {
			clear(b[:size])
		}
		return b[:size]
	}
	a.mu.Unlock()
	return a.parent.Allocate(1 << c)[:size]
}

func (a *Allocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		// grown in place (Arrow's Resize within the capacity): zeroed as
		// the Go allocator's are, not an earlier batch's bytes
		clear(b[len(b):max(size, len(b))])
		return b[:size]
	}
	out := a.Allocate(size)
	copy(out, b)
	a.Free(b)
	return out
}

func (a *Allocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	b = b[:cap(b)]
	if poisoned.Load() {
		for i := range b {
			b[i] = poison
		}
	}
	c := class(cap(b))
	if c > a.top || cap(b) != 1<<c {
		a.parent.Free(b) // allocated by the parent at its own size
		return
	}
	a.mu.Lock()
	if !a.closed && (len(a.free[c]) < perClass || (len(a.free[c])+1)<<c <= keptSize) {
		a.free[c] = append(a.free[c], b)
		b = nil
	}
	a.mu.Unlock()
	if b != nil {
		a.parent.Free(b)
	}
}

// Close gives every kept buffer back to the parent; buffers freed later
// go to it directly.
func (a *Allocator) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	for c := range a.free {
		for _, b := range a.free[c] {
			a.parent.Free(b)
		}
		a.free[c] = nil
	}
}

// Unzeroed is mem's view that hands out a reused buffer as it was freed,
// not cleared, for a writer that writes every byte of the size it asks
// for before anyone reads it: a generator's values and offsets. Clearing
// them was 5% of the Nexmark q7 queries. mem's other methods are its own;
// an allocator that is not an *Allocator is returned as it is.
func Unzeroed(mem memory.Allocator) memory.Allocator {
	if a, ok := mem.(*Allocator); ok {
		return unzeroed{a}
	}
	return mem
}

type unzeroed struct{ *Allocator }

func (u unzeroed) Allocate(size int) []byte { return u.allocate(size, false) }

var (
	_ memory.Allocator = (*Allocator)(nil)
	_ memory.Allocator = unzeroed{}
)
