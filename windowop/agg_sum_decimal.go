package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// decimalSumAcc is SUM over DECIMAL(p, s), whose result is DECIMAL(38, s)
// in Flink (LogicalTypeMerging.findSumAggType). The sum is kept exact in
// 192 bits; a sum beyond 38 digits is NULL, as Flink's decimal arithmetic
// turns an overflow into NULL.
type decimalSumAcc struct {
	out  *arrow.Decimal128Type
	sums []int192
	has  []bool
}

func newDecimalSumAcc(in *arrow.Decimal128Type) *decimalSumAcc {
	return &decimalSumAcc{out: &arrow.Decimal128Type{Precision: 38, Scale: in.Scale}}
}

func (a *decimalSumAcc) resize(n int) {
	a.has, a.sums = extendTo(a.has, n), extendTo(a.sums, n)
}

func (a *decimalSumAcc) reset(slot int32) { a.has[slot], a.sums[slot] = false, int192{} }

func (a *decimalSumAcc) update(col arrow.Array, slots []int32, from, to int) {
	vals := col.(*array.Decimal128).Values()
	noNulls := col.NullN() == 0
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || (!noNulls && col.IsNull(i)) {
			continue
		}
		a.sums[s].addNum(vals[i])
		a.has[s] = true
	}
}

func (a *decimalSumAcc) appendResults(slots []int32, b array.Builder) {
	db := b.(*array.Decimal128Builder)
	for _, s := range slots {
		n, ok := a.sums[s].num(38)
		if !a.has[s] || !ok {
			db.AppendNull()
			continue
		}
		db.Append(n)
	}
}

func (a *decimalSumAcc) merge(dst, src int32) {
	if a.has[src] {
		a.sums[dst].add(a.sums[src])
		a.has[dst] = true
	}
}

func (a *decimalSumAcc) copyTo(dst, src int32) {
	a.has[dst], a.sums[dst] = a.has[src], a.sums[src]
}

func (a *decimalSumAcc) sameResult(x, y int32) bool {
	nx, okx := a.sums[x].num(38)
	ny, oky := a.sums[y].num(38)
	nullX, nullY := !a.has[x] || !okx, !a.has[y] || !oky
	return nullX == nullY && (nullX || nx == ny)
}

func (a *decimalSumAcc) resultType() arrow.DataType { return a.out }

func (a *decimalSumAcc) save(e *checkpoint.Encoder, n int) {
	e.Bools(a.has[:n])
	saveInt192s(e, a.sums[:n])
}

func (a *decimalSumAcc) load(d *checkpoint.Decoder, n int) {
	a.has = fit(d, d.Bools(), n)
	a.sums = loadInt192s(d, n)
}
