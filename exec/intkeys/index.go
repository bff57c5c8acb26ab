package intkeys

// Index maps int64 keys to uint32 numbers. Its zero value is an empty
// index ready to use. It is not safe for concurrent use.
//
// Entries are probed linearly from the key's hash (Fibonacci hashing of
// the key folded onto itself, so keys that differ only in their high bits
// spread too) in a table of a power-of-two size that doubles at 3/4 full;
// a deletion shifts the entries after it back, leaving no tombstones.
type Index struct {
	entries []entry // len is a power of two, or 0
	shift   uint    // 64 - log2(len(entries))
	n       int     // keys held
}

// entry is one slot of the table: a key and its number plus one (0: the
// slot is empty, so a zeroed table is an empty one).
type entry struct {
	key int64
	id1 uint32
}

// minEntries is the table's size once it holds a key.
const minEntries = 16

// New is an empty index with room for n keys before it grows.
func New(n int) *Index {
	x := &Index{}
	if n > 0 {
		x.resize(tableSize(n))
	}
	return x
}

// tableSize is the power of two that holds n keys at most 3/4 full.
func tableSize(n int) int {
	size := minEntries
	for size*3/4 < n {
		size *= 2
	}
	return size
}

// hash is the slot where key k's probe starts.
func (x *Index) hash(k int64) uint64 {
	h := uint64(k)
	h ^= h >> 32
	return (h * 0x9E3779B97F4A7C15) >> x.shift
}

// Len is the number of keys.
func (x *Index) Len() int { return x.n }

// Get is the number of k, if it has one.
func (x *Index) Get(k int64) (uint32, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.entries) - 1)
	for i := x.hash(k); ; i = (i + 1) & mask {
		e := &x.entries[i]
		if e.id1 == 0 {
			return 0, false
		}
		if e.key == k {
			return e.id1 - 1, true
		}
	}
}

// GetOrPut is the number of k and true if it has one; otherwise it numbers
// k id and returns id and false: one probe where Get then Put take two.
// id must be below math.MaxUint32.
func (x *Index) GetOrPut(k int64, id uint32) (uint32, bool) {
	e := x.slot(k)
	if e.id1 != 0 {
		return e.id1 - 1, true
	}
	e.key, e.id1 = k, id+1
	x.n++
	return id, false
}

// Put numbers k id, replacing its number if it had one. id must be below
// math.MaxUint32.
func (x *Index) Put(k int64, id uint32) {
	e := x.slot(k)
	if e.id1 == 0 {
		e.key = k
		x.n++
	}
	e.id1 = id + 1
}

// slot is k's entry, or the empty one k goes in, with room made for one
// more key first.
func (x *Index) slot(k int64) *entry {
	if (x.n+1)*4 > len(x.entries)*3 {
		x.grow()
	}
	mask := uint64(len(x.entries) - 1)
	for i := x.hash(k); ; i = (i + 1) & mask {
		if e := &x.entries[i]; e.id1 == 0 || e.key == k {
			return e
		}
	}
}

// Delete forgets k and reports whether it had a number.
func (x *Index) Delete(k int64) bool {
	if x.n == 0 {
		return false
	}
	mask := uint64(len(x.entries) - 1)
	i := x.hash(k)
	for {
		e := &x.entries[i]
		if e.id1 == 0 {
			return false
		}
		if e.key == k {
			break
		}
		i = (i + 1) & mask
	}
	// Shift back every later entry of the run whose probe started at or
	// before the hole, so that no probe meets an empty slot early.
	hole := i
	for j := (i + 1) & mask; ; j = (j + 1) & mask {
		e := x.entries[j]
		if e.id1 == 0 {
			break
		}
		if home := x.hash(e.key); (j-home)&mask >= (j-hole)&mask {
			x.entries[hole] = e
			hole = j
		}
	}
	x.entries[hole] = entry{}
	x.n--
	return true
}

// All calls f with every key and its number, in no particular order. f
// must not change the index.
func (x *Index) All(f func(k int64, id uint32)) {
	for _, e := range x.entries {
		if e.id1 != 0 {
			f(e.key, e.id1-1)
		}
	}
}

// Reset forgets every key, keeping the table's memory.
func (x *Index) Reset() {
	clear(x.entries)
	x.n = 0
}

// Bytes is the memory the table holds.
func (x *Index) Bytes() int { return len(x.entries) * 16 }

func (x *Index) grow() {
	if len(x.entries) == 0 {
		x.resize(minEntries)
		return
	}
	x.resize(2 * len(x.entries))
}

// resize moves the entries into a table of size slots (a power of two).
func (x *Index) resize(size int) {
	old := x.entries
	x.entries = make([]entry, size)
	x.shift = 64
	for s := size; s > 1; s >>= 1 {
		x.shift--
	}
	mask := uint64(size - 1)
	for _, e := range old {
		if e.id1 == 0 {
			continue
		}
		i := x.hash(e.key)
		for x.entries[i].id1 != 0 {
			i = (i + 1) & mask
		}
		x.entries[i] = e
	}
}
