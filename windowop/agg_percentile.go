package windowop

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// percentileAcc is PERCENTILE(x, p [, frequency]), Flink's continuous
// percentile (PercentileAggFunction): each slot keeps its values as DOUBLE
// with how often each was seen, and the result is the value at 1-based
// position p·(n−1)+1 of the sorted values, linearly interpolated between
// the two values around a fractional position. NULL values, and rows whose
// frequency is NULL or not positive, are skipped; a slot without values is
// NULL. Values are equal as Java's Double keys are (NaN equals NaN, -0.0
// differs from 0.0) and sorted by Double.compare. PERCENTILE(x, ARRAY[p1,
// p2, ...]) gives an ARRAY<DOUBLE> of the percentiles at each (Flink's
// MultiPercentileAggFunction), NULL without values or percentages.
type percentileAcc struct {
	ps    []float64 // the percentages: one, or the array's
	multi bool      // the ARRAY form
	scale int32     // DECIMAL values: their scale
	freq  bool      // the input is a struct of (value, frequency)

	vals  [][]pctEntry
	tidy  []int // per slot: its entries up to here are sorted and unique
	xs    []float64
	ns    []int64
	valid []bool
}

type pctEntry struct {
	v float64
	n int64
}

// newPercentileAcc is PERCENTILE at p, or at each of ps when multi.
func newPercentileAcc(in arrow.DataType, p float64, ps []float64, multi bool) (*percentileAcc, error) {
	if !multi {
		ps = []float64{p}
	}
	for _, p := range ps {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("the percentage of PERCENTILE must be between 0.0 and 1.0, got %v", p)
		}
	}
	a := &percentileAcc{ps: ps, multi: multi}
	value := in
	if st, ok := in.(*arrow.StructType); ok {
		if st.NumFields() != 2 || !isIntegerID(st.Field(1).Type.ID()) {
			return nil, fmt.Errorf("the frequency of PERCENTILE must be an integer, got %s", in)
		}
		value, a.freq = st.Field(0).Type, true
	}
	switch value.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
	case arrow.DECIMAL128:
		a.scale = value.(*arrow.Decimal128Type).Scale
	default:
		return nil, fmt.Errorf("PERCENTILE over %s is not supported", value)
	}
	return a, nil
}

func isIntegerID(id arrow.Type) bool {
	switch id {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func (a *percentileAcc) resize(n int) {
	a.vals, a.tidy = extendTo(a.vals, n), extendTo(a.tidy, n)
}

func (a *percentileAcc) reset(s int32) { a.vals[s], a.tidy[s] = a.vals[s][:0], 0 }

func (a *percentileAcc) update(col arrow.Array, slots []int32, from, to int) {
	a.read(col, from, to)
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 {
			if n := a.rowCount(i); n > 0 {
				a.add(s, a.xs[i], n)
			}
		}
	}
}

// read converts rows from..to of the input into xs, valid and (with a
// frequency) ns, for update and retract alike.
func (a *percentileAcc) read(col arrow.Array, from, to int) {
	value, freq := col, arrow.Array(nil)
	if a.freq {
		st := col.(*array.Struct)
		value, freq = st.Field(0), st.Field(1)
	}
	a.xs, a.valid = grow(a.xs, to), grow(a.valid, to)
	toFloats(a.xs, a.valid, value, a.scale, from, to)
	if freq != nil {
		a.ns = grow(a.ns, to)
		toCounts(a.ns, freq, from, to)
	}
}

// rowCount is how many times read's row i counts: 0 for a NULL value or a
// frequency that is not positive.
func (a *percentileAcc) rowCount(i int) int64 {
	switch {
	case !a.valid[i]:
		return 0
	case a.freq:
		return max(a.ns[i], 0)
	}
	return 1
}

// add appends a value; a slot's entries are tidied (sorted, equal values
// summed) whenever they have doubled, so repeated values take no more room
// than Flink's map of counts would, give or take a factor of two.
func (a *percentileAcc) add(s int32, x float64, n int64) {
	if x != x {
		x = math.NaN() // one NaN, as Java's Double key
	}
	a.vals[s] = append(a.vals[s], pctEntry{x, n})
	if len(a.vals[s]) >= 2*a.tidy[s]+64 {
		a.tidyUp(s)
	}
}

// tidyUp sorts slot s's entries and sums the counts of equal values.
func (a *percentileAcc) tidyUp(s int32) {
	v := a.vals[s]
	if a.tidy[s] == len(v) {
		return
	}
	slices.SortFunc(v, func(x, y pctEntry) int { return compareFloat(x.v, y.v) })
	out := v[:0]
	for _, e := range v {
		if k := len(out) - 1; k >= 0 && math.Float64bits(out[k].v) == math.Float64bits(e.v) {
			out[k].n += e.n
			continue
		}
		out = append(out, e)
	}
	a.vals[s], a.tidy[s] = out, len(out)
}

// toFloats converts rows [from, to) of col to DOUBLE, with their validity.
func toFloats(xs []float64, valid []bool, col arrow.Array, scale int32, from, to int) {
	switch c := col.(type) {
	case *array.Int8:
		floatsOf(xs, c.Int8Values(), from, to)
	case *array.Int16:
		floatsOf(xs, c.Int16Values(), from, to)
	case *array.Int32:
		floatsOf(xs, c.Int32Values(), from, to)
	case *array.Int64:
		floatsOf(xs, c.Int64Values(), from, to)
	case *array.Float32:
		floatsOf(xs, c.Float32Values(), from, to)
	case *array.Float64:
		copy(xs[from:to], c.Float64Values()[from:to])
	case *array.Decimal128:
		vals := c.Values()
		for i := from; i < to; i++ {
			xs[i] = vals[i].ToFloat64(scale)
		}
	}
	for i := from; i < to; i++ {
		valid[i] = col.IsValid(i)
	}
}

func floatsOf[T int8 | int16 | int32 | int64 | float32](xs []float64, vals []T, from, to int) {
	for i := from; i < to; i++ {
		xs[i] = float64(vals[i])
	}
}

// toCounts converts rows [from, to) of an integer column to int64; NULL
// is 0, a frequency that skips the row.
func toCounts(ns []int64, col arrow.Array, from, to int) {
	switch c := col.(type) {
	case *array.Int8:
		countsOf(ns, c.Int8Values(), from, to)
	case *array.Int16:
		countsOf(ns, c.Int16Values(), from, to)
	case *array.Int32:
		countsOf(ns, c.Int32Values(), from, to)
	case *array.Int64:
		copy(ns[from:to], c.Int64Values()[from:to])
	}
	if col.NullN() > 0 {
		for i := from; i < to; i++ {
			if col.IsNull(i) {
				ns[i] = 0
			}
		}
	}
}

func countsOf[T int8 | int16 | int32](ns []int64, vals []T, from, to int) {
	for i := from; i < to; i++ {
		ns[i] = int64(vals[i])
	}
}

func (a *percentileAcc) merge(dst, src int32) {
	for _, e := range a.vals[src] {
		a.add(dst, e.v, e.n)
	}
}

func (a *percentileAcc) copyTo(dst, src int32) {
	a.vals[dst] = append(a.vals[dst][:0], a.vals[src]...)
	a.tidy[dst] = a.tidy[src]
}

// result is slot s's percentile, as Flink's getValue computes it; ok is
// false for NULL.
func (a *percentileAcc) result(s int32) (float64, bool) { return a.resultAt(s, a.ps[0]) }

// resultAt is slot s's percentile at p.
func (a *percentileAcc) resultAt(s int32, p float64) (float64, bool) {
	a.tidyUp(s)
	v := a.vals[s]
	var total int64
	for _, e := range v {
		total += e.n
	}
	if total <= 0 {
		return 0, false
	}
	pos := p*float64(total-1) + 1
	lower, higher := int64(math.Floor(pos)), int64(math.Ceil(pos))
	j, seen := 0, v[0].n
	for seen < lower {
		j++
		seen += v[j].n
	}
	if seen >= higher {
		return v[j].v, true
	}
	return (float64(higher)-pos)*v[j].v + (pos-float64(lower))*v[j+1].v, true
}

func (a *percentileAcc) appendResults(slots []int32, b array.Builder) {
	if !a.multi {
		appendDoubleResults(slots, b, a.result)
		return
	}
	lb := b.(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Float64Builder)
	for _, s := range slots {
		if len(a.ps) == 0 {
			lb.AppendNull() // Flink: NULL for an empty array
			continue
		}
		if _, ok := a.result(s); !ok {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		for _, p := range a.ps {
			v, _ := a.resultAt(s, p)
			vb.Append(v)
		}
	}
}

func (a *percentileAcc) sameResult(x, y int32) bool {
	if !a.multi {
		return sameDoubleResult(a.result, x, y)
	}
	for _, p := range a.ps {
		if !sameDoubleResult(func(s int32) (float64, bool) { return a.resultAt(s, p) }, x, y) {
			return false
		}
	}
	return true
}

func (a *percentileAcc) resultType() arrow.DataType {
	if a.multi {
		return arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	}
	return arrow.PrimitiveTypes.Float64
}

// save writes each slot's values tidied: sorted, each once with its count.
func (a *percentileAcc) save(e *checkpoint.Encoder, n int) {
	e.Uint(uint64(n))
	for s := range n {
		a.tidyUp(int32(s))
		e.Uint(uint64(len(a.vals[s])))
		for _, x := range a.vals[s] {
			e.Float(x.v)
			e.Int(x.n)
		}
	}
}

func (a *percentileAcc) load(d *checkpoint.Decoder, n int) {
	a.vals = make([][]pctEntry, d.Len(1))
	for s := range a.vals {
		v := make([]pctEntry, d.Len(2))
		for k := range v {
			v[k] = pctEntry{d.Float(), d.Int()}
			if v[k].n <= 0 {
				d.Fail("PERCENTILE count %d is not positive", v[k].n)
				return
			}
			if k > 0 && compareFloat(v[k-1].v, v[k].v) >= 0 {
				d.Fail("PERCENTILE values out of order")
				return
			}
		}
		a.vals[s] = v
	}
	a.vals = fit(d, a.vals, n)
	a.tidy = make([]int, len(a.vals))
	for s, v := range a.vals {
		a.tidy[s] = len(v)
	}
}
