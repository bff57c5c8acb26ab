package windowop

import (
	"bytes"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/checkpoint"
)

// pick says which of a slot's values an aggregate keeps.
type pick uint8

const (
	pickMin   pick = iota // MIN: the smallest
	pickMax               // MAX: the largest
	pickFirst             // FIRST_VALUE: the earliest to arrive
	pickLast              // LAST_VALUE: the latest to arrive
)

// pickAcc is MIN, MAX, FIRST_VALUE and LAST_VALUE: one value of the
// argument's type per slot, NULLs ignored, NULL while no value came. The
// result type is the argument's. Values are held widened in one of four
// arrays: integers, dates, times, timestamps and booleans as int64, floats
// as float64, decimals as decimal128, strings as bytes (each slot reuses
// its buffer, so a new minimum does not allocate once the buffer is big
// enough). FIRST and LAST keep the arrival number of their value, so
// merging panes or sessions picks by arrival, whatever the merge order.
type pickAcc struct {
	dt   arrow.DataType
	kind valueKind
	dir  int  // MIN -1, MAX +1: a value replaces one it compares dir to; 0 for FIRST/LAST
	last bool // LAST_VALUE (FIRST_VALUE when dir == 0 and !last)

	has  []bool
	ints []int64
	flts []float64
	decs []decimal128.Num
	strs [][]byte
	seqs []int64 // FIRST/LAST: arrival number of the kept value
	arr  arrival
}

type valueKind uint8

const (
	valInt valueKind = iota
	valFloat
	valDecimal
	valString
)

// valueKindOf tells how a type is held, or fails for types MIN, MAX,
// FIRST_VALUE and LAST_VALUE do not take.
func valueKindOf(dt arrow.DataType) (valueKind, error) {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL,
		arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP:
		return valInt, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		return valFloat, nil
	case arrow.DECIMAL128:
		return valDecimal, nil
	case arrow.STRING:
		return valString, nil
	}
	return 0, fmt.Errorf("values of type %s are not supported", dt)
}

func newPickAcc(in arrow.DataType, p pick) (*pickAcc, error) {
	k, err := valueKindOf(in)
	if err != nil {
		return nil, err
	}
	a := &pickAcc{dt: in, kind: k}
	switch p {
	case pickMin:
		a.dir = -1
	case pickMax:
		a.dir = 1
	case pickLast:
		a.last = true
	}
	return a, nil
}

func (a *pickAcc) byArrival() bool { return a.dir == 0 }

func (a *pickAcc) resize(n int) {
	a.has = extendTo(a.has, n)
	switch a.kind {
	case valInt:
		a.ints = extendTo(a.ints, n)
	case valFloat:
		a.flts = extendTo(a.flts, n)
	case valDecimal:
		a.decs = extendTo(a.decs, n)
	default:
		a.strs = extendTo(a.strs, n)
	}
	if a.byArrival() {
		a.seqs = extendTo(a.seqs, n)
	}
}

// maxKeptString bounds the buffer a reused slot keeps.
const maxKeptString = 1 << 12

func (a *pickAcc) reset(s int32) {
	a.has[s] = false
	if a.kind == valString {
		if cap(a.strs[s]) > maxKeptString {
			a.strs[s] = nil
		} else {
			a.strs[s] = a.strs[s][:0]
		}
	}
}

func (a *pickAcc) update(col arrow.Array, slots []int32, from, to int) {
	var base int64
	if a.byArrival() {
		base = a.arr.baseOf(col)
	}
	switch c := col.(type) {
	case *array.Int8:
		pickInts(a, c.Int8Values(), col, slots, from, to, base)
	case *array.Int16:
		pickInts(a, c.Int16Values(), col, slots, from, to, base)
	case *array.Int32:
		pickInts(a, c.Int32Values(), col, slots, from, to, base)
	case *array.Int64:
		pickInts(a, c.Int64Values(), col, slots, from, to, base)
	case *array.Date32:
		pickInts(a, c.Date32Values(), col, slots, from, to, base)
	case *array.Time32:
		pickInts(a, c.Time32Values(), col, slots, from, to, base)
	case *array.Timestamp:
		pickInts(a, c.TimestampValues(), col, slots, from, to, base)
	case *array.Float32:
		pickFloats(a, c.Float32Values(), col, slots, from, to, base)
	case *array.Float64:
		pickFloats(a, c.Float64Values(), col, slots, from, to, base)
	case *array.Boolean:
		a.pickBools(c, slots, from, to, base)
	case *array.Decimal128:
		a.pickDecimals(c, slots, from, to, base)
	case *array.String:
		a.pickStrings(c, slots, from, to, base)
	}
}

// keeps tells whether slot s, which has a value, keeps it against a new
// one arriving as number q; c returns how the new value compares to the
// kept one (called for MIN and MAX only). FIRST and LAST compare arrival
// numbers rather than trusting call order: a sliding count window folds a
// batch once per overlapping window, later rows in earlier passes.
func (a *pickAcc) keeps(s int32, q int64, c func() int) bool {
	if a.dir == 0 {
		return (q > a.seqs[s]) != a.last
	}
	return c() != a.dir
}

func pickInts[T ~int8 | ~int16 | ~int32 | ~int64](a *pickAcc, vals []T, col arrow.Array, slots []int32, from, to int, base int64) {
	noNulls := col.NullN() == 0
	has, cur, dir, last := a.has, a.ints, a.dir, a.last
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		v := int64(vals[i])
		if has[s] {
			if dir == 0 {
				if (base+int64(i) > a.seqs[s]) != last {
					continue
				}
			} else if (dir < 0 && v >= cur[s]) || (dir > 0 && v <= cur[s]) {
				continue
			}
		}
		cur[s], has[s] = v, true
		if dir == 0 {
			a.seqs[s] = base + int64(i)
		}
	}
}

func pickFloats[T float32 | float64](a *pickAcc, vals []T, col arrow.Array, slots []int32, from, to int, base int64) {
	noNulls := col.NullN() == 0
	has, cur, dir, last := a.has, a.flts, a.dir, a.last
	if dir != 0 && noNulls {
		// MIN and MAX without NULLs: a value strictly beyond the kept one
		// replaces it and one strictly short of it does not, without
		// compareFloat's call (5% of a TUMBLE over datagen); equal values
		// and NaNs take its whole order
		for i := from; i < to; i++ {
			s := slots[i]
			if s < 0 {
				continue
			}
			v := float64(vals[i])
			if has[s] {
				c := cur[s]
				switch {
				case v < c:
					if dir > 0 {
						continue
					}
				case v > c:
					if dir < 0 {
						continue
					}
				default:
					if compareFloat(v, c) != dir {
						continue
					}
				}
			}
			if v != v {
				v = canonicalNaN
			}
			cur[s], has[s] = v, true
		}
		return
	}
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		v := float64(vals[i])
		if has[s] {
			if dir == 0 {
				if (base+int64(i) > a.seqs[s]) != last {
					continue
				}
			} else if compareFloat(v, cur[s]) != dir {
				continue
			}
		}
		if dir != 0 && v != v {
			v = canonicalNaN // NaNs are equal in the order: which one came first must not show
		}
		cur[s], has[s] = v, true
		if dir == 0 {
			a.seqs[s] = base + int64(i)
		}
	}
}

func (a *pickAcc) pickBools(c *array.Boolean, slots []int32, from, to int, base int64) {
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || c.IsNull(i) {
			continue
		}
		v := int64(b2i(c.Value(i))) // FALSE < TRUE
		if a.has[s] && a.keeps(s, base+int64(i), func() int { return cmpInt(v, a.ints[s]) }) {
			continue
		}
		a.ints[s], a.has[s] = v, true
		if a.dir == 0 {
			a.seqs[s] = base + int64(i)
		}
	}
}

func (a *pickAcc) pickDecimals(c *array.Decimal128, slots []int32, from, to int, base int64) {
	vals := c.Values()
	noNulls := c.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && c.IsNull(i)) {
			continue
		}
		v := vals[i]
		if a.has[s] && a.keeps(s, base+int64(i), func() int { return compareDecimal(v, a.decs[s]) }) {
			continue
		}
		a.decs[s], a.has[s] = v, true
		if a.dir == 0 {
			a.seqs[s] = base + int64(i)
		}
	}
}

func (a *pickAcc) pickStrings(c *array.String, slots []int32, from, to int, base int64) {
	noNulls := c.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && c.IsNull(i)) {
			continue
		}
		v := c.Value(i) // points into the batch: copied below
		if a.has[s] && a.keeps(s, base+int64(i), func() int { return compareString(v, a.strs[s]) }) {
			continue
		}
		a.strs[s], a.has[s] = append(a.strs[s][:0], v...), true
		if a.dir == 0 {
			a.seqs[s] = base + int64(i)
		}
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareSlots orders the values of two slots that both have one.
func (a *pickAcc) compareSlots(x, y int32) int {
	switch a.kind {
	case valInt:
		return cmpInt(a.ints[x], a.ints[y])
	case valFloat:
		return compareFloat(a.flts[x], a.flts[y])
	case valDecimal:
		return compareDecimal(a.decs[x], a.decs[y])
	}
	return bytes.Compare(a.strs[x], a.strs[y])
}

func (a *pickAcc) merge(dst, src int32) {
	if !a.has[src] {
		return
	}
	if a.has[dst] {
		switch {
		case a.dir != 0 && a.compareSlots(src, dst) != a.dir:
			return
		case a.dir == 0 && !a.last && a.seqs[src] >= a.seqs[dst]:
			return
		case a.dir == 0 && a.last && a.seqs[src] <= a.seqs[dst]:
			return
		}
	}
	a.copyTo(dst, src)
}

func (a *pickAcc) copyTo(dst, src int32) {
	a.has[dst] = a.has[src]
	switch a.kind {
	case valInt:
		a.ints[dst] = a.ints[src]
	case valFloat:
		a.flts[dst] = a.flts[src]
	case valDecimal:
		a.decs[dst] = a.decs[src]
	default:
		a.strs[dst] = append(a.strs[dst][:0], a.strs[src]...)
	}
	if a.byArrival() {
		a.seqs[dst] = a.seqs[src]
	}
}

// sameResult compares values exactly: floats by their bits, so NaN equals
// NaN and -0.0 differs from 0.0, as Java's Double.equals.
func (a *pickAcc) sameResult(x, y int32) bool {
	if a.has[x] != a.has[y] {
		return false
	}
	if !a.has[x] {
		return true
	}
	switch a.kind {
	case valInt:
		return a.ints[x] == a.ints[y]
	case valFloat:
		return math.Float64bits(a.flts[x]) == math.Float64bits(a.flts[y])
	case valDecimal:
		return a.decs[x] == a.decs[y]
	}
	return string(a.strs[x]) == string(a.strs[y])
}

func (a *pickAcc) appendResults(slots []int32, b array.Builder) {
	if a.kind == valInt && appendIntsAt(b, slots, a.has, a.ints) || a.kind == valFloat && appendFloatsAt(b, slots, a.has, a.flts) {
		return
	}
	for _, s := range slots {
		if !a.has[s] {
			b.AppendNull()
			continue
		}
		switch a.kind {
		case valInt:
			appendInt(b, a.ints[s])
		case valFloat:
			appendFloat(b, a.flts[s])
		case valDecimal:
			b.(*array.Decimal128Builder).Append(a.decs[s])
		default:
			b.(*array.StringBuilder).BinaryBuilder.Append(a.strs[s])
		}
	}
}

func (a *pickAcc) resultType() arrow.DataType { return a.dt }

// save writes the kept values, and for FIRST/LAST their arrival numbers and
// the arrival counter, which later rows are compared against.
func (a *pickAcc) save(e *checkpoint.Encoder, n int) {
	e.Bools(a.has[:n])
	switch a.kind {
	case valInt:
		checkpoint.Ints(e, a.ints[:n])
	case valFloat:
		e.Floats(a.flts[:n])
	case valDecimal:
		saveDecimals(e, a.decs[:n])
	default:
		e.Uint(uint64(n))
		for _, s := range a.strs[:n] {
			e.Bytes(s)
		}
	}
	if a.byArrival() {
		checkpoint.Ints(e, a.seqs[:n])
		a.arr.save(e)
	}
}

func (a *pickAcc) load(d *checkpoint.Decoder, n int) {
	a.has = fit(d, d.Bools(), n)
	switch a.kind {
	case valInt:
		a.ints = fit(d, checkpoint.ReadInts[int64](d), n)
	case valFloat:
		a.flts = fit(d, d.Floats(), n)
	case valDecimal:
		a.decs = loadDecimals(d, n)
	default:
		a.strs = make([][]byte, d.Len(1))
		for i := range a.strs {
			a.strs[i] = d.Bytes() // a buffer of its own: updates append to it
		}
		a.strs = fit(d, a.strs, n)
	}
	if a.byArrival() {
		a.seqs = fit(d, checkpoint.ReadInts[int64](d), n)
		a.arr.load(d)
	}
}
