package windowop

import (
	"encoding"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// UserAggregate is an aggregate a Go program defines (a user-defined
// AggregateFunction): the operator keeps one UserAccumulator per key and
// window, created when the window gets its first row.
type UserAggregate interface {
	// Name is the function's name, for errors.
	Name() string
	ResultType() arrow.DataType
	NewAccumulator() UserAccumulator
	// Checkpointable reports whether its accumulators implement
	// encoding.BinaryMarshaler and encoding.BinaryUnmarshaler, which a
	// checkpoint saves and restores them with.
	Checkpointable() bool
}

// UserAccumulator is one key's and window's state of a UserAggregate. Its
// methods are called a batch at a time: Accumulate gets all the rows of a
// batch (segment) that reach this accumulator, in arrival order.
type UserAccumulator interface {
	Accumulate(arg arrow.Array, rows []int) error
	// Merge folds other, an accumulator of the same aggregate, into this
	// one; other is not used afterwards.
	Merge(other UserAccumulator) error
	// AppendValue appends the result to b, a builder of the result type.
	AppendValue(b array.Builder) error
}

// userAcc runs a UserAggregate for every slot. A slot's accumulator is made
// on its first row; a slot without one is NULL.
type userAcc struct {
	fn    UserAggregate
	accs  []UserAccumulator
	order []int // update scratch: the segment's rows by slot, each slot's in arrival order
	rows  []int // one slot's rows
	cmp   array.Builder
	err   error // the first error of the user's code (failed)
}

func newUserAcc(fn UserAggregate) (*userAcc, error) {
	if fn == nil {
		return nil, fmt.Errorf("a user aggregate needs its function")
	}
	return &userAcc{fn: fn}, nil
}

func (a *userAcc) fail(err error) {
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("%s: %w", a.fn.Name(), err)
	}
}

func (a *userAcc) failed() error { return a.err }

func (a *userAcc) resize(n int) {
	a.accs = extendTo(a.accs, n)
}

func (a *userAcc) reset(slot int32) { a.accs[slot] = nil }

func (a *userAcc) at(slot int32) UserAccumulator {
	if a.accs[slot] == nil {
		a.accs[slot] = a.fn.NewAccumulator()
	}
	return a.accs[slot]
}

// update hands each slot its rows of the segment in one call.
func (a *userAcc) update(col arrow.Array, slots []int32, from, to int) {
	a.eachSlot(slots, from, to, false, func(s int32, rows []int) error {
		return a.at(s).Accumulate(col, rows)
	})
}

// eachSlot groups the segment's rows by slot (stably, so each slot's rows
// stay in arrival order) and calls fn once per slot with its rows, until
// one fails. held leaves out the slots without an accumulator (a retract
// has nothing to take out of them).
func (a *userAcc) eachSlot(slots []int32, from, to int, held bool, fn func(s int32, rows []int) error) {
	if a.err != nil {
		return
	}
	a.order = a.order[:0]
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && (!held || a.accs[s] != nil) {
			a.order = append(a.order, i)
		}
	}
	slices.SortStableFunc(a.order, func(x, y int) int { return int(slots[x]) - int(slots[y]) })
	for start := 0; start < len(a.order); {
		s := slots[a.order[start]]
		end := start + 1
		for end < len(a.order) && slots[a.order[end]] == s {
			end++
		}
		a.rows = append(a.rows[:0], a.order[start:end]...)
		if err := fn(s, a.rows); err != nil {
			a.fail(err)
			return
		}
		start = end
	}
}

func (a *userAcc) appendResults(slots []int32, b array.Builder) {
	for _, s := range slots {
		if a.accs[s] == nil || a.err != nil {
			b.AppendNull()
			continue
		}
		n := b.Len()
		if err := a.accs[s].AppendValue(b); err != nil {
			a.fail(err)
		}
		if b.Len() != n+1 {
			a.fail(fmt.Errorf("AppendValue appended %d values, not one", b.Len()-n))
			for b.Len() < n+1 {
				b.AppendNull()
			}
		}
	}
}

func (a *userAcc) merge(dst, src int32) {
	if a.accs[src] == nil || a.err != nil {
		return
	}
	if a.accs[dst] == nil {
		a.accs[dst] = a.fn.NewAccumulator()
	}
	a.fail(a.accs[dst].Merge(a.accs[src]))
}

// copyTo makes dst a fresh accumulator with src merged in: the user's
// accumulators have no copy of their own.
func (a *userAcc) copyTo(dst, src int32) {
	a.accs[dst] = nil
	a.merge(dst, src)
}

// sameResult compares the two results as Arrow values.
func (a *userAcc) sameResult(x, y int32) bool {
	if a.err != nil {
		return true
	}
	if a.cmp == nil {
		a.cmp = array.NewBuilder(memory.DefaultAllocator, a.fn.ResultType())
	}
	a.appendResults([]int32{x, y}, a.cmp)
	arr := a.cmp.NewArray()
	defer arr.Release()
	return array.SliceEqual(arr, 0, 1, arr, 1, 2)
}

func (a *userAcc) resultType() arrow.DataType { return a.fn.ResultType() }

// save writes each slot's accumulator as its MarshalBinary bytes; a query
// whose accumulators cannot (Checkpointable) is refused checkpointing
// before it starts.
func (a *userAcc) save(e *checkpoint.Encoder, n int) {
	for s := range n {
		acc := a.accs[s]
		e.Bool(acc != nil)
		if acc == nil {
			continue
		}
		m, ok := acc.(encoding.BinaryMarshaler)
		if !ok {
			a.fail(fmt.Errorf("its accumulator cannot be checkpointed: it does not implement encoding.BinaryMarshaler"))
			e.Bytes(nil)
			continue
		}
		b, err := m.MarshalBinary()
		a.fail(err)
		e.Bytes(b)
	}
}

func (a *userAcc) load(d *checkpoint.Decoder, n int) {
	a.accs = make([]UserAccumulator, n)
	for s := range n {
		if !d.Bool() {
			continue
		}
		b := d.Bytes()
		if d.Err() != nil {
			return
		}
		acc := a.fn.NewAccumulator()
		u, ok := acc.(encoding.BinaryUnmarshaler)
		if !ok {
			d.Fail("the accumulator of %s does not implement encoding.BinaryUnmarshaler", a.fn.Name())
			return
		}
		if err := u.UnmarshalBinary(b); err != nil {
			d.Fail("the accumulator of %s: %v", a.fn.Name(), err)
			return
		}
		a.accs[s] = acc
	}
}
