package rankop

// pairIndex numbers pairs of int64s 0, 1, 2, ... in the order they first
// come: a partition key of two integer columns (Nexmark q18's bidder and
// auction). The pairs sit by number in pages; the hash table holds only
// numbers, probed linearly from the pair's hash. A map[[2]int64]int32 of
// q18's 5M partitions took about 40 bytes a pair; this takes 16 for the
// pair and 4 to 8 for its slot, and no growth copies the pairs.
type pairIndex struct {
	pairs paged[[2]int64]
	slots []uint32 // pair number + 1; 0 is empty. len a power of two
	shift uint     // 64 - log2(len(slots))
}

// pairHash is the slot where the probe for (a, b) starts.
func (x *pairIndex) pairHash(a, b int64) uint64 {
	h := uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)
	h *= 0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	return (h * 0x9E3779B97F4A7C15) >> x.shift
}

// getOrAdd is the number of (a, b), next when it is new (then the pair
// takes it, and next must be x.len()).
func (x *pairIndex) getOrAdd(a, b int64, next int32) (int32, bool) {
	if (x.pairs.len()+1)*4 > len(x.slots)*3 {
		x.grow()
	}
	mask := uint64(len(x.slots) - 1)
	for i := x.pairHash(a, b); ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			x.slots[i] = uint32(next) + 1
			x.pairs.grow(int(next) + 1)
			*x.pairs.at(next) = [2]int64{a, b}
			return next, false
		}
		if p := x.pairs.at(int32(s - 1)); p[0] == a && p[1] == b {
			return int32(s - 1), true
		}
	}
}

func (x *pairIndex) len() int { return x.pairs.len() }

// grow doubles the table and puts every pair back.
func (x *pairIndex) grow() {
	size := 2 * len(x.slots)
	if size == 0 {
		size = 1 << 10
	}
	x.slots = make([]uint32, size)
	x.shift = 64
	for s := size; s > 1; s >>= 1 {
		x.shift--
	}
	mask := uint64(size - 1)
	for n := range int32(x.pairs.len()) {
		p := x.pairs.at(n)
		i := x.pairHash(p[0], p[1])
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = uint32(n) + 1
	}
}
