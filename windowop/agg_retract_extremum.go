package windowop

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/checkpoint"
)

// retractExtremum is MIN or MAX with retraction, Flink's
// MinWithRetractAggFunction and MaxWithRetractAggFunction: per slot, each
// value with how many rows hold it, so taking out the extreme finds the
// next one. A value is held as a comparable key of its type: integers,
// BOOLEAN, dates, times and timestamps as int64; floats by their bits
// (floatOrderKey, so NaN is one value and -0.0 another than 0.0, as Java's
// Double keys); DECIMAL as decimal128; STRING and BYTES as strings.
type retractExtremum[K comparable] struct {
	dt      arrow.DataType
	max     bool
	read    func(col arrow.Array, i int) K // may borrow the batch's memory
	own     func(K) K                      // a key that owns its memory; nil: keys always do
	compare func(x, y K) int
	write   func(b array.Builder, v K)
	sets    []map[K]int64
	// per slot, the extreme value while fresh: a new value compares with
	// it alone, and only taking out its last row makes the next read
	// walk the values (Flink keeps a sorted map for the same reason)
	top   []K
	fresh []bool
}

func newRetractExtremum(in arrow.DataType, isMax bool) (retracter, error) {
	switch in.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL,
		arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP:
		return &retractExtremum[int64]{dt: in, max: isMax, read: intValue, compare: cmp.Compare[int64], write: appendInt}, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		return &retractExtremum[uint64]{dt: in, max: isMax, read: floatOrderKey,
			compare: func(x, y uint64) int { return compareFloat(math.Float64frombits(x), math.Float64frombits(y)) },
			write:   func(b array.Builder, v uint64) { appendFloat(b, math.Float64frombits(v)) }}, nil
	case arrow.DECIMAL128:
		return &retractExtremum[decimal128.Num]{dt: in, max: isMax, read: decimalKey, compare: compareDecimal,
			write: func(b array.Builder, v decimal128.Num) { b.(*array.Decimal128Builder).Append(v) }}, nil
	case arrow.STRING:
		return &retractExtremum[string]{dt: in, max: isMax, read: stringKey, own: strings.Clone, compare: strings.Compare,
			write: func(b array.Builder, v string) { b.(*array.StringBuilder).Append(v) }}, nil
	case arrow.BINARY:
		return &retractExtremum[string]{dt: in, max: isMax, read: bytesKey, own: strings.Clone, compare: strings.Compare,
			write: func(b array.Builder, v string) { b.(*array.BinaryBuilder).Append(bytesOf(v)) }}, nil
	}
	return nil, fmt.Errorf("MIN and MAX over %s are not supported", in)
}

// floatOrderKey is a FLOAT or DOUBLE value's bits, every NaN made one.
func floatOrderKey(col arrow.Array, i int) uint64 {
	f := floatValue(col, i)
	if f != f {
		return math.Float64bits(canonicalNaN)
	}
	return math.Float64bits(f)
}

func (a *retractExtremum[K]) resize(n int) {
	for len(a.sets) < n {
		var zero K
		a.sets, a.top, a.fresh = append(a.sets, nil), append(a.top, zero), append(a.fresh, true)
	}
}

func (a *retractExtremum[K]) reset(s int32) {
	var zero K
	a.sets[s], a.top[s], a.fresh[s] = nil, zero, true
}

// beats reports whether v is a better extreme than w.
func (a *retractExtremum[K]) beats(v, w K) bool {
	c := a.compare(v, w)
	return a.max && c > 0 || !a.max && c < 0
}

func (a *retractExtremum[K]) update(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			if a.sets[s] == nil {
				a.sets[s] = map[K]int64{}
			}
			v := a.read(col, i)
			if n, ok := a.sets[s][v]; ok {
				a.sets[s][v] = n + 1
				continue
			}
			if a.own != nil {
				v = a.own(v)
			}
			a.sets[s][v] = 1
			if a.fresh[s] && (len(a.sets[s]) == 1 || a.beats(v, a.top[s])) {
				a.top[s] = v
			}
		}
	}
}

// retract takes a row's value out; a value the slot does not hold changes
// nothing.
func (a *retractExtremum[K]) retract(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) && a.sets[s] != nil {
			v := a.read(col, i)
			n, ok := a.sets[s][v]
			switch {
			case !ok:
			case n <= 1:
				delete(a.sets[s], v)
				if a.fresh[s] && v == a.top[s] {
					a.fresh[s] = false
				}
			default:
				a.sets[s][v] = n - 1
			}
		}
	}
}

// best is slot s's extreme value; ok false when it holds none.
func (a *retractExtremum[K]) best(s int32) (best K, ok bool) {
	if len(a.sets[s]) == 0 {
		return best, false
	}
	if a.fresh[s] {
		return a.top[s], true
	}
	for v := range a.sets[s] {
		if !ok || a.beats(v, best) {
			best, ok = v, true
		}
	}
	a.top[s], a.fresh[s] = best, true
	return best, ok
}

func (a *retractExtremum[K]) appendResults(slots []int32, b array.Builder) {
	for _, s := range slots {
		if v, ok := a.best(s); ok {
			a.write(b, v)
		} else {
			b.AppendNull()
		}
	}
}

func (a *retractExtremum[K]) merge(dst, src int32) {
	for v, n := range a.sets[src] {
		if a.sets[dst] == nil {
			a.sets[dst] = map[K]int64{}
		}
		a.sets[dst][v] += n
	}
	a.fresh[dst] = false
}

func (a *retractExtremum[K]) copyTo(dst, src int32) {
	a.sets[dst] = nil
	a.merge(dst, src)
}

// copyResult keeps only the extreme value: a shadow slot shows no more.
func (a *retractExtremum[K]) copyResult(dst, src int32) {
	v, ok := a.best(src)
	switch {
	case !ok:
		a.sets[dst] = nil
	case a.sets[dst] == nil:
		a.sets[dst] = map[K]int64{v: 1}
	default:
		clear(a.sets[dst]) // a shadow's map is reused: no allocation per change
		a.sets[dst][v] = 1
	}
	a.top[dst], a.fresh[dst] = v, true
}

func (a *retractExtremum[K]) sameResult(x, y int32) bool {
	vx, okx := a.best(x)
	vy, oky := a.best(y)
	return okx == oky && vx == vy
}

func (a *retractExtremum[K]) resultType() arrow.DataType { return a.dt }

// save writes each slot's values in their order, with their counts.
func (a *retractExtremum[K]) save(e *checkpoint.Encoder, n int) {
	e.Uint(uint64(n))
	for _, set := range a.sets[:n] {
		e.Uint(uint64(len(set)))
		for _, v := range sortedBy(set, a.compare) {
			saveExtremumKey(e, v)
			e.Int(set[v])
		}
	}
}

func (a *retractExtremum[K]) load(d *checkpoint.Decoder, n int) {
	a.sets = make([]map[K]int64, d.Len(1))
	for s := range a.sets {
		for range d.Len(2) {
			v := loadExtremumKey[K](d)
			c := d.Int()
			if c <= 0 {
				d.Fail("MIN/MAX value count %d is not positive", c)
				return
			}
			if a.sets[s] == nil {
				a.sets[s] = map[K]int64{}
			}
			a.sets[s][v] = c
		}
	}
	a.sets = fit(d, a.sets, n)
	a.top, a.fresh = make([]K, len(a.sets)), make([]bool, len(a.sets)) // not fresh: read again
}

// sortedBy is the keys of m in the order of compare.
func sortedBy[K comparable, V any](m map[K]V, compare func(x, y K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	return keys
}

func saveExtremumKey[K comparable](e *checkpoint.Encoder, k K) {
	if x, ok := any(k).(int64); ok {
		e.Int(x)
		return
	}
	saveKey(e, k)
}

func loadExtremumKey[K comparable](d *checkpoint.Decoder) K {
	var k K
	if p, ok := any(&k).(*int64); ok {
		*p = d.Int()
		return k
	}
	return loadKey[K](d)
}
