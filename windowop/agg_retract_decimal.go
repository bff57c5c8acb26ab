package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/checkpoint"
)

// retractDecimal is SUM and AVG over DECIMAL(p, s) with retraction,
// Flink's DecimalSumWithRetractAggFunction and AvgAggFunction: an exact
// sum and the count of non-NULL values, NULL when the count is 0. SUM is
// DECIMAL(38, s) and AVG DECIMAL(38, max(6, s)), as avgAcc computes them;
// a sum past 38 digits is NULL.
type retractDecimal struct {
	avgAcc      // n and decs: the count and the sum
	sum    bool // SUM rather than AVG
	sumDT  arrow.DataType
}

func newRetractDecimal(in *arrow.Decimal128Type, avg bool) (*retractDecimal, error) {
	acc, err := newAvgAcc(in)
	if err != nil {
		return nil, err
	}
	return &retractDecimal{avgAcc: *acc, sum: !avg, sumDT: &arrow.Decimal128Type{Precision: 38, Scale: in.Scale}}, nil
}

func (a *retractDecimal) retract(col arrow.Array, slots []int32, from, to int) {
	vals := col.(*array.Decimal128).Values()
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			var v int192
			v.addNum(vals[i])
			a.decs[s].add(v.neg())
			a.n[s]--
		}
	}
}

// value is slot s's result; ok false for NULL.
func (a *retractDecimal) value(s int32) (decimal128.Num, bool) {
	if a.n[s] <= 0 {
		return decimal128.Num{}, false
	}
	if !a.sum {
		_, _, d, ok := a.result(s)
		return d, ok
	}
	return a.decs[s].num(38)
}

func (a *retractDecimal) appendResults(slots []int32, b array.Builder) {
	db := b.(*array.Decimal128Builder)
	for _, s := range slots {
		if d, ok := a.value(s); ok {
			db.Append(d)
		} else {
			db.AppendNull()
		}
	}
}

func (a *retractDecimal) sameResult(x, y int32) bool {
	dx, okx := a.value(x)
	dy, oky := a.value(y)
	return okx == oky && dx == dy
}

func (a *retractDecimal) resultType() arrow.DataType {
	if a.sum {
		return a.sumDT
	}
	return a.dt
}

// load reads what avgAcc.save wrote, with counts that retraction of rows
// never folded in may have made negative.
func (a *retractDecimal) load(d *checkpoint.Decoder, n int) {
	a.n = fit(d, checkpoint.ReadInts[int64](d), n)
	a.decs = loadInt192s(d, n)
}
