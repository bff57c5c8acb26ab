package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/rankop"
)

// nullKey is the key id of rows whose join key holds a NULL that matches
// nothing (not IS NOT DISTINCT FROM): they are kept, for outer padding,
// but never looked up.
const nullKey int32 = 0

// keyIndex numbers the join keys the interval and window joins hold rows
// of, by their encoded bytes (rankop.RowKeys, equal for equal values of
// the same types, so a left and a right key meet under one id). A key
// goes, and its id is reused, once no kept row (or window group) holds
// it, so the index follows the state rather than every key ever seen.
type keyIndex struct {
	ids  map[string]int32
	keys []string // by id
	refs []int32  // by id: what holds the key
	free []int32
}

func newKeyIndex() *keyIndex {
	return &keyIndex{ids: map[string]int32{}, keys: []string{""}, refs: []int32{0}}
}

// find is the id of key k, or -1 (a lookup that allocates nothing).
func (x *keyIndex) find(k []byte) int32 {
	if id, ok := x.ids[string(k)]; ok {
		return id
	}
	return -1
}

// add is the id of key k, numbering it when new.
func (x *keyIndex) add(k []byte) int32 {
	if id, ok := x.ids[string(k)]; ok {
		return id
	}
	s := string(k)
	var id int32
	if n := len(x.free); n > 0 {
		id = x.free[n-1]
		x.free = x.free[:n-1]
		x.keys[id], x.refs[id] = s, 0
	} else {
		id = int32(len(x.keys))
		x.keys, x.refs = append(x.keys, s), append(x.refs, 0)
	}
	x.ids[s] = id
	return id
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
	delete(x.ids, x.keys[id])
	x.keys[id] = ""
	x.free = append(x.free, id)
	return true
}

// keyColumns encodes one side's join key for each row of a batch, once
// per batch.
type keyColumns struct {
	cols     []int
	nullSafe []bool
	enc      rankop.RowKeys
	bytes    [][]byte // by row, reused
	null     []bool   // by row: the key matches nothing
}

func newKeyColumns(schema *arrow.Schema, cols []int, nullSafe []bool) (keyColumns, error) {
	for _, c := range cols {
		if err := rankop.CheckKeyType(schema.Field(c).Type); err != nil {
			return keyColumns{}, fmt.Errorf("join key %s: %w", schema.Field(c).Name, err)
		}
	}
	return keyColumns{cols: cols, nullSafe: nullSafe, enc: rankop.NewRowKeys(cols)}, nil
}

// encode fills bytes and null for the rows of rec.
func (k *keyColumns) encode(rec arrow.RecordBatch) {
	n := int(rec.NumRows())
	for len(k.bytes) < n {
		k.bytes = append(k.bytes, nil)
	}
	k.null = k.null[:0]
	for range n {
		k.null = append(k.null, false)
	}
	if len(k.cols) == 0 {
		for i := range k.bytes[:n] {
			k.bytes[i] = k.bytes[i][:0]
		}
		return
	}
	k.enc.Encode(rec, k.bytes)
	for i, c := range k.cols {
		col := rec.Column(c)
		if col.NullN() == 0 || k.nullSafe != nil && k.nullSafe[i] {
			continue
		}
		for r := range n {
			if col.IsNull(r) {
				k.null[r] = true
			}
		}
	}
}
