package windowop

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// retracter is an accumulator that can take rows out again: an aggregate
// over an update stream folds +I and +U rows and retracts -U and -D rows,
// as Flink's retracting aggregate functions do.
type retracter interface {
	accumulator
	retract(col arrow.Array, slots []int32, from, to int)
}

// newRetractAccumulator is the accumulator of spec over an update stream,
// with Flink's retracting aggregate functions: COUNT, SUM and AVG keep sums
// and counts (agg_retract_decimal.go for DECIMAL); MIN and MAX keep every
// value with its count (agg_retract_extremum.go); FIRST_VALUE,
// LAST_VALUE, LISTAGG, ARRAY_AGG and the JSON aggregates keep the values
// in arrival order (agg_retract_list.go); COLLECT and PERCENTILE keep
// counts (agg_retract_counts.go); the variance family runs Welford's
// method backwards (agg_retract_variance.go); a DISTINCT aggregate counts
// its values and passes a value on when it comes or goes
// (agg_retract_distinct.go); a user aggregate needs a Retract method
// (agg_retract_user.go).
func newRetractAccumulator(spec AggSpec, in arrow.DataType) (retracter, error) {
	if spec.Kind != CountStar && in == nil {
		return nil, fmt.Errorf("%s needs an argument column", spec.Kind)
	}
	if spec.Distinct {
		switch spec.Kind {
		case Min, Max:
			// the smallest distinct value is the smallest value
		case Count, Sum, Avg, StddevPop, StddevSamp, VarPop, VarSamp, Percentile, ListAgg, ArrayAgg, Collect:
			if spec.Kind == Percentile && len(spec.MoreInputs) > 0 {
				return nil, fmt.Errorf("PERCENTILE(DISTINCT ...) with a frequency is not supported")
			}
			plain := spec
			plain.Distinct = false
			inner, err := newRetractAccumulator(plain, in)
			if err != nil {
				return nil, err
			}
			return newRetractDistinct(inner, in, spec.Kind == ArrayAgg && !spec.IgnoreNulls)
		default:
			return nil, fmt.Errorf("%s(DISTINCT ...) over an update stream is not supported", spec.Kind)
		}
	}
	switch spec.Kind {
	case CountStar, Count:
		return &retractCount{countAcc{star: spec.Kind == CountStar}}, nil
	case Sum, Avg:
		switch in.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
			return &retractSum{dt: in, avg: spec.Kind == Avg, isFlt: in.ID() == arrow.FLOAT32 || in.ID() == arrow.FLOAT64}, nil
		case arrow.DECIMAL128:
			return newRetractDecimal(in.(*arrow.Decimal128Type), spec.Kind == Avg)
		}
		return nil, fmt.Errorf("%s over %s is not supported", spec.Kind, in)
	case Min, Max:
		return newRetractExtremum(in, spec.Kind == Max)
	case FirstValue, LastValue:
		return newRetractPick(in, spec.Kind == LastValue)
	case StddevPop, StddevSamp, VarPop, VarSamp:
		return newRetractVariance(spec.Kind, in)
	case ListAgg:
		return newRetractListAgg(in, spec.Separator)
	case ArrayAgg:
		return newRetractArrayAgg(in, spec.IgnoreNulls)
	case JSONArrayAgg, JSONObjectAgg:
		return newRetractJSONAgg(in, spec.Kind == JSONObjectAgg)
	case Collect:
		return newRetractCollect(in)
	case Percentile:
		return newRetractPercentile(in, spec)
	case User:
		return newRetractUser(spec.User)
	case SingleValue:
		return newSingleValueAcc(in, true)
	}
	return nil, fmt.Errorf("%s over an update stream is not supported: it cannot retract", spec.Kind)
}

// retractCount is COUNT(*) and COUNT(x) with retraction.
type retractCount struct{ countAcc }

func (a *retractCount) retract(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && (a.star || col.IsValid(i)) {
			a.counts[s]--
		}
	}
}

// retractSum is SUM and AVG of numbers with retraction: the sum and the
// count of non-NULL values, NULL when the count is 0.
type retractSum struct {
	dt         arrow.DataType
	avg, isFlt bool
	ints       []int64
	flts       []float64
	n          []int64
}

func (a *retractSum) resize(n int) {
	a.n, a.ints, a.flts = extendTo(a.n, n), extendTo(a.ints, n), extendTo(a.flts, n)
}

func (a *retractSum) reset(s int32) { a.n[s], a.ints[s], a.flts[s] = 0, 0, 0 }

func (a *retractSum) update(col arrow.Array, slots []int32, from, to int) {
	a.fold(col, slots, from, to, 1)
}

func (a *retractSum) retract(col arrow.Array, slots []int32, from, to int) {
	a.fold(col, slots, from, to, -1)
}

func (a *retractSum) fold(col arrow.Array, slots []int32, from, to int, sign int64) {
	for i := from; i < to; i++ {
		s := slots[i]
		if s < 0 || col.IsNull(i) {
			continue
		}
		a.n[s] += sign
		if a.isFlt {
			a.flts[s] += float64(sign) * floatValue(col, i)
		} else {
			a.ints[s] += sign * intValue(col, i)
		}
	}
}

func (a *retractSum) appendResults(slots []int32, b array.Builder) {
	for _, s := range slots {
		switch {
		case a.n[s] == 0:
			b.AppendNull()
		case a.isFlt && a.avg:
			appendFloat(b, a.flts[s]/float64(a.n[s]))
		case a.isFlt:
			appendFloat(b, a.flts[s])
		case a.avg:
			appendInt(b, a.ints[s]/a.n[s]) // integers truncate toward zero, as Flink's AVG
		default:
			appendInt(b, a.ints[s])
		}
	}
}

func (a *retractSum) merge(dst, src int32) {
	a.n[dst] += a.n[src]
	a.ints[dst] += a.ints[src]
	a.flts[dst] += a.flts[src]
}

func (a *retractSum) copyTo(dst, src int32) {
	a.n[dst], a.ints[dst], a.flts[dst] = a.n[src], a.ints[src], a.flts[src]
}

func (a *retractSum) sameResult(x, y int32) bool {
	if a.n[x] == 0 || a.n[y] == 0 {
		return a.n[x] == a.n[y]
	}
	if a.avg {
		if a.isFlt {
			return a.flts[x]/float64(a.n[x]) == a.flts[y]/float64(a.n[y])
		}
		return a.ints[x]/a.n[x] == a.ints[y]/a.n[y]
	}
	return a.ints[x] == a.ints[y] && a.flts[x] == a.flts[y]
}

func (a *retractSum) resultType() arrow.DataType { return a.dt }

func (a *retractSum) save(e *checkpoint.Encoder, n int) {
	checkpoint.Ints(e, a.n[:n])
	checkpoint.Ints(e, a.ints[:n])
	for _, f := range a.flts[:n] {
		e.Uint(math.Float64bits(f))
	}
}

func (a *retractSum) load(d *checkpoint.Decoder, n int) {
	a.n = fit(d, checkpoint.ReadInts[int64](d), n)
	a.ints = fit(d, checkpoint.ReadInts[int64](d), n)
	a.flts = make([]float64, n)
	for i := range a.flts {
		a.flts[i] = math.Float64frombits(d.Uint())
	}
}

func intValue(col arrow.Array, i int) int64 {
	switch c := col.(type) {
	case *array.Int8:
		return int64(c.Value(i))
	case *array.Int16:
		return int64(c.Value(i))
	case *array.Int32:
		return int64(c.Value(i))
	case *array.Int64:
		return c.Value(i)
	case *array.Date32:
		return int64(c.Value(i))
	case *array.Time32:
		return int64(c.Value(i))
	case *array.Timestamp:
		return int64(c.Value(i))
	case *array.Time64:
		return int64(c.Value(i))
	case *array.Boolean:
		return int64(b2i(c.Value(i))) // FALSE < TRUE
	}
	panic(fmt.Sprintf("windowop: no integer value in %s", col.DataType()))
}

func floatValue(col arrow.Array, i int) float64 {
	switch c := col.(type) {
	case *array.Float32:
		return float64(c.Value(i))
	case *array.Float64:
		return c.Value(i)
	}
	panic(fmt.Sprintf("windowop: no float value in %s", col.DataType()))
}

// Retractable says why aggregate spec over a column of type in cannot
// run over an update stream, or nil when it can.
func Retractable(spec AggSpec, in arrow.DataType) error {
	_, err := newRetractAccumulator(spec, in)
	return err
}
