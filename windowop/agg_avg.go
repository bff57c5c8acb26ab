package windowop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/checkpoint"
)

// avgAcc is AVG as Flink computes it (AvgAggFunction): a sum and a count.
// Integers sum in BIGINT and the result is sum / count in the argument's
// type, truncated toward zero like Java's long division (AVG(INT) of 3, 4,
// 4, 4 is 3); floats sum in DOUBLE; DECIMAL(p, s) sums exactly and divides
// into DECIMAL(38, max(6, s)) (LogicalTypeMerging.findAvgAggType), rounding
// half up as Flink's DecimalDataUtils.divide does.
type avgAcc struct {
	dt    arrow.DataType
	kind  avgKind
	n     []int64
	ints  []int64
	flts  []float64
	decs  []int192
	scale int32  // DECIMAL: the result's scale ...
	mul   uint64 // ... and 10^(result scale − argument scale)
}

type avgKind uint8

const (
	avgInt avgKind = iota
	avgFloat
	avgDecimal
)

func newAvgAcc(in arrow.DataType) (*avgAcc, error) {
	switch in.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return &avgAcc{dt: in, kind: avgInt}, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		return &avgAcc{dt: in, kind: avgFloat}, nil
	case arrow.DECIMAL128:
		s := in.(*arrow.Decimal128Type).Scale
		rs := max(6, s)
		return &avgAcc{dt: &arrow.Decimal128Type{Precision: 38, Scale: rs}, kind: avgDecimal,
			scale: rs, mul: uint64(math.Pow10(int(rs - s)))}, nil
	}
	return nil, fmt.Errorf("avg over %s is not supported", in)
}

func (a *avgAcc) resize(n int) {
	a.n = extendTo(a.n, n)
	switch a.kind {
	case avgInt:
		a.ints = extendTo(a.ints, n)
	case avgFloat:
		a.flts = extendTo(a.flts, n)
	default:
		a.decs = extendTo(a.decs, n)
	}
}

func (a *avgAcc) reset(slot int32) {
	a.n[slot] = 0
	switch a.kind {
	case avgInt:
		a.ints[slot] = 0
	case avgFloat:
		a.flts[slot] = 0
	default:
		a.decs[slot] = int192{}
	}
}

func (a *avgAcc) update(col arrow.Array, slots []int32, from, to int) {
	switch c := col.(type) {
	case *array.Int8:
		avgSum(a.n, a.ints, c.Int8Values(), col, slots, from, to)
	case *array.Int16:
		avgSum(a.n, a.ints, c.Int16Values(), col, slots, from, to)
	case *array.Int32:
		avgSum(a.n, a.ints, c.Int32Values(), col, slots, from, to)
	case *array.Int64:
		avgSum(a.n, a.ints, c.Int64Values(), col, slots, from, to)
	case *array.Float32:
		avgSum(a.n, a.flts, c.Float32Values(), col, slots, from, to)
	case *array.Float64:
		avgSum(a.n, a.flts, c.Float64Values(), col, slots, from, to)
	case *array.Decimal128:
		vals := c.Values()
		noNulls := col.NullN() == 0
		for i := from; i < to; i++ {
			if s := slots[i]; s >= 0 && (noNulls || col.IsValid(i)) {
				a.decs[s].addNum(vals[i])
				a.n[s]++
			}
		}
	}
}

// avgSum adds a typed column into sums of type S (int64 or float64).
func avgSum[T int8 | int16 | int32 | int64 | float32 | float64, S int64 | float64](n []int64, sums []S, vals []T, col arrow.Array, slots []int32, from, to int) {
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		sums[s] += S(vals[i])
		n[s]++
	}
}

// result computes slot s's average: ok is false for NULL; i holds integers,
// f floats, d decimals.
func (a *avgAcc) result(s int32) (i int64, f float64, d decimal128.Num, ok bool) {
	n := a.n[s]
	if n == 0 {
		return 0, 0, d, false
	}
	switch a.kind {
	case avgInt:
		return a.ints[s] / n, 0, d, true
	case avgFloat:
		if a.dt.ID() == arrow.FLOAT32 {
			return 0, float64(float32(a.flts[s] / float64(n))), d, true
		}
		return 0, a.flts[s] / float64(n), d, true
	}
	q, fits := a.decs[s].mulDivRound(a.mul, uint64(n))
	if !fits {
		return 0, 0, d, false
	}
	d, ok = q.num(38)
	return 0, 0, d, ok
}

func (a *avgAcc) appendResults(slots []int32, b array.Builder) {
	for _, s := range slots {
		i, f, d, ok := a.result(s)
		if !ok {
			b.AppendNull()
			continue
		}
		switch a.kind {
		case avgInt:
			appendInt(b, i)
		case avgFloat:
			appendFloat(b, f)
		default:
			b.(*array.Decimal128Builder).Append(d)
		}
	}
}

func (a *avgAcc) merge(dst, src int32) {
	a.n[dst] += a.n[src]
	switch a.kind {
	case avgInt:
		a.ints[dst] += a.ints[src]
	case avgFloat:
		a.flts[dst] += a.flts[src]
	default:
		a.decs[dst].add(a.decs[src])
	}
}

func (a *avgAcc) copyTo(dst, src int32) {
	a.n[dst] = a.n[src]
	switch a.kind {
	case avgInt:
		a.ints[dst] = a.ints[src]
	case avgFloat:
		a.flts[dst] = a.flts[src]
	default:
		a.decs[dst] = a.decs[src]
	}
}

// sameResult compares the averages, not the sums: 4/2 and 6/3 emit no update.
func (a *avgAcc) sameResult(x, y int32) bool {
	ix, fx, dx, okx := a.result(x)
	iy, fy, dy, oky := a.result(y)
	return okx == oky && ix == iy && math.Float64bits(fx) == math.Float64bits(fy) && dx == dy
}

func (a *avgAcc) resultType() arrow.DataType { return a.dt }

func (a *avgAcc) save(e *checkpoint.Encoder, n int) {
	checkpoint.Ints(e, a.n[:n])
	switch a.kind {
	case avgInt:
		checkpoint.Ints(e, a.ints[:n])
	case avgFloat:
		e.Floats(a.flts[:n])
	default:
		saveInt192s(e, a.decs[:n])
	}
}

func (a *avgAcc) load(d *checkpoint.Decoder, n int) {
	a.n = rowCounts(d, fit(d, checkpoint.ReadInts[int64](d), n))
	switch a.kind {
	case avgInt:
		a.ints = fit(d, checkpoint.ReadInts[int64](d), n)
	case avgFloat:
		a.flts = fit(d, d.Floats(), n)
	default:
		a.decs = loadInt192s(d, n)
	}
}
