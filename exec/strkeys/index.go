package strkeys

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/intkeys"
)

// Index maps STRING values to numbers. A map of words looks up in half the
// time of a map of strings (the lookup of 8-byte keys went from 24% to 14%
// of a deduplication's profile), so values of up to 8 bytes are kept in a
// index of words of their length as well as in the map of strings. The
// words are in intkeys' table rather than a Go map: a window operator's
// string keys numbered 7% faster (BenchmarkWindowOperatorTumble).
type Index struct {
	all   map[string]int32
	short [9]*intkeys.Index
}

// New is an empty index.
func New() *Index {
	x := &Index{all: map[string]int32{}}
	for n := range x.short {
		x.short[n] = intkeys.New(0)
	}
	return x
}

// Column is a STRING column as Find reads it: its offsets rebased to its
// data, since a sliced column's ValueBytes start at the slice's first
// value and its offsets do not.
type Column struct {
	a    *array.String
	offs []int32
	data []byte
	base int32
}

// Of reads a for Find.
func Of(a *array.String) Column {
	offs := a.ValueOffsets()
	return Column{a: a, offs: offs, data: a.ValueBytes(), base: offs[0]}
}

// Find is the number of row i's value (the row not NULL), if it has one.
func (x *Index) Find(c Column, i int) (int32, bool) {
	from, to := int(c.offs[i]-c.base), int(c.offs[i+1]-c.base)
	if n := to - from; n <= 8 && from+8 <= len(c.data) {
		id, ok := x.short[n].Get(int64(binary.LittleEndian.Uint64(c.data[from:]) & shortMask[n]))
		return int32(id), ok
	}
	id, ok := x.all[c.a.Value(i)]
	return id, ok
}

// Get is the number of v, if it has one.
func (x *Index) Get(v string) (int32, bool) {
	id, ok := x.all[v]
	return id, ok
}

// Add numbers v (id not negative), which the index keeps: the caller
// passes a string it owns (strings.Clone of one read from a batch).
func (x *Index) Add(v string, id int32) {
	x.all[v] = id
	if len(v) <= 8 {
		x.short[len(v)].Put(word(v), uint32(id))
	}
}

// Delete forgets v.
func (x *Index) Delete(v string) {
	delete(x.all, v)
	if len(v) <= 8 {
		x.short[len(v)].Delete(word(v))
	}
}

// All calls f with every value and its number, in no order.
func (x *Index) All(f func(v string, id int32)) {
	for v, id := range x.all {
		f(v, id)
	}
}

// shortMask keeps the first n bytes of a little-endian word.
var shortMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, ^uint64(0)}

// word is a value of up to 8 bytes as a little-endian word.
func word(v string) int64 {
	var w [8]byte
	copy(w[:], v)
	return int64(binary.LittleEndian.Uint64(w[:]))
}
