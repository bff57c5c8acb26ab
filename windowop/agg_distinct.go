package windowop

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// distinctAcc is an aggregate over DISTINCT values (COUNT, SUM, AVG and
// the variance family): each slot keeps the set of values it has seen, and
// only rows whose value is new to their slot reach the inner aggregate, as
// Flink's distinct MapView does. Merging panes or sessions is set union:
// the values of src missing from dst are folded into dst's inner state. A
// set holds the distinct values of one pane or window, and is dropped when
// the slot is reset.
func newDistinctAcc(inner accumulator, in arrow.DataType) (accumulator, error) {
	switch in.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL,
		arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP, arrow.FLOAT32, arrow.FLOAT64:
		return &distinctAcc[uint64]{inner: inner, dt: in, key: fixedKey, build: buildFixed}, nil
	case arrow.DECIMAL128:
		return &distinctAcc[decimal128.Num]{inner: inner, dt: in, key: decimalKey, build: buildDecimals}, nil
	case arrow.STRING:
		return &distinctAcc[string]{inner: inner, dt: in, key: stringKey, own: strings.Clone, build: buildStrings, weigh: stringBytes}, nil
	case arrow.BINARY: // BYTES, and the encoding of a nested value (COUNT(DISTINCT row))
		return &distinctAcc[string]{inner: inner, dt: in, key: bytesKey, own: strings.Clone, build: buildStrings, weigh: stringBytes}, nil
	case arrow.STRUCT:
		rk, err := newRowKeyer(in.(*arrow.StructType))
		if err != nil {
			return nil, err
		}
		return &distinctAcc[string]{inner: inner, dt: in, key: rk.key, valid: rowValid, own: strings.Clone,
			build: buildStrings, weigh: stringBytes}, nil
	}
	return nil, fmt.Errorf("distinct values of type %s are not supported", in)
}

type distinctAcc[K comparable] struct {
	inner accumulator
	dt    arrow.DataType
	key   func(col arrow.Array, i int) K                // the set key of row i (not NULL); may borrow the batch's memory
	own   func(K) K                                     // a key that owns its memory, for the set; nil: keys always do
	valid func(col arrow.Array, i int) bool             // row i has a value; nil: col.IsValid
	build func(dt arrow.DataType, keys []K) arrow.Array // an input column of keys
	weigh func(K) int64                                 // bytes a value holds outside the set's entry; nil: none

	// per slot: bytes of its values held outside the set's entries
	// (strings' bytes), for 'wsql.state.max-bytes'
	valueBytes []int64

	sets  []map[K]struct{}
	order [][]K // each set's values in insertion order, so merges fold deterministically

	keep  []int32 // update scratch: the row's slot if its value is new, else -1
	dsts  []int32 // merge scratch
	fresh []K
}

func (a *distinctAcc[K]) resize(n int) {
	a.inner.resize(n)
	a.sets, a.order, a.valueBytes = extendTo(a.sets, n), extendTo(a.order, n), extendTo(a.valueBytes, n)
}

// copyResult copies the inner result only: the set decides nothing a
// shadow slot shows.
func (a *distinctAcc[K]) copyResult(dst, src int32) { copyResult(a.inner, dst, src) }

func (a *distinctAcc[K]) reset(s int32) {
	a.inner.reset(s)
	a.sets[s], a.order[s], a.valueBytes[s] = nil, nil, 0
}

// add puts k in slot s's set and reports whether it was new.
func (a *distinctAcc[K]) add(s int32, k K) bool {
	set := a.sets[s]
	if set == nil {
		set = make(map[K]struct{})
		a.sets[s] = set
	} else if _, ok := set[k]; ok {
		return false
	}
	if a.own != nil {
		k = a.own(k)
	}
	set[k] = struct{}{}
	a.order[s] = append(a.order[s], k)
	if a.weigh != nil {
		a.valueBytes[s] += a.weigh(k)
	}
	return true
}

func (a *distinctAcc[K]) update(col arrow.Array, slots []int32, from, to int) {
	a.keep = grow(a.keep, to)
	for i := from; i < to; i++ {
		s := slots[i]
		a.keep[i] = -1
		if s >= 0 && a.isValid(col, i) && a.add(s, a.key(col, i)) {
			a.keep[i] = s
		}
	}
	a.inner.update(col, a.keep, from, to)
}

func (a *distinctAcc[K]) isValid(col arrow.Array, i int) bool {
	if a.valid != nil {
		return a.valid(col, i)
	}
	return col.IsValid(i)
}

func (a *distinctAcc[K]) merge(dst, src int32) {
	a.fresh = a.fresh[:0]
	for _, k := range a.order[src] {
		if a.add(dst, k) {
			a.fresh = append(a.fresh, k)
		}
	}
	if len(a.fresh) == 0 {
		return
	}
	col := a.build(a.dt, a.fresh)
	defer col.Release()
	a.dsts = grow(a.dsts, len(a.fresh))
	for i := range a.dsts {
		a.dsts[i] = dst
	}
	a.inner.update(col, a.dsts, 0, len(a.dsts))
}

func (a *distinctAcc[K]) copyTo(dst, src int32) {
	a.inner.copyTo(dst, src)
	a.valueBytes[dst] = a.valueBytes[src]
	if a.sets[src] == nil {
		a.sets[dst], a.order[dst] = nil, nil
		return
	}
	set := make(map[K]struct{}, len(a.order[src]))
	for _, k := range a.order[src] {
		set[k] = struct{}{}
	}
	a.sets[dst], a.order[dst] = set, append(a.order[dst][:0:0], a.order[src]...)
}

func (a *distinctAcc[K]) appendResults(slots []int32, b array.Builder) {
	a.inner.appendResults(slots, b)
}
func (a *distinctAcc[K]) sameResult(x, y int32) bool { return a.inner.sameResult(x, y) }
func (a *distinctAcc[K]) resultType() arrow.DataType { return a.inner.resultType() }

// fixedKey is a fixed-width value as 64 bits: integers sign-extended,
// floats by their bits with every NaN made one, so values are equal as
// Java's equals sees them (NaN equals NaN, -0.0 differs from 0.0).
func fixedKey(col arrow.Array, i int) uint64 {
	switch c := col.(type) {
	case *array.Int8:
		return uint64(c.Value(i))
	case *array.Int16:
		return uint64(c.Value(i))
	case *array.Int32:
		return uint64(c.Value(i))
	case *array.Int64:
		return uint64(c.Value(i))
	case *array.Boolean:
		return uint64(b2i(c.Value(i)))
	case *array.Date32:
		return uint64(c.Value(i))
	case *array.Time32:
		return uint64(c.Value(i))
	case *array.Timestamp:
		return uint64(c.Value(i))
	case *array.Time64:
		return uint64(c.Value(i))
	case *array.Float32:
		return floatKey(float64(c.Value(i)))
	case *array.Float64:
		return floatKey(c.Value(i))
	}
	panic(fmt.Sprintf("distinct key of %s", col.DataType()))
}

func floatKey(f float64) uint64 {
	if f != f {
		return math.Float64bits(math.NaN())
	}
	return math.Float64bits(f)
}

func decimalKey(col arrow.Array, i int) decimal128.Num {
	return col.(*array.Decimal128).Value(i)
}

// stringKey borrows the value from the batch; the set keeps a copy
// (own), made only for a value new to it.
func stringKey(col arrow.Array, i int) string {
	return col.(*array.String).Value(i)
}

// bytesKey borrows the batch's bytes as a string, as stringKey does.
func bytesKey(col arrow.Array, i int) string {
	return col.(*array.Binary).ValueString(i)
}

func stringBytes(k string) int64 { return int64(len(k)) }

// buildFixed turns keys back into a column of type dt for the inner
// aggregate. Merges are per window, not per row, so Go memory will do.
func buildFixed(dt arrow.DataType, keys []uint64) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, k := range keys {
		switch bb := b.(type) {
		case *array.Int8Builder:
			bb.Append(int8(k))
		case *array.Int16Builder:
			bb.Append(int16(k))
		case *array.Int32Builder:
			bb.Append(int32(k))
		case *array.Int64Builder:
			bb.Append(int64(k))
		case *array.BooleanBuilder:
			bb.Append(k != 0)
		case *array.Date32Builder:
			bb.Append(arrow.Date32(k))
		case *array.Time32Builder:
			bb.Append(arrow.Time32(k))
		case *array.TimestampBuilder:
			bb.Append(arrow.Timestamp(k))
		case *array.Time64Builder:
			bb.Append(arrow.Time64(k))
		case *array.Float32Builder:
			bb.Append(float32(math.Float64frombits(k)))
		case *array.Float64Builder:
			bb.Append(math.Float64frombits(k))
		}
	}
	return b.NewArray()
}

func buildDecimals(dt arrow.DataType, keys []decimal128.Num) arrow.Array {
	b := array.NewDecimal128Builder(memory.DefaultAllocator, dt.(*arrow.Decimal128Type))
	defer b.Release()
	b.AppendValues(keys, nil)
	return b.NewArray()
}

// buildStrings is a STRING column of keys; for rows (COUNT(DISTINCT a,
// b)) it is their encodings, which the inner COUNT only counts.
func buildStrings(dt arrow.DataType, keys []string) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(keys, nil)
	return b.NewArray()
}

// save writes the inner state and each slot's set in insertion order, the
// order later merges fold new values in; the sets are rebuilt from it.
func (a *distinctAcc[K]) save(e *checkpoint.Encoder, n int) {
	a.inner.save(e, n)
	e.Uint(uint64(n))
	for _, keys := range a.order[:n] {
		e.Uint(uint64(len(keys)))
		for _, k := range keys {
			saveKey(e, k)
		}
	}
}

func (a *distinctAcc[K]) load(d *checkpoint.Decoder, n int) {
	a.inner.load(d, n)
	a.order = make([][]K, d.Len(1))
	a.sets = make([]map[K]struct{}, len(a.order))
	a.valueBytes = make([]int64, len(a.order))
	for s := range a.order {
		for range d.Len(1) {
			if k := loadKey[K](d); !a.add(int32(s), k) {
				d.Fail("value %v twice in a DISTINCT set", k)
			}
		}
	}
	a.order = fit(d, a.order, n)
	a.sets = fit(d, a.sets, n)
	a.valueBytes = fit(d, a.valueBytes, n)
}

// saveKey and loadKey write a set key of each type distinctAcc is built for.
func saveKey[K comparable](e *checkpoint.Encoder, k K) {
	switch k := any(k).(type) {
	case uint64:
		e.Uint(k)
	case decimal128.Num:
		saveDecimal(e, k)
	case string:
		e.String(k)
	default:
		panic(fmt.Sprintf("no checkpoint form for distinct keys of type %T", k))
	}
}

func loadKey[K comparable](d *checkpoint.Decoder) K {
	var k K
	switch p := any(&k).(type) {
	case *uint64:
		*p = d.Uint()
	case *decimal128.Num:
		*p = loadDecimal(d)
	case *string:
		*p = d.String()
	default:
		panic(fmt.Sprintf("no checkpoint form for distinct keys of type %T", k))
	}
	return k
}
