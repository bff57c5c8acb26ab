package windowop

import (
	"math/bits"
	"unsafe"
)

// valueSet is one slot's distinct values for the COUNT(DISTINCT)
// aggregates sharing it, each value with the members' marks (a bit per
// member, up to valueMarkBits). It is an open-addressing table of 64-byte
// buckets, probed bucket after bucket from the value's Fibonacci hash: a
// bucket holds its values and their marks in one cache line, filled in
// order, so a probe usually costs one miss and needs no empty sentinel
// (any value, 0 included, is a value). Nexmark q16's busy slots hold
// hundreds of thousands of values, each lookup a miss: the 16-byte
// (value, mark) entries of the table it replaces took twice the memory.
//
// It keeps no arrival order: a count does not depend on it, and a save
// writes the values sorted, so a restored set saves the same bytes.
type valueSet struct {
	buckets []valueBucket // power-of-two length
	n       int32         // values held
	shift   uint8         // 64 - log2(len(buckets))
}

// valueMarkBits is how many members one set marks.
const valueMarkBits = 8

// bucketValues is a bucket's capacity: 7 values of 8 bytes, their 7
// marks and the count fill 64 bytes.
const bucketValues = 7

type valueBucket struct {
	vals  [bucketValues]uint64
	marks [bucketValues]uint8 // never 0 for a held value
	used  uint8               // vals[:used] are held
}

// The layout the set relies on: one bucket, one cache line (a Go
// allocation of a power-of-two multiple of 64 bytes is 64-byte aligned).
var _ [64 - unsafe.Sizeof(valueBucket{})]byte
var _ [unsafe.Sizeof(valueBucket{}) - 64]byte

// valueHash is the Fibonacci multiplier: its top bits spread consecutive
// ids over the buckets.
const valueHash = 0x9E3779B97F4A7C15

// add marks v with bit and reports whether v was new to that member.
func (s *valueSet) add(v uint64, bit uint8) bool { return s.addMarks(v, bit) != 0 }

// home is the bucket v's probe starts at, nil for an empty set: loading
// it ahead of addMarks overlaps its miss with others' (touchHomes).
func (s *valueSet) home(v uint64) *valueBucket {
	if s.buckets == nil {
		return nil
	}
	return &s.buckets[(v*valueHash)>>(s.shift&63)&uint64(len(s.buckets)-1)]
}

// addMarks marks v with every bit of marks (not 0) and returns the bits
// that v did not have: one probe for all the members a row passes.
func (s *valueSet) addMarks(v uint64, marks uint8) uint8 {
	if s.buckets == nil {
		s.buckets, s.shift = make([]valueBucket, 1), 64
	}
	mask := uint64(len(s.buckets) - 1)
	// shift&63: a one-bucket table shifts by 64, which Go makes 0 but
	// only with a check; the mask makes the index 0 all the same
	for i := (v * valueHash) >> (s.shift & 63) & mask; ; i = (i + 1) & mask {
		b := &s.buckets[i]
		used := int(b.used)
		for j := range b.vals[:used] {
			if b.vals[j] == v {
				added := marks &^ b.marks[j]
				b.marks[j] |= marks
				return added
			}
		}
		if used < bucketValues {
			b.vals[used], b.marks[used] = v, marks
			b.used++
			s.n++
			if int(s.n)*8 >= len(s.buckets)*bucketValues*7 {
				s.grow()
			}
			return marks
		}
	}
}

// grow doubles the table at 7/8 of its capacity.
func (s *valueSet) grow() {
	old := s.buckets
	s.buckets = make([]valueBucket, 2*len(old))
	s.shift = uint8(64 - bits.TrailingZeros(uint(len(s.buckets))))
	mask := uint64(len(s.buckets) - 1)
	for k := range old {
		ob := &old[k]
		for j, v := range ob.vals[:ob.used] {
			i := (v * valueHash) >> s.shift
			for s.buckets[i].used == bucketValues {
				i = (i + 1) & mask
			}
			b := &s.buckets[i]
			b.vals[b.used], b.marks[b.used] = v, ob.marks[j]
			b.used++
		}
	}
}

// each calls f with every value held and its marks, in no set order.
func (s *valueSet) each(f func(v uint64, marks uint8)) {
	for k := range s.buckets {
		b := &s.buckets[k]
		for j, v := range b.vals[:b.used] {
			f(v, b.marks[j])
		}
	}
}

// clone is a deep copy.
func (s *valueSet) clone() valueSet {
	if s.buckets == nil {
		return valueSet{}
	}
	return valueSet{buckets: append([]valueBucket(nil), s.buckets...), n: s.n, shift: s.shift}
}

// heldBytes is the memory the set holds.
func (s *valueSet) heldBytes() int64 {
	return int64(unsafe.Sizeof(*s)) + int64(cap(s.buckets))*int64(unsafe.Sizeof(valueBucket{}))
}
