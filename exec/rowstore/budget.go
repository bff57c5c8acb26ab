package rowstore

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Budget is the memory the row stores of one job share ('wsql.state.spill-after'):
// once the rows they keep in memory exceed it, the store that grows writes
// its oldest chunks to a spill file. One budget for the job rather than
// one per store, because the stores are of very different sizes: a join of
// auctions and bids keeps ten bids for an auction, and a share per store
// would spill the small side's rows (read by every bid) while leaving the
// big side's half-used share idle. A store spills its own chunks, oldest
// first, so the rows read most (the newest) stay in memory. The stores of
// a job may run in several goroutines: the counts are atomic.
type Budget struct {
	limit   int64
	dir     string
	used    atomic.Int64 // bytes of the chunks in memory, every store
	spilled atomic.Int64 // bytes written to spill files

	mu    sync.Mutex
	files map[*spillFile]struct{} // open, closed with the budget
}

// NewBudget is a budget of limit bytes (no spilling when 0 or less) whose
// stores write their spill files in dir (os.TempDir() when empty).
func NewBudget(limit int64, dir string) *Budget {
	return &Budget{limit: limit, dir: dir, files: map[*spillFile]struct{}{}}
}

// SpilledBytes is how many bytes the stores wrote to spill files.
func (b *Budget) SpilledBytes() int64 {
	if b == nil {
		return 0
	}
	return b.spilled.Load()
}

// InMemory is the bytes of the rows the budget's stores keep in memory.
func (b *Budget) InMemory() int64 { return b.used.Load() }

func (b *Budget) over() bool { return b.limit > 0 && b.used.Load() > b.limit }

func (b *Budget) opened(f *spillFile) {
	b.mu.Lock()
	b.files[f] = struct{}{}
	b.mu.Unlock()
}

func (b *Budget) closed(f *spillFile) {
	b.mu.Lock()
	delete(b.files, f)
	b.mu.Unlock()
}

// Close closes (and so deletes) the spill files stores left open: a job
// that stops on an error may not release its operators.
func (b *Budget) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	files := make([]*spillFile, 0, len(b.files))
	for f := range b.files {
		files = append(files, f)
	}
	b.files = map[*spillFile]struct{}{}
	b.mu.Unlock()
	var errs []error
	for _, f := range files {
		errs = append(errs, f.close())
	}
	return errors.Join(errs...)
}

// WithBudget is mem marked with b: every store New makes with it (or
// with an allocator wrapping it no further) spills within b. A job hands
// its operators this allocator, so the stores of its joins, Top-Ns and
// OVER aggregations share one budget without each operator plumbing it.
func WithBudget(mem memory.Allocator, b *Budget) memory.Allocator {
	if b == nil {
		return mem
	}
	return &budgetAllocator{Allocator: mem, budget: b}
}

type budgetAllocator struct {
	memory.Allocator
	budget *Budget
}

// budgetOf is the budget mem is marked with, nil for none.
func budgetOf(mem memory.Allocator) *Budget {
	if b, ok := mem.(*budgetAllocator); ok {
		return b.budget
	}
	return nil
}
