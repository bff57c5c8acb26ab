package windowop

import (
	"github.com/apache/arrow-go/v18/arrow/array"
)

// stringDict numbers the distinct values of one STRING column of a key
// of several columns (NULL among them) 0, 1, 2, ... in order of first
// appearance, as its keys' first rows come. The keys then share their
// values' strings, and a column with few values under many keys (q16's
// day under each channel) is built from the dictionary, which the cache
// holds, rather than from a string per key (stringKeys.column).
type stringDict struct {
	index    map[string]uint32 // value (not NULL) → number
	vals     []string          // by number
	valid    []bool            // by number: false for NULL
	nullCode int64             // -1: NULL not seen yet
}

func newStringDict() *stringDict {
	return &stringDict{index: make(map[string]uint32), nullCode: -1}
}

// codeOf is the number of row i of a, given if it is new.
func (d *stringDict) codeOf(a *array.String, i int) uint32 {
	if a.IsNull(i) {
		if d.nullCode < 0 {
			d.nullCode = int64(d.add("", false))
		}
		return uint32(d.nullCode)
	}
	c, ok := d.index[a.Value(i)]
	if !ok {
		c = d.add(string([]byte(a.Value(i))), true) // copy: the batch is borrowed
		d.index[d.vals[c]] = c
	}
	return c
}

func (d *stringDict) add(v string, valid bool) uint32 {
	d.vals = append(d.vals, v)
	d.valid = append(d.valid, valid)
	return uint32(len(d.vals) - 1)
}

// storeCode records value number c of the column's dictionary as the
// value of a new key: the key shares the dictionary's string.
func (k *stringKeys) storeCode(c uint32) {
	k.vals = append(k.vals, k.dict.vals[c])
	k.valid = append(k.valid, k.dict.valid[c])
	k.codes = append(k.codes, c)
}
