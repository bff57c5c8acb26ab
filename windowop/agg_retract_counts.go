package windowop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// COLLECT and PERCENTILE keep each value with a count, and retract as
// Flink's CollectAggFunction and PercentileAggFunction do: a row taken
// out lowers its value's count, and a value whose count reaches zero is
// gone. A value the slot does not hold changes nothing (Flink's COLLECT
// would keep it with the count -1, a multiset no query can mean).

// retractCollect is COLLECT(x) with retraction.
type retractCollect struct{ *collectAcc }

func newRetractCollect(in arrow.DataType) (*retractCollect, error) {
	acc, err := newCollectAcc(in, false)
	if err != nil {
		return nil, err
	}
	return &retractCollect{acc}, nil
}

func (a *retractCollect) retract(col arrow.Array, slots []int32, from, to int) {
	view := a.elem.view(col)
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || col.IsNull(i) {
			continue
		}
		a.key = view.appendTo(a.key[:0], i)
		set := &a.sets[s]
		j, ok := set.index[string(a.key)]
		if !ok {
			continue
		}
		if e := &set.entries[j]; e.n > 1 {
			e.n--
			continue
		}
		delete(set.index, set.entries[j].value)
		set.bytes -= int64(len(set.entries[j].value))
		set.entries = slices.Delete(set.entries, int(j), int(j)+1)
		for k := int(j); k < len(set.entries); k++ {
			set.index[set.entries[k].value] = int32(k)
		}
	}
}

// retractPercentile is PERCENTILE(x, p [, frequency]) with retraction: a
// row takes its frequency (1 without one) off its value's count.
type retractPercentile struct{ *percentileAcc }

func newRetractPercentile(in arrow.DataType, spec AggSpec) (*retractPercentile, error) {
	acc, err := newPercentileAcc(in, spec.Percentage, spec.Percentages, spec.PercentageArray)
	if err != nil {
		return nil, err
	}
	return &retractPercentile{acc}, nil
}

func (a *retractPercentile) retract(col arrow.Array, slots []int32, from, to int) {
	a.read(col, from, to)
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 {
			if n := a.rowCount(i); n > 0 {
				a.take(s, a.xs[i], n)
			}
		}
	}
}

// take lowers value x's count in slot s by n, dropping it at zero.
func (a *retractPercentile) take(s int32, x float64, n int64) {
	a.tidyUp(s)
	v := a.vals[s]
	j, found := slices.BinarySearchFunc(v, x, func(e pctEntry, x float64) int { return compareFloat(e.v, x) })
	if !found {
		return
	}
	if v[j].n > n {
		v[j].n -= n
		return
	}
	a.vals[s] = slices.Delete(v, j, j+1)
	a.tidy[s] = len(a.vals[s])
}
