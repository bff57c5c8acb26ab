package windowop

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/intkeys"
	"github.com/wsql/wsql/exec/strkeys"
)

// keyTable interns group keys: each distinct combination of key-column
// values gets a dense id (0, 1, 2, ...) in order of its first row, and the
// table keeps the values so results can print them.
//
// Keys are hashed once per batch: each key column appends its encoding of
// every row to that row's buffer (a column at a time), then one keyIndex
// lookup per row finds or creates the id.
type keyTable struct {
	cols   []keyColumn
	index  keyIndex
	bufs   [][]byte
	hashes []uint64 // by row: its buffer's hash
	n      uint32
	// touched sums intern's loads ahead, kept so they are not dropped
	// (per table: a global would race between partitions' goroutines)
	touched uint64

	// one string key column: keyed by its value
	strIndex *strkeys.Index
	nullID   int64 // -1: NULL not seen yet

	// one INT or BIGINT key column: small non-negative values index a
	// dense table (id+1, 0 for unseen), others an intkeys.Index. Interning
	// was a fifth of an in-memory TUMBLE's time through the encoded-bytes
	// map; the index takes half the time of a map[int64]uint32 (Nexmark
	// q12's 200,000 bidders) and gives the collector nothing to scan.
	intDense []uint32
	intIndex *intkeys.Index
}

// The dense table of integer keys starts at intDenseSize values (256 KiB)
// and doubles to take a larger key while that leaves at most
// intDensePerKey values per key numbered (32 bytes a key, against about 21
// in the index), up to intDenseMax values. Ids as dense as Nexmark's
// 600,000 auctions are then numbered without hashing: the index's probes
// missed the cache, a sixth of q5's window.
const (
	intDenseSize   = 1 << 16
	intDensePerKey = 8
	intDenseMax    = 1 << 24
)

// keyColumn stores one key column's values by key id.
type keyColumn interface {
	// encode appends row i's encoding to bufs[i] for every row of arr.
	encode(arr arrow.Array, bufs [][]byte)
	// store records row i of arr as the value of a new key.
	store(arr arrow.Array, i int)
	// appendTo appends the values of the given keys to b.
	appendTo(ids []uint32, b array.Builder)
	dataType() arrow.DataType
}

func newKeyTable(types []arrow.DataType) (*keyTable, error) {
	t := &keyTable{}
	for _, dt := range types {
		c, err := newKeyColumn(dt)
		if err != nil {
			return nil, err
		}
		if sk, ok := c.(*stringKeys); ok && !sk.bytes && len(types) > 1 {
			sk.dict = newStringDict()
		}
		t.cols = append(t.cols, c)
	}
	return t, nil
}

// intern writes the key id of every row of the key columns into ids.
// A table without key columns (a global window) maps every row to key 0.
func (t *keyTable) intern(keyCols []arrow.Array, rows int, ids []uint32) {
	if len(t.cols) == 0 {
		if t.n == 0 {
			t.n = 1
		}
		clear(ids[:rows])
		return
	}
	if len(t.cols) == 1 {
		if sk, ok := t.cols[0].(*stringKeys); ok && !sk.bytes {
			t.internStrings(sk, keyCols[0].(*array.String), rows, ids)
			return
		}
		switch a := keyCols[0].(type) {
		case *array.Int64:
			internInts(t, a, a.Int64Values(), rows, ids)
			return
		case *array.Int32:
			internInts(t, a, a.Int32Values(), rows, ids)
			return
		}
	}
	if cap(t.bufs) < rows {
		t.bufs = make([][]byte, rows)
	}
	bufs := t.bufs[:rows]
	for i := range bufs {
		bufs[i] = bufs[i][:0]
	}
	for c, col := range t.cols {
		col.encode(keyCols[c], bufs)
	}
	t.hashes = grow(t.hashes, rows)
	hashes := t.hashes[:rows]
	for i, b := range bufs {
		hashes[i] = t.index.hash(b)
	}
	// a chunk's table entries are loaded before its rows look them up:
	// the loads do not wait on each other, so their misses overlap
	for from := 0; from < rows; from += probeAhead {
		to := min(from+probeAhead, rows)
		var sum uint64
		for _, h := range hashes[from:to] {
			sum += *t.index.home(h)
		}
		t.touched += sum
		for i := from; i < to; i++ {
			id, found := t.index.getOrPut(bufs[i], hashes[i])
			if !found {
				t.n++
				for c, col := range t.cols {
					col.store(keyCols[c], i)
				}
			}
			ids[i] = id
		}
	}
}

// internInts is intern for one integer column; ids are given in order of
// first appearance, as intern does.
func internInts[T int32 | int64](t *keyTable, a arrow.Array, vals []T, rows int, ids []uint32) {
	if t.intIndex == nil {
		t.intIndex = intkeys.New(0)
		t.intDense = make([]uint32, intDenseSize)
		t.nullID = -1
	}
	nulls := a.NullN() > 0
	for i := 0; i < rows; i++ {
		if nulls && a.IsNull(i) {
			ids[i] = t.nullKeyID(a, i)
			continue
		}
		v := int64(vals[i])
		if uint64(v) >= uint64(len(t.intDense)) {
			t.widenDense(v)
		}
		if uint64(v) < uint64(len(t.intDense)) {
			id := t.intDense[v]
			if id == 0 {
				// new, or numbered in the index before the table took it
				if old, ok := t.intIndex.Get(v); ok {
					id = old + 1
				} else {
					id = t.newIntKey(a, i) + 1
				}
				t.intDense[v] = id
			}
			ids[i] = id - 1
			continue
		}
		id, found := t.intIndex.GetOrPut(v, t.n)
		if !found {
			t.newIntKey(a, i)
		}
		ids[i] = id
	}
}

// widenDense doubles the dense table to take key v, if v is non-negative
// and the table stays within its bounds.
func (t *keyTable) widenDense(v int64) {
	if v < 0 || v >= intDenseMax {
		return
	}
	size := 1 << bits.Len64(uint64(v))
	if size > intDensePerKey*int(t.n+1) {
		return
	}
	t.intDense = append(t.intDense, make([]uint32, size-len(t.intDense))...)
}

// newIntKey numbers row i of a, whose key is new, and returns its id.
func (t *keyTable) newIntKey(a arrow.Array, i int) uint32 {
	id := t.n
	t.n++
	t.cols[0].store(a, i)
	return id
}

// nullKeyID is the id of the NULL key of a one-column table, given on its
// first row (row i of a).
func (t *keyTable) nullKeyID(a arrow.Array, i int) uint32 {
	if t.nullID < 0 {
		t.nullID = int64(t.n)
		t.n++
		t.cols[0].store(a, i)
	}
	return uint32(t.nullID)
}

// internStrings is intern for one string column, by value in a
// strkeys.Index (a value of at most 8 bytes found as one word, no hashing
// of its bytes nor comparing of strings: the map of strings was 13% of a
// CSV TUMBLE's CPU on its one window goroutine). NULL has an id of its
// own. Ids are given in order of first appearance, as intern does.
func (t *keyTable) internStrings(sk *stringKeys, a *array.String, rows int, ids []uint32) {
	if t.strIndex == nil {
		t.strIndex = strkeys.New()
		t.nullID = -1
	}
	nulls := a.NullN() > 0
	c := strkeys.Of(a)
	for i := 0; i < rows; i++ {
		if nulls && a.IsNull(i) {
			ids[i] = t.nullKeyID(a, i)
			continue
		}
		id, ok := t.strIndex.Find(c, i)
		if !ok {
			id = int32(t.n)
			t.n++
			sk.store(a, i) // a copy: the value points into the batch
			t.strIndex.Add(sk.vals[id], id)
		}
		ids[i] = uint32(id)
	}
}

func newKeyColumn(dt arrow.DataType) (keyColumn, error) {
	switch dt.ID() {
	case arrow.STRING:
		return &stringKeys{}, nil
	case arrow.BINARY:
		return &stringKeys{bytes: true}, nil
	case arrow.BOOL:
		return &boolKeys{}, nil
	case arrow.INT8:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int8).Value(i)) }), nil
	case arrow.INT16:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int16).Value(i)) }), nil
	case arrow.INT32:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Int32).Value(i)) }), nil
	case arrow.INT64:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return a.(*array.Int64).Value(i) }), nil
	case arrow.DATE32:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Date32).Value(i)) }), nil
	case arrow.TIMESTAMP:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Timestamp).Value(i)) }), nil
	case arrow.TIME32:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Time32).Value(i)) }), nil
	case arrow.DURATION: // a day-time interval
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.Duration).Value(i)) }), nil
	case arrow.INTERVAL_MONTHS: // a year-month interval
		return newIntKeys(dt, func(a arrow.Array, i int) int64 { return int64(a.(*array.MonthInterval).Value(i)) }), nil
	case arrow.FLOAT32:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 {
			return int64(math.Float32bits(a.(*array.Float32).Value(i)))
		}), nil
	case arrow.FLOAT64:
		return newIntKeys(dt, func(a arrow.Array, i int) int64 {
			return int64(math.Float64bits(a.(*array.Float64).Value(i)))
		}), nil
	case arrow.DECIMAL128:
		return &decimalKeys{dt: dt}, nil
	}
	return nil, fmt.Errorf("grouping by a column of type %s is not supported yet", dt)
}

// stringKeys keys on a utf8 column.
type stringKeys struct {
	vals  []string
	valid []bool
	bytes bool // a BYTES column, its values held as strings

	// a column of a key of several columns: its values numbered, and by
	// key id the number of its value
	dict         *stringDict
	codes        []uint32
	scratchCodes []uint32 // column's codes, reused

	scratch      []string // appendTo's values, reused
	scratchValid []bool
}

func (k *stringKeys) encode(arr arrow.Array, bufs [][]byte) {
	if k.bytes {
		encodeBytesKeys(arr.(*array.Binary), bufs)
		return
	}
	a := arr.(*array.String)
	nulls := a.NullN() > 0
	for i := range bufs {
		if nulls && a.IsNull(i) {
			bufs[i] = append(bufs[i], 0)
			continue
		}
		v := a.Value(i)
		if len(v) < 0x80 { // the length's uvarint is one byte, appended as one (q16's keys: 0.3 to 0.2 CPU-s)
			bufs[i] = append(append(bufs[i], 1, byte(len(v))), v...)
			continue
		}
		bufs[i] = append(bufs[i], 1)
		bufs[i] = binary.AppendUvarint(bufs[i], uint64(len(v)))
		bufs[i] = append(bufs[i], v...)
	}
}

func (k *stringKeys) store(arr arrow.Array, i int) {
	if k.bytes {
		k.valid = append(k.valid, arr.IsValid(i))
		k.vals = append(k.vals, string(arr.(*array.Binary).Value(i)))
		return
	}
	a := arr.(*array.String)
	if k.dict != nil {
		k.storeCode(k.dict.codeOf(a, i))
		return
	}
	k.valid = append(k.valid, a.IsValid(i))
	k.vals = append(k.vals, string([]byte(a.Value(i)))) // copy: the batch is borrowed
}

func (k *stringKeys) appendTo(ids []uint32, b array.Builder) {
	if k.bytes {
		appendBytesKeys(k, ids, b.(*array.BinaryBuilder))
		return
	}
	// gathered first, then appended in one call that reserves once and
	// appends unchecked: a key per result row is most of a group
	// aggregate's output
	k.scratch, k.scratchValid = k.scratch[:0], k.scratchValid[:0]
	for _, id := range ids {
		k.scratch = append(k.scratch, k.vals[id])
		k.scratchValid = append(k.scratchValid, k.valid[id])
	}
	b.(*array.StringBuilder).AppendValues(k.scratch, k.scratchValid)
	clear(k.scratch) // hold no key strings beyond the call
}

func (k *stringKeys) dataType() arrow.DataType {
	if k.bytes {
		return arrow.BinaryTypes.Binary
	}
	return arrow.BinaryTypes.String
}

// boolKeys keys on a boolean column.
type boolKeys struct {
	vals  []bool
	valid []bool
}

func (k *boolKeys) encode(arr arrow.Array, bufs [][]byte) {
	a := arr.(*array.Boolean)
	for i := range bufs {
		switch {
		case a.IsNull(i):
			bufs[i] = append(bufs[i], 0)
		case a.Value(i):
			bufs[i] = append(bufs[i], 2)
		default:
			bufs[i] = append(bufs[i], 1)
		}
	}
}

func (k *boolKeys) store(arr arrow.Array, i int) {
	a := arr.(*array.Boolean)
	k.valid = append(k.valid, a.IsValid(i))
	k.vals = append(k.vals, a.IsValid(i) && a.Value(i))
}

func (k *boolKeys) appendTo(ids []uint32, b array.Builder) {
	bb := b.(*array.BooleanBuilder)
	for _, id := range ids {
		if k.valid[id] {
			bb.Append(k.vals[id])
		} else {
			bb.AppendNull()
		}
	}
}

func (*boolKeys) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }

// intKeys keys on any fixed-width column whose values fit 64 bits; floats
// are keyed by their bit pattern.
type intKeys struct {
	dt    arrow.DataType
	get   func(arrow.Array, int) int64
	vals  []int64
	valid []bool
}

func newIntKeys(dt arrow.DataType, get func(arrow.Array, int) int64) *intKeys {
	return &intKeys{dt: dt, get: get}
}

func (k *intKeys) encode(arr arrow.Array, bufs [][]byte) {
	for i := range bufs {
		if arr.IsNull(i) {
			bufs[i] = append(bufs[i], 0)
			continue
		}
		bufs[i] = append(bufs[i], 1)
		bufs[i] = binary.LittleEndian.AppendUint64(bufs[i], uint64(k.get(arr, i)))
	}
}

func (k *intKeys) store(arr arrow.Array, i int) {
	k.valid = push(k.valid, arr.IsValid(i))
	var v int64
	if arr.IsValid(i) {
		v = k.get(arr, i)
	}
	k.vals = push(k.vals, v)
}

func (k *intKeys) appendTo(ids []uint32, b array.Builder) {
	if appendIntsAt(b, ids, k.valid, k.vals) {
		return
	}
	for _, id := range ids {
		if !k.valid[id] {
			b.AppendNull()
			continue
		}
		v := k.vals[id]
		switch bb := b.(type) {
		case *array.Int8Builder:
			bb.Append(int8(v))
		case *array.Int16Builder:
			bb.Append(int16(v))
		case *array.Int32Builder:
			bb.Append(int32(v))
		case *array.Int64Builder:
			bb.Append(v)
		case *array.Date32Builder:
			bb.Append(arrow.Date32(v))
		case *array.TimestampBuilder:
			bb.Append(arrow.Timestamp(v))
		case *array.Time32Builder:
			bb.Append(arrow.Time32(v))
		case *array.DurationBuilder:
			bb.Append(arrow.Duration(v))
		case *array.MonthIntervalBuilder:
			bb.Append(arrow.MonthInterval(v))
		case *array.Float32Builder:
			bb.Append(math.Float32frombits(uint32(v)))
		case *array.Float64Builder:
			bb.Append(math.Float64frombits(uint64(v)))
		}
	}
}

func (k *intKeys) dataType() arrow.DataType { return k.dt }

// decimalKeys keys on a DECIMAL column by its 128-bit unscaled value (one
// scale per column, so equal values have equal bits).
type decimalKeys struct {
	dt    arrow.DataType
	vals  []decimal128.Num
	valid []bool
}

func (k *decimalKeys) encode(arr arrow.Array, bufs [][]byte) {
	a := arr.(*array.Decimal128)
	for i := range bufs {
		if a.IsNull(i) {
			bufs[i] = append(bufs[i], 0)
			continue
		}
		v := a.Value(i)
		bufs[i] = append(bufs[i], 1)
		bufs[i] = binary.LittleEndian.AppendUint64(bufs[i], v.LowBits())
		bufs[i] = binary.LittleEndian.AppendUint64(bufs[i], uint64(v.HighBits()))
	}
}

func (k *decimalKeys) store(arr arrow.Array, i int) {
	a := arr.(*array.Decimal128)
	k.valid = append(k.valid, a.IsValid(i))
	var v decimal128.Num
	if a.IsValid(i) {
		v = a.Value(i)
	}
	k.vals = append(k.vals, v)
}

func (k *decimalKeys) appendTo(ids []uint32, b array.Builder) {
	db := b.(*array.Decimal128Builder)
	for _, id := range ids {
		if k.valid[id] {
			db.Append(k.vals[id])
		} else {
			db.AppendNull()
		}
	}
}

func (k *decimalKeys) dataType() arrow.DataType { return k.dt }
