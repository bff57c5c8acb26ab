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
	sets    valueCounts[K]
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
	a.sets.resize(n)
	old := len(a.top)
	a.top, a.fresh = extendTo(a.top, n), extendTo(a.fresh, n)
	for i := old; i < len(a.fresh); i++ {
		a.fresh[i] = true
	}
}

func (a *retractExtremum[K]) reset(s int32) {
	var zero K
	a.sets.reset(s)
	a.top[s], a.fresh[s] = zero, true
}

// beats reports whether v is a better extreme than w.
func (a *retractExtremum[K]) beats(v, w K) bool {
	c := a.compare(v, w)
	return a.max && c > 0 || !a.max && c < 0
}

func (a *retractExtremum[K]) update(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			before, held := a.sets.add(s, a.read(col, i), 1, a.own)
			if before == 0 && a.fresh[s] && (a.sets.len(s) == 1 || a.beats(held, a.top[s])) {
				a.top[s] = held
			}
		}
	}
}

// retract takes a row's value out; a value the slot does not hold changes
// nothing.
func (a *retractExtremum[K]) retract(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			before, v := a.sets.add(s, a.read(col, i), -1, nil)
			if before == 1 && a.fresh[s] && v == a.top[s] {
				a.fresh[s] = false
			}
		}
	}
}

// best is slot s's extreme value; ok false when it holds none.
func (a *retractExtremum[K]) best(s int32) (best K, ok bool) {
	if a.sets.len(s) == 0 {
		return best, false
	}
	if a.fresh[s] {
		return a.top[s], true
	}
	for v := range a.sets.values(s) {
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
	a.sets.mergeInto(dst, src, nil)
	a.fresh[dst] = false
}

func (a *retractExtremum[K]) copyTo(dst, src int32) {
	a.sets.reset(dst)
	a.merge(dst, src)
}

// copyResult keeps only the extreme value: a shadow slot shows no more.
func (a *retractExtremum[K]) copyResult(dst, src int32) {
	v, ok := a.best(src)
	a.sets.clear(dst) // a shadow's map is reused: no allocation per change
	if ok {
		a.sets.add(dst, v, 1, nil)
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
	for s := range int32(n) {
		e.Uint(uint64(a.sets.len(s)))
		for _, v := range slices.SortedFunc(a.sets.values(s), a.compare) {
			saveExtremumKey(e, v)
			e.Int(a.sets.count(s, v))
		}
	}
}

func (a *retractExtremum[K]) load(d *checkpoint.Decoder, n int) {
	a.sets = valueCounts[K]{sets: make([]map[K]int32, d.Len(1))}
	for s := range int32(len(a.sets.sets)) {
		for range d.Len(2) {
			v := loadExtremumKey[K](d)
			c := d.Int()
			if c <= 0 {
				d.Fail("MIN/MAX value count %d is not positive", c)
				return
			}
			a.sets.add(s, v, c, nil)
		}
	}
	fit(d, a.sets.sets, n)
	a.top, a.fresh = make([]K, len(a.sets.sets)), make([]bool, len(a.sets.sets)) // not fresh: read again
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
