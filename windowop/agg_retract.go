package windowop

import (
	"cmp"
	"fmt"
	"math"
	"slices"

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

// newRetractAccumulator is the accumulator of spec over an update stream:
// COUNT, SUM and AVG of numbers keep sums and counts; MIN and MAX keep
// every value with its count (Flink's MinWithRetract/MaxWithRetract), so
// taking out the extreme finds the next one.
func newRetractAccumulator(spec AggSpec, in arrow.DataType) (retracter, error) {
	if spec.Distinct {
		if spec.Kind == Count && len(spec.MoreInputs) == 0 {
			switch in.ID() {
			case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP:
				return &retractExtremum[int64]{dt: arrow.PrimitiveTypes.Int64, distinct: true, read: intValue}, nil
			case arrow.FLOAT32, arrow.FLOAT64:
				return &retractExtremum[float64]{dt: arrow.PrimitiveTypes.Int64, distinct: true, read: floatValue}, nil
			case arrow.STRING:
				return &retractExtremum[string]{dt: arrow.PrimitiveTypes.Int64, distinct: true, read: stringValue}, nil
			}
		}
		return nil, fmt.Errorf("%s(DISTINCT ...) over an update stream is not supported yet", spec.Kind)
	}
	switch spec.Kind {
	case CountStar, Count:
		return &retractCount{countAcc{star: spec.Kind == CountStar}}, nil
	case Sum, Avg:
		switch in.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
			return &retractSum{dt: in, avg: spec.Kind == Avg, isFlt: in.ID() == arrow.FLOAT32 || in.ID() == arrow.FLOAT64}, nil
		}
	case Min, Max:
		switch in.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP:
			return &retractExtremum[int64]{dt: in, max: spec.Kind == Max, read: intValue}, nil
		case arrow.FLOAT32, arrow.FLOAT64:
			return &retractExtremum[float64]{dt: in, max: spec.Kind == Max, read: floatValue}, nil
		case arrow.STRING:
			return &retractExtremum[string]{dt: in, max: spec.Kind == Max, read: stringValue}, nil
		}
	}
	return nil, fmt.Errorf("%s over an update stream is not supported yet: it needs retraction", spec.Kind)
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
	for len(a.n) < n {
		a.n, a.ints, a.flts = append(a.n, 0), append(a.ints, 0), append(a.flts, 0)
	}
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

// retractExtremum is MIN or MAX with retraction: per slot, each value
// with how many rows hold it. With distinct it is COUNT(DISTINCT x) with
// retraction instead, the number of values held (Flink's distinct
// MapView of counts).
type retractExtremum[K cmp.Ordered] struct {
	dt       arrow.DataType
	max      bool
	distinct bool
	read     func(col arrow.Array, i int) K
	sets     []map[K]int64
	n        []int64 // distinct: the values held, kept apart so a shadow slot needs no set
}

func (a *retractExtremum[K]) resize(n int) {
	for len(a.sets) < n {
		a.sets, a.n = append(a.sets, nil), append(a.n, 0)
	}
}

func (a *retractExtremum[K]) reset(s int32) { a.sets[s], a.n[s] = nil, 0 }

func (a *retractExtremum[K]) update(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			if a.sets[s] == nil {
				a.sets[s] = map[K]int64{}
			}
			a.sets[s][a.read(col, i)]++
			a.n[s] = int64(len(a.sets[s]))
		}
	}
}

func (a *retractExtremum[K]) retract(col arrow.Array, slots []int32, from, to int) {
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) && a.sets[s] != nil {
			v := a.read(col, i)
			if a.sets[s][v]--; a.sets[s][v] <= 0 {
				delete(a.sets[s], v)
			}
			a.n[s] = int64(len(a.sets[s]))
		}
	}
}

// best is slot s's extreme value; ok false when it holds none.
func (a *retractExtremum[K]) best(s int32) (best K, ok bool) {
	for v := range a.sets[s] {
		if !ok || a.max && v > best || !a.max && v < best {
			best, ok = v, true
		}
	}
	return best, ok
}

func (a *retractExtremum[K]) appendResults(slots []int32, b array.Builder) {
	if a.distinct {
		for _, s := range slots {
			b.(*array.Int64Builder).Append(a.n[s])
		}
		return
	}
	for _, s := range slots {
		v, ok := a.best(s)
		if !ok {
			b.AppendNull()
			continue
		}
		switch x := any(v).(type) {
		case int64:
			appendInt(b, x)
		case float64:
			appendFloat(b, x)
		case string:
			b.(*array.StringBuilder).Append(x)
		}
	}
}

func (a *retractExtremum[K]) merge(dst, src int32) {
	for v, n := range a.sets[src] {
		if a.sets[dst] == nil {
			a.sets[dst] = map[K]int64{}
		}
		a.sets[dst][v] += n
	}
	a.n[dst] = int64(len(a.sets[dst]))
}

func (a *retractExtremum[K]) copyTo(dst, src int32) {
	a.sets[dst] = nil
	a.merge(dst, src)
	a.n[dst] = a.n[src]
}

// copyResult keeps only the extreme value: a shadow slot shows no more.
func (a *retractExtremum[K]) copyResult(dst, src int32) {
	if a.distinct {
		a.sets[dst], a.n[dst] = nil, a.n[src]
		return
	}
	a.sets[dst] = nil
	if v, ok := a.best(src); ok {
		a.sets[dst] = map[K]int64{v: 1}
	}
}

func (a *retractExtremum[K]) sameResult(x, y int32) bool {
	if a.distinct {
		return a.n[x] == a.n[y]
	}
	vx, okx := a.best(x)
	vy, oky := a.best(y)
	return okx == oky && vx == vy
}

func (a *retractExtremum[K]) resultType() arrow.DataType { return a.dt }

func (a *retractExtremum[K]) save(e *checkpoint.Encoder, n int) {
	checkpoint.Ints(e, a.n[:n])
	for _, set := range a.sets[:n] {
		e.Uint(uint64(len(set)))
		for _, v := range sortedKeys(set) {
			switch x := any(v).(type) {
			case int64:
				e.Int(x)
			case float64:
				e.Uint(math.Float64bits(x))
			case string:
				e.String(x)
			}
			e.Int(set[v])
		}
	}
}

func (a *retractExtremum[K]) load(d *checkpoint.Decoder, n int) {
	a.n = fit(d, checkpoint.ReadInts[int64](d), n)
	a.sets = make([]map[K]int64, n)
	for s := range a.sets {
		m := d.Len(2)
		for j := 0; j < m && d.Err() == nil; j++ {
			var v K
			switch p := any(&v).(type) {
			case *int64:
				*p = d.Int()
			case *float64:
				*p = math.Float64frombits(d.Uint())
			case *string:
				*p = d.String()
			}
			if a.sets[s] == nil {
				a.sets[s] = map[K]int64{}
			}
			a.sets[s][v] = d.Int()
		}
	}
}

func sortedKeys[K cmp.Ordered](m map[K]int64) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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

func stringValue(col arrow.Array, i int) string {
	return string([]byte(col.(*array.String).Value(i))) // the batch is borrowed
}

// Retractable says why aggregate spec over a column of type in cannot
// run over an update stream, or nil when it can.
func Retractable(spec AggSpec, in arrow.DataType) error {
	_, err := newRetractAccumulator(spec, in)
	return err
}
