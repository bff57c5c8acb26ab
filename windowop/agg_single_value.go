package windowop

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// errSingleValue is Flink's error when a scalar subquery gives a second
// row (SingleValueAggFunction), word for word with its full stop.
//
//lint:ignore ST1005 Flink's message as it is
var errSingleValue = errors.New("SingleValueAggFunction received more than one element.")

// singleValueAcc is SINGLE_VALUE(x), the aggregate a scalar subquery that
// may give more than one row is planned with: the value of the one row
// (NULL without rows), and the run fails when a group holds a second row.
// The value is FIRST_VALUE's of the rows so far, which for a single row
// is its x, NULL included. Over an update stream a retracted row leaves
// room for another.
type singleValueAcc struct {
	inner  accumulator
	counts []int64 // rows in the slot: every row counts, NULL or not
	err    error
}

func newSingleValueAcc(in arrow.DataType, retracting bool) (*singleValueAcc, error) {
	var inner accumulator
	var err error
	if retracting {
		inner, err = newRetractPick(in, false)
	} else {
		inner, err = newPickAcc(in, pickFirst)
	}
	if err != nil {
		return nil, err
	}
	return &singleValueAcc{inner: inner}, nil
}

func (a *singleValueAcc) resize(n int) {
	a.inner.resize(n)
	a.counts = extendTo(a.counts, n)
}

func (a *singleValueAcc) reset(slot int32) {
	a.inner.reset(slot)
	a.counts[slot] = 0
}

func (a *singleValueAcc) update(col arrow.Array, slots []int32, from, to int) {
	a.inner.update(col, slots, from, to)
	for _, s := range slots[from:to] {
		if s >= 0 {
			a.counts[s]++
			if a.counts[s] > 1 && a.err == nil {
				a.err = errSingleValue
			}
		}
	}
}

// retract is used only over an update stream (newRetractAccumulator).
func (a *singleValueAcc) retract(col arrow.Array, slots []int32, from, to int) {
	a.inner.(retracter).retract(col, slots, from, to)
	for _, s := range slots[from:to] {
		if s >= 0 {
			a.counts[s]--
		}
	}
}

func (a *singleValueAcc) appendResults(slots []int32, b array.Builder) {
	a.inner.appendResults(slots, b)
}

func (a *singleValueAcc) merge(dst, src int32) {
	a.inner.merge(dst, src)
	a.counts[dst] += a.counts[src]
	if a.counts[dst] > 1 && a.err == nil {
		a.err = errSingleValue
	}
}

func (a *singleValueAcc) copyTo(dst, src int32) {
	a.inner.copyTo(dst, src)
	a.counts[dst] = a.counts[src]
}

func (a *singleValueAcc) copyResult(dst, src int32) { copyResult(a.inner, dst, src) }

func (a *singleValueAcc) sameResult(x, y int32) bool { return a.inner.sameResult(x, y) }
func (a *singleValueAcc) resultType() arrow.DataType { return a.inner.resultType() }

func (a *singleValueAcc) failed() error {
	if a.err != nil {
		return a.err
	}
	if f, ok := a.inner.(failer); ok {
		return f.failed()
	}
	return nil
}

func (a *singleValueAcc) save(e *checkpoint.Encoder, n int) {
	a.inner.save(e, n)
	checkpoint.Ints(e, a.counts[:n])
}

func (a *singleValueAcc) load(d *checkpoint.Decoder, n int) {
	a.inner.load(d, n)
	a.counts = rowCounts(d, fit(d, checkpoint.ReadInts[int64](d), n))
}
