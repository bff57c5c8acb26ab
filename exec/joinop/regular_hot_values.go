package joinop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// boundValues is what a hot group keeps for a bound probe: the values of
// the one column the probe compares, widened to int64, in the group's
// order, with the least and greatest of each block of boundBlock rows so
// a probe passes over the blocks none of whose rows can match. Nexmark
// q5 probes each window's 600K auction counts with each new maximum
// count, and only the few blocks that hold a hot auction's count can
// match it: comparing every count through the residual's kernel took a
// seventh of the query's CPU.
type boundValues struct {
	vals   []int64
	nulls  []uint64 // a set bit is a NULL; nil while there is none
	blocks []valueRange
}

// boundBlock is the rows of a block of boundValues.
const boundBlock = 64

// valueRange is the least and greatest non-NULL value of a block; lo >
// hi when it has none.
type valueRange struct{ lo, hi int64 }

const (
	minInt64 = -1 << 63
	maxInt64 = 1<<63 - 1
)

// reserve makes room for n values in all, so a window's 600K rows
// coming at once are not copied as the slice doubles.
func (b *boundValues) reserve(n int) {
	if cap(b.vals) < n {
		b.vals = append(make([]int64, 0, n), b.vals...)
	}
}

// add appends the values of a, an integer column of the types bindProbes
// accepts: INT32, INT64, DATE32 or TIMESTAMP.
func (b *boundValues) add(a arrow.Array) {
	from := len(b.vals)
	switch a := a.(type) {
	case *array.Int64:
		b.vals = appendInts(b.vals, a.Int64Values())
	case *array.Int32:
		b.vals = appendInts(b.vals, a.Int32Values())
	case *array.Timestamp:
		b.vals = appendInts(b.vals, a.TimestampValues())
	case *array.Date32:
		b.vals = appendInts(b.vals, a.Date32Values())
	default:
		panic("joinop: a bound probe over " + a.DataType().String())
	}
	if a.NullN() > 0 || b.nulls != nil {
		for len(b.nulls)*64 < len(b.vals) {
			b.nulls = append(b.nulls, 0)
		}
		for k := range a.Len() {
			if a.IsNull(k) {
				n := from + k
				b.nulls[n>>6] |= 1 << (n & 63)
			}
		}
	}
	b.ranges(from)
}

func appendInts[T ~int32 | ~int64](dst []int64, vals []T) []int64 {
	n := len(dst)
	dst = slices.Grow(dst, len(vals))[:n+len(vals)]
	for k, v := range vals {
		dst[n+k] = int64(v)
	}
	return dst
}

// ranges brings the blocks' ranges up to date from row from on.
func (b *boundValues) ranges(from int) {
	for blk := from / boundBlock; blk*boundBlock < len(b.vals); blk++ {
		r := valueRange{lo: maxInt64, hi: minInt64}
		for k := blk * boundBlock; k < min(len(b.vals), (blk+1)*boundBlock); k++ {
			if !b.isNull(k) {
				r.lo, r.hi = min(r.lo, b.vals[k]), max(r.hi, b.vals[k])
			}
		}
		if blk < len(b.blocks) {
			b.blocks[blk] = r
		} else {
			b.blocks = append(b.blocks, r)
		}
	}
}

func (b *boundValues) isNull(k int) bool {
	return b.nulls != nil && b.nulls[k>>6]&(1<<(k&63)) != 0
}

// matches appends to rows and ents the pairs of row i with the entries
// of ents whose value compares TRUE with v, in order: op has the kept
// column as its left operand.
func (b *boundValues) matches(op compareOp, v int64, i int32, ents, rows, out []int32) ([]int32, []int32) {
	for blk, r := range b.blocks {
		if !r.mayHold(op, v) {
			continue
		}
		for k := blk * boundBlock; k < min(len(b.vals), (blk+1)*boundBlock); k++ {
			if op.holds(b.vals[k], v) && !b.isNull(k) {
				rows, out = append(rows, i), append(out, ents[k])
			}
		}
	}
	return rows, out
}

// compareOp is a comparison operator of a bound probe.
type compareOp uint8

const (
	opEq compareOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

// compareOpOf is the operator of SQL's op; with swapped, of the same
// comparison with its operands swapped (a < b is b > a).
func compareOpOf(op string, swapped bool) (compareOp, bool) {
	ops := map[string]compareOp{"=": opEq, "<>": opNe, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}
	c, ok := ops[op]
	if swapped {
		c = [...]compareOp{opEq, opNe, opGt, opGe, opLt, opLe}[c]
	}
	return c, ok
}

// mayHold reports whether a value in r may compare TRUE with v.
func (r valueRange) mayHold(op compareOp, v int64) bool {
	if r.lo > r.hi {
		return false // only NULLs, which compare to nothing
	}
	switch op {
	case opEq:
		return r.lo <= v && v <= r.hi
	case opNe:
		return r.lo != v || r.hi != v
	case opLt:
		return r.lo < v
	case opLe:
		return r.lo <= v
	case opGt:
		return r.hi >= v
	}
	return r.hi >= v
}

// holds is a op v.
func (op compareOp) holds(a, v int64) bool {
	switch op {
	case opEq:
		return a == v
	case opNe:
		return a != v
	case opLt:
		return a < v
	case opLe:
		return a <= v
	case opGt:
		return a > v
	}
	return a >= v
}

// intValue is row i of an integer column of the types boundValues reads.
func intValue(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Date32:
		return int64(a.Value(i))
	}
	panic("joinop: a bound probe over " + a.DataType().String())
}
