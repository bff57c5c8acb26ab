package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// AggKind names an aggregate function the operator can compute.
type AggKind int

const (
	CountStar AggKind = iota + 1 // COUNT(*): rows
	Count                        // COUNT(x): rows where x is not NULL
	Sum                          // SUM(x): NULL when every x is NULL
)

func (k AggKind) String() string {
	switch k {
	case CountStar:
		return "COUNT(*)"
	case Count:
		return "COUNT"
	case Sum:
		return "SUM"
	}
	return "AGG?"
}

// AggSpec is one aggregate of a window aggregation.
type AggSpec struct {
	Kind  AggKind
	Input int    // index of the argument column in the input; ignored by CountStar
	Name  string // output column name
}

// accumulator holds one aggregate's state for every slot, in flat arrays
// indexed by slot. All methods work on many rows or slots per call, so the
// interface is crossed once per batch segment, never per row.
type accumulator interface {
	// resize makes room for slots [0, n).
	resize(n int)
	// reset clears a slot for reuse.
	reset(slot int32)
	// update folds rows [from, to) of col into their slots; slots[i] < 0
	// means row i reaches no window.
	update(col arrow.Array, slots []int32, from, to int)
	// appendResults appends the result of each slot to b.
	appendResults(slots []int32, b array.Builder)
	// merge folds slot src into dst (HOP/CUMULATE panes into a window,
	// merging sessions); copyTo overwrites dst with src.
	merge(dst, src int32)
	copyTo(dst, src int32)
	// sameResult reports whether two slots give the same result, so an
	// update is emitted only when the value changed.
	sameResult(a, b int32) bool
	resultType() arrow.DataType
}

// newAccumulator builds the accumulator for spec over an input column of
// type in (nil for COUNT(*)). Result types follow Flink: COUNT is BIGINT,
// SUM keeps its argument's type.
func newAccumulator(spec AggSpec, in arrow.DataType) (accumulator, error) {
	switch spec.Kind {
	case CountStar:
		return &countAcc{star: true}, nil
	case Count:
		return &countAcc{}, nil
	case Sum:
		return newSumAcc(in)
	}
	return nil, fmt.Errorf("aggregate %s is not supported yet", spec.Kind)
}

// countAcc is COUNT(*) and COUNT(x).
type countAcc struct {
	star   bool
	counts []int64
}

func (a *countAcc) resize(n int) {
	for len(a.counts) < n {
		a.counts = append(a.counts, 0)
	}
}

func (a *countAcc) reset(slot int32) { a.counts[slot] = 0 }

func (a *countAcc) update(col arrow.Array, slots []int32, from, to int) {
	counts := a.counts
	if a.star || col.NullN() == 0 {
		for _, s := range slots[from:to] {
			if s >= 0 {
				counts[s]++
			}
		}
		return
	}
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			counts[s]++
		}
	}
}

func (a *countAcc) appendResults(slots []int32, b array.Builder) {
	ib := b.(*array.Int64Builder)
	for _, s := range slots {
		ib.Append(a.counts[s])
	}
}

func (a *countAcc) merge(dst, src int32)       { a.counts[dst] += a.counts[src] }
func (a *countAcc) copyTo(dst, src int32)      { a.counts[dst] = a.counts[src] }
func (a *countAcc) sameResult(x, y int32) bool { return a.counts[x] == a.counts[y] }
func (*countAcc) resultType() arrow.DataType   { return arrow.PrimitiveTypes.Int64 }
