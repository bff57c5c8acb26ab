package lookup

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/intkeys"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/strkeys"
)

// keyKind is how a cache numbers its keys.
type keyKind uint8

const (
	keyInt    keyKind = iota // one TINYINT, SMALLINT, INT or BIGINT column
	keyString                // one STRING column
	keyBytes                 // anything else: the key's bytes (rankop.RowKeys)
)

// keyIndex numbers the keys a cache holds by their entries. The columns a
// method reads are a probe batch's key columns or the table's, of the
// same types.
type keyIndex struct {
	kind      keyKind
	tableCols []int
	ints      intkeys.Index
	strs      *strkeys.Index
	bytes     map[string]int32
	n         int
	// the keys a bytes index encoded last, by row
	scratch [][]byte
}

func newKeyIndex(table *arrow.Schema, cols []int) (keyIndex, error) {
	k := keyIndex{tableCols: cols, kind: keyBytes}
	if len(cols) == 0 {
		return k, fmt.Errorf("lookup cache: no key column")
	}
	for _, c := range cols {
		if c < 0 || c >= table.NumFields() {
			return k, fmt.Errorf("lookup cache: key column %d is out of range", c)
		}
		if err := rankop.CheckKeyType(table.Field(c).Type); err != nil {
			return k, fmt.Errorf("lookup cache: key column %s: %w", table.Field(c).Name, err)
		}
	}
	if len(cols) == 1 {
		switch table.Field(cols[0]).Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
			k.kind = keyInt
		case arrow.STRING:
			k.kind, k.strs = keyString, strkeys.New()
		}
	}
	if k.kind == keyBytes {
		k.bytes = map[string]int32{}
	}
	return k, nil
}

func (k *keyIndex) len() int { return k.n }

// find writes, for each row of rec, the entry of its key (columns cols):
// -1 for a key with a NULL, -2 for a key not held.
func (k *keyIndex) find(rec arrow.RecordBatch, cols []int, out []int32) []int32 {
	n := int(rec.NumRows())
	out = out[:0]
	switch k.kind {
	case keyInt:
		col := rec.Column(cols[0])
		if a, ok := col.(*array.Int64); ok && a.NullN() == 0 {
			for _, v := range a.Int64Values() {
				if e, ok := k.ints.Get(v); ok {
					out = append(out, int32(e))
				} else {
					out = append(out, -2)
				}
			}
			return out
		}
		for i := range n {
			if col.IsNull(i) {
				out = append(out, -1)
			} else if e, ok := k.ints.Get(intAt(col, i)); ok {
				out = append(out, int32(e))
			} else {
				out = append(out, -2)
			}
		}
	case keyString:
		a := rec.Column(cols[0]).(*array.String)
		sc := strkeys.Of(a)
		for i := range n {
			if a.IsNull(i) {
				out = append(out, -1)
			} else if e, ok := k.strs.Find(sc, i); ok {
				out = append(out, e)
			} else {
				out = append(out, -2)
			}
		}
	default:
		for len(k.scratch) < n {
			k.scratch = append(k.scratch, nil)
		}
		rankop.NewRowKeys(cols).Encode(rec, k.scratch)
		for i := range n {
			if e, ok := k.bytes[string(k.scratch[i])]; ok {
				out = append(out, e)
			} else {
				out = append(out, -2)
			}
		}
		for _, c := range cols {
			col := rec.Column(c)
			if col.NullN() == 0 {
				continue
			}
			for i := range n {
				if col.IsNull(i) {
					out[i] = -1
				}
			}
		}
	}
	return out
}

// intAt is row i of an integer column as an int64.
func intAt(col arrow.Array, i int) int64 {
	switch a := col.(type) {
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int8:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("lookup cache: %s is not an integer column", col.DataType()))
}

// put numbers row i's key (of the batch find read last) e, and keeps the
// key in c for delete.
func (k *keyIndex) put(rec arrow.RecordBatch, cols []int, i int, c *Cache, e int32) {
	k.n++
	switch k.kind {
	case keyInt:
		c.entries[e].ikey = intAt(rec.Column(cols[0]), i)
		k.ints.Put(c.entries[e].ikey, uint32(e))
	case keyString:
		c.skeys[e] = strings.Clone(rec.Column(cols[0]).(*array.String).Value(i))
		k.strs.Add(c.skeys[e], e)
	default:
		c.skeys[e] = string(k.scratch[i])
		k.bytes[c.skeys[e]] = e
	}
}

// delete forgets the key of entry e.
func (k *keyIndex) delete(c *Cache, e int32) {
	k.n--
	switch k.kind {
	case keyInt:
		k.ints.Delete(c.entries[e].ikey)
	case keyString:
		k.strs.Delete(c.skeys[e])
	default:
		delete(k.bytes, c.skeys[e])
	}
}

// get is the entry of row i's key (of the batch find read last), -2 when
// it has none: a key an earlier row of the batch added.
func (k *keyIndex) get(rec arrow.RecordBatch, cols []int, i int) int32 {
	switch k.kind {
	case keyInt:
		if e, ok := k.ints.Get(intAt(rec.Column(cols[0]), i)); ok {
			return int32(e)
		}
	case keyString:
		if e, ok := k.strs.Get(rec.Column(cols[0]).(*array.String).Value(i)); ok {
			return e
		}
	default:
		if e, ok := k.bytes[string(k.scratch[i])]; ok {
			return e
		}
	}
	return -2
}
