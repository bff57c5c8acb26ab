package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/intkeys"
	"github.com/wsql/wsql/exec/rankop"
)

// nullKey is the interval join's key id of rows whose join key holds a
// NULL that matches nothing (not IS NOT DISTINCT FROM): they are kept,
// for outer padding, but never looked up.
const nullKey int32 = 0

// keyIndex numbers the join keys the interval and window joins hold rows
// of. A key of one integer column is looked up by its value in an
// intkeys.Index (through a Go map of a million prices, the lookups were a
// fifth of Nexmark q7's CPU), any other by its encoded bytes (rankop.RowKeys, equal for equal
// values of the same types, so a left and a right key meet under one id):
// the string of a new key and its hashing were a fifth of a window join's
// CPU. A key goes, and its id is reused, once no kept row (or window
// group) holds it, so the index follows the state rather than every key
// ever seen.
type keyIndex struct {
	ints    bool
	intIDs  *intkeys.Index
	nullVal int32 // ints: the id of the NULL value (IS NOT DISTINCT FROM), or -1
	ids     map[string]int32
	keys    []string // by id (bytes)
	vals    []int64  // by id (ints)
	refs    []int32  // by id: what holds the key
	free    []int32
}

func newKeyIndex(ints bool) *keyIndex {
	return &keyIndex{ints: ints, intIDs: intkeys.New(0), nullVal: -1, ids: map[string]int32{},
		keys: []string{""}, vals: []int64{0}, refs: []int32{0}}
}

// find is the id of row i's key, or -1 (a lookup that allocates nothing).
func (x *keyIndex) find(k *keyColumns, i int) int32 {
	if x.ints {
		if k.nullValue[i] {
			return x.nullVal
		}
		if id, ok := x.intIDs.Get(k.ints[i]); ok {
			return int32(id)
		}
		return -1
	}
	if id, ok := x.ids[string(k.bytes[i])]; ok {
		return id
	}
	return -1
}

// add is the id of row i's key, numbering it when new.
func (x *keyIndex) add(k *keyColumns, i int) int32 {
	if x.ints && !k.nullValue[i] {
		return x.addInt(k.ints[i])
	}
	if id := x.find(k, i); id >= 0 {
		return id
	}
	id := x.newID()
	switch {
	case !x.ints:
		x.keys[id] = string(k.bytes[i])
		x.ids[x.keys[id]] = id
	case k.nullValue[i]:
		x.nullVal = id
	default:
		x.vals[id] = k.ints[i]
		x.intIDs.Put(k.ints[i], uint32(id))
	}
	return id
}

// addInt is the id of the integer key v (not NULL), numbering it when
// new: one probe of the index where a find, then a put, took two.
func (x *keyIndex) addInt(v int64) int32 {
	if id, found := x.intIDs.GetOrPut(v, uint32(x.peekID())); found {
		return int32(id)
	}
	id := x.newID()
	x.vals[id] = v
	return id
}

// peekID is the id newID returns next.
func (x *keyIndex) peekID() int32 {
	if n := len(x.free); n > 0 {
		return x.free[n-1]
	}
	return int32(len(x.refs))
}

func (x *keyIndex) newID() int32 {
	if n := len(x.free); n > 0 {
		id := x.free[n-1]
		x.free = x.free[:n-1]
		x.refs[id] = 0
		return id
	}
	if !x.ints {
		// integer keys have no bytes: a slice of strings grown with them
		// was copied, pointers and all, half of a new key's cost (q7's
		// million prices)
		x.keys = append(x.keys, "")
	}
	x.vals, x.refs = append(x.vals, 0), append(x.refs, 0)
	return int32(len(x.refs) - 1)
}

func (x *keyIndex) ref(id int32) {
	if id != nullKey {
		x.refs[id]++
	}
}

// unref drops a hold on key id and reports whether the key went.
func (x *keyIndex) unref(id int32) bool {
	if id == nullKey {
		return false
	}
	if x.refs[id]--; x.refs[id] > 0 {
		return false
	}
	switch {
	case !x.ints:
		delete(x.ids, x.keys[id])
		x.keys[id] = ""
	case id == x.nullVal:
		x.nullVal = -1
	default:
		x.intIDs.Delete(x.vals[id])
	}
	x.free = append(x.free, id)
	return true
}

// save writes key id; load reads it back, numbering it.
func (x *keyIndex) save(e *checkpoint.Encoder, id int32) {
	switch {
	case !x.ints:
		e.String(x.keys[id])
	case id == x.nullVal:
		e.Bool(true)
	default:
		e.Bool(false)
		e.Int(x.vals[id])
	}
}

func (x *keyIndex) load(d *checkpoint.Decoder) int32 {
	var k keyColumns
	if x.ints {
		k.nullValue = []bool{d.Bool()}
		k.ints = []int64{0}
		if !k.nullValue[0] {
			k.ints[0] = d.Int()
		}
	} else {
		k.bytes = [][]byte{[]byte(d.String())}
	}
	return x.add(&k, 0)
}

// keyColumns reads one side's join key for each row of a batch, once per
// batch: the value of one integer column, or the encoded bytes of all.
type keyColumns struct {
	cols      []int
	nullSafe  []bool
	intKey    bool
	enc       rankop.RowKeys
	bytes     [][]byte // by row, reused
	ints      []int64  // by row
	nullValue []bool   // by row (ints): the value is NULL
	null      []bool   // by row: the key matches nothing
}

// intKeyType says whether a key column is read as its integer value.
func intKeyType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func newKeyColumns(schema *arrow.Schema, cols []int, nullSafe []bool) (keyColumns, error) {
	for _, c := range cols {
		if err := rankop.CheckKeyType(schema.Field(c).Type); err != nil {
			return keyColumns{}, fmt.Errorf("join key %s: %w", schema.Field(c).Name, err)
		}
	}
	k := keyColumns{cols: cols, nullSafe: nullSafe, enc: rankop.NewRowKeys(cols)}
	k.intKey = len(cols) == 1 && intKeyType(schema.Field(cols[0]).Type)
	return k, nil
}

// encode reads the keys of the rows of rec.
func (k *keyColumns) encode(rec arrow.RecordBatch) {
	n := int(rec.NumRows())
	k.null = resetBools(k.null, n)
	if k.intKey {
		k.nullValue = resetBools(k.nullValue, n)
		k.ints = k.ints[:0]
		switch a := rec.Column(k.cols[0]).(type) {
		case *array.Int64:
			k.ints = append(k.ints, a.Int64Values()...)
		case *array.Int32:
			for _, v := range a.Int32Values() {
				k.ints = append(k.ints, int64(v))
			}
		}
	} else {
		for len(k.bytes) < n {
			k.bytes = append(k.bytes, nil)
		}
		if len(k.cols) == 0 {
			for i := range k.bytes[:n] {
				k.bytes[i] = k.bytes[i][:0]
			}
		} else {
			k.enc.Encode(rec, k.bytes)
		}
	}
	for i, c := range k.cols {
		col := rec.Column(c)
		if col.NullN() == 0 {
			continue
		}
		safe := k.nullSafe != nil && k.nullSafe[i]
		for r := range n {
			if col.IsNull(r) {
				if k.intKey {
					k.nullValue[r] = true
				}
				if !safe {
					k.null[r] = true
				}
			}
		}
	}
}

func resetBools(b []bool, n int) []bool {
	b = b[:0]
	for range n {
		b = append(b, false)
	}
	return b
}
