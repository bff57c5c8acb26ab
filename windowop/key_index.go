package windowop

import (
	"bytes"
	"hash/maphash"
)

// keyIndex numbers the encoded keys of several key columns (keyTable's
// byte strings) 0, 1, 2, ... in the order they are put. The keys' bytes
// sit one after another in one slice, and the table holds, per entry, the
// top half of the key's hash and its number: a lookup is mostly one entry
// and one compare of bytes, and lookups ahead can load their entries
// first (home), where a Go map's were up to three misses each, and the
// collector has no key strings to scan. Interning at 10M events, Nexmark
// q17's (auction, day): 1.1 to 0.8 CPU-s; q16's (channel, day): 1.7 to 1.5.
type keyIndex struct {
	table []uint64 // power-of-two length; hash>>32<<32 | id+1, 0 empty
	shift uint8    // 64 - log2(len(table))
	data  []byte   // the keys' bytes, by id
	ends  []int    // by id: its key's end in data
	seed  maphash.Seed
}

// hash is the hash of key b that home and getOrPut take.
func (x *keyIndex) hash(b []byte) uint64 {
	if x.table == nil {
		x.seed = maphash.MakeSeed()
		x.table, x.shift = make([]uint64, 16), 64-4
	}
	return maphash.Bytes(x.seed, b)
}

// home is the entry the probe for hash h starts at.
func (x *keyIndex) home(h uint64) *uint64 { return &x.table[h>>x.shift] }

// key is id's key, borrowed.
func (x *keyIndex) key(id uint32) []byte {
	start := 0
	if id > 0 {
		start = x.ends[id-1]
	}
	return x.data[start:x.ends[id]]
}

// len is the number of keys put.
func (x *keyIndex) len() int { return len(x.ends) }

// getOrPut returns the id of key b with hash h, and whether it was there;
// a new key gets the next id, its bytes copied.
func (x *keyIndex) getOrPut(b []byte, h uint64) (uint32, bool) {
	mask := uint64(len(x.table) - 1)
	tag := h >> 32 << 32
	for i := h >> x.shift; ; i = (i + 1) & mask {
		e := x.table[i]
		if e == 0 {
			id := uint32(len(x.ends))
			x.table[i] = tag | uint64(id+1)
			x.data = append(x.data, b...)
			x.ends = append(x.ends, len(x.data))
			if len(x.ends)*4 >= len(x.table)*3 {
				x.grow()
			}
			return id, false
		}
		if e&^0xFFFF_FFFF == tag {
			if id := uint32(e) - 1; bytes.Equal(x.key(id), b) {
				return id, true
			}
		}
	}
}

// grow doubles the table, rehashing the keys from their bytes.
func (x *keyIndex) grow() {
	x.table = make([]uint64, 2*len(x.table))
	x.shift--
	mask := uint64(len(x.table) - 1)
	for id := range uint32(len(x.ends)) {
		h := maphash.Bytes(x.seed, x.key(id))
		i := h >> x.shift
		for x.table[i] != 0 {
			i = (i + 1) & mask
		}
		x.table[i] = h>>32<<32 | uint64(id+1)
	}
}
