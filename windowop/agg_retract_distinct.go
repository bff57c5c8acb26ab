package windowop

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// retractDistinct is an aggregate over DISTINCT values with retraction,
// as Flink's distinct MapView of counts: each slot counts the rows of
// each value, and the inner aggregate gets a row only when its value comes
// (its count leaves 0) or goes (its count returns to 0). So SUM(DISTINCT
// x) takes a value out once its last row is gone, and LISTAGG(DISTINCT
// x) appends a value that comes back at the end, as Flink does.
type retractDistinct[K comparable] struct {
	inner retracter
	dt    arrow.DataType
	key   func(col arrow.Array, i int) K                // the key of row i (not NULL); may borrow the batch's memory
	own   func(K) K                                     // a key that owns its memory; nil: keys always do
	valid func(col arrow.Array, i int) bool             // row i has a value; nil: col.IsValid
	build func(dt arrow.DataType, keys []K) arrow.Array // an input column of keys, for merge
	// nullIsValue: NULL is one more value (ARRAY_AGG(DISTINCT x) keeps
	// it), counted in nulls
	nullIsValue bool

	counts valueCounts[K]
	nulls  []int64
	pass   []int32 // scratch: the row's slot if it reaches the inner aggregate, else -1
}

// newRetractDistinct wraps inner, a retracting aggregate over values of
// type in, to see each value once.
func newRetractDistinct(inner retracter, in arrow.DataType, nullIsValue bool) (retracter, error) {
	switch in.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL, arrow.DATE32, arrow.TIME32,
		arrow.TIME64, arrow.TIMESTAMP, arrow.FLOAT32, arrow.FLOAT64:
		return &retractDistinct[uint64]{inner: inner, dt: in, key: fixedKey, build: buildFixed, nullIsValue: nullIsValue}, nil
	case arrow.DECIMAL128:
		return &retractDistinct[decimal128.Num]{inner: inner, dt: in, key: decimalKey, build: buildDecimals, nullIsValue: nullIsValue}, nil
	case arrow.STRING:
		return &retractDistinct[string]{inner: inner, dt: in, key: stringKey, own: strings.Clone, build: buildStrings, nullIsValue: nullIsValue}, nil
	case arrow.BINARY:
		return &retractDistinct[string]{inner: inner, dt: in, key: bytesKey, own: strings.Clone, build: buildBinaries, nullIsValue: nullIsValue}, nil
	case arrow.STRUCT:
		rk, err := newRowKeyer(in.(*arrow.StructType))
		if err != nil {
			return nil, err
		}
		if _, ok := inner.(*retractCount); !ok {
			return nil, fmt.Errorf("DISTINCT over several arguments is only supported for COUNT")
		}
		return &retractDistinct[string]{inner: inner, dt: in, key: rk.key, own: strings.Clone, valid: rowValid, build: buildStrings}, nil
	}
	return nil, fmt.Errorf("distinct values of type %s are not supported", in)
}

func (a *retractDistinct[K]) resize(n int) {
	a.inner.resize(n)
	a.counts.resize(n)
	a.nulls = extendTo(a.nulls, n)
}

func (a *retractDistinct[K]) reset(s int32) {
	a.inner.reset(s)
	a.counts.reset(s)
	a.nulls[s] = 0
}

func (a *retractDistinct[K]) isValid(col arrow.Array, i int) bool {
	if a.valid != nil {
		return a.valid(col, i)
	}
	return col.IsValid(i)
}

// count adds delta (+1 or -1) to the rows of row i's value in slot s and
// reports whether the value came or went.
func (a *retractDistinct[K]) count(col arrow.Array, s int32, i int, delta int64) bool {
	if !a.isValid(col, i) {
		if !a.nullIsValue || delta < 0 && a.nulls[s] == 0 {
			return false
		}
		a.nulls[s] += delta
		return a.nulls[s] == max(delta, 0)
	}
	before, _ := a.counts.add(s, a.key(col, i), delta, a.own)
	// a value comes with its first row and goes with its last; taking out
	// a value the slot does not hold changes nothing
	return delta > 0 && before == 0 || delta < 0 && before == 1
}

func (a *retractDistinct[K]) passed(col arrow.Array, slots []int32, from, to int, delta int64) []int32 {
	a.pass = grow(a.pass, to)
	for i := from; i < to; i++ {
		a.pass[i] = -1
		if s := slots[i]; s >= 0 && a.count(col, s, i, delta) {
			a.pass[i] = s
		}
	}
	return a.pass
}

func (a *retractDistinct[K]) update(col arrow.Array, slots []int32, from, to int) {
	a.inner.update(col, a.passed(col, slots, from, to, 1), from, to)
}

func (a *retractDistinct[K]) retract(col arrow.Array, slots []int32, from, to int) {
	a.inner.retract(col, a.passed(col, slots, from, to, -1), from, to)
}

// merge adds src's counts to dst's and folds the values new to dst into
// its inner aggregate.
func (a *retractDistinct[K]) merge(dst, src int32) {
	fresh := a.counts.mergeInto(dst, src, nil)
	newNull := a.nulls[dst] == 0 && a.nulls[src] > 0
	a.nulls[dst] += a.nulls[src]
	if len(fresh) > 0 {
		col := a.build(a.dt, fresh)
		a.inner.update(col, filled(len(fresh), dst), 0, len(fresh))
		col.Release()
	}
	if newNull {
		b := array.NewBuilder(memory.DefaultAllocator, a.dt)
		b.AppendNull()
		col := b.NewArray()
		b.Release()
		a.inner.update(col, []int32{dst}, 0, 1)
		col.Release()
	}
}

// buildBinaries is a BYTES column of keys.
func buildBinaries(_ arrow.DataType, keys []string) arrow.Array {
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	for _, k := range keys {
		b.Append(bytesOf(k))
	}
	return b.NewArray()
}

func filled(n int, s int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func (a *retractDistinct[K]) copyTo(dst, src int32) {
	a.inner.copyTo(dst, src)
	a.counts.reset(dst)
	a.counts.mergeInto(dst, src, nil)
	a.nulls[dst] = a.nulls[src]
}

// copyResult copies the inner result only: the counts decide nothing a
// shadow slot shows.
func (a *retractDistinct[K]) copyResult(dst, src int32) { copyResult(a.inner, dst, src) }

func (a *retractDistinct[K]) appendResults(slots []int32, b array.Builder) {
	a.inner.appendResults(slots, b)
}
func (a *retractDistinct[K]) sameResult(x, y int32) bool { return a.inner.sameResult(x, y) }
func (a *retractDistinct[K]) resultType() arrow.DataType { return a.inner.resultType() }

// failed is the inner aggregate's error, if it can fail.
func (a *retractDistinct[K]) failed() error {
	if f, ok := a.inner.(failer); ok {
		return f.failed()
	}
	return nil
}

// save writes the inner state, then each slot's NULL rows and values with
// their counts, each value and count as one entry, in the order of their
// bytes: the same state saves the same bytes.
func (a *retractDistinct[K]) save(e *checkpoint.Encoder, n int) {
	a.inner.save(e, n)
	e.Uint(uint64(n))
	var entries [][]byte
	for s := range n {
		e.Int(a.nulls[s])
		entries = entries[:0]
		for k, c := range a.counts.all(int32(s)) {
			var x checkpoint.Encoder
			saveKey(&x, k)
			x.Int(c)
			entries = append(entries, x.Data())
		}
		slices.SortFunc(entries, bytes.Compare)
		e.Uint(uint64(len(entries)))
		for _, x := range entries {
			e.Bytes(x)
		}
	}
}

func (a *retractDistinct[K]) load(d *checkpoint.Decoder, n int) {
	a.inner.load(d, n)
	a.counts = valueCounts[K]{sets: make([]map[K]int32, d.Len(2))}
	a.nulls = make([]int64, len(a.counts.sets))
	for s := range int32(len(a.nulls)) {
		a.nulls[s] = d.Int()
		for range d.Len(1) {
			x := checkpoint.NewDecoder(d.Bytes())
			k, c := loadKey[K](x), x.Int()
			if x.Err() != nil {
				d.Fail("DISTINCT value: %v", x.Err())
				return
			}
			if c <= 0 || a.nulls[s] < 0 {
				d.Fail("DISTINCT value count %d is not positive", c)
				return
			}
			a.counts.add(s, k, c, nil)
		}
	}
	fit(d, a.counts.sets, n)
	a.nulls = fit(d, a.nulls, n)
}
