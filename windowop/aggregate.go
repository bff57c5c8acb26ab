package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/checkpoint"
)

// AggKind names an aggregate function the operator can compute.
type AggKind int

const (
	CountStar     AggKind = iota + 1 // COUNT(*): rows
	Count                            // COUNT(x): rows where x is not NULL
	Sum                              // SUM(x): NULL when every x is NULL
	Avg                              // AVG(x): integers truncate toward zero
	Min                              // MIN(x)
	Max                              // MAX(x)
	FirstValue                       // FIRST_VALUE(x): first non-NULL x by arrival
	LastValue                        // LAST_VALUE(x): last non-NULL x by arrival
	StddevPop                        // STDDEV_POP(x)
	StddevSamp                       // STDDEV_SAMP(x): NULL below two values
	VarPop                           // VAR_POP(x)
	VarSamp                          // VAR_SAMP(x): NULL below two values
	ListAgg                          // LISTAGG(x [, sep]): non-NULL x joined by arrival
	JSONArrayAgg                     // JSON_ARRAYAGG(x): items written by JSON_ARRAY, in one array (agg_json.go)
	JSONObjectAgg                    // JSON_OBJECTAGG(KEY k VALUE v): members written by JSON_OBJECT, in one object
	Percentile                       // PERCENTILE(x, p [, frequency]): continuous, as DOUBLE
	ArrayAgg                         // ARRAY_AGG(x): the values in an ARRAY by arrival (agg_array.go)
	Collect                          // COLLECT(x): the MULTISET of the non-NULL values (agg_collect.go)
	User                             // a Go program's aggregate (AggSpec.User)
	SingleValue                      // SINGLE_VALUE(x): the one row's x; a second row fails the run (agg_single_value.go)
)

var aggNames = map[AggKind]string{
	CountStar: "COUNT(*)", Count: "COUNT", Sum: "SUM", Avg: "AVG", Min: "MIN", Max: "MAX",
	FirstValue: "FIRST_VALUE", LastValue: "LAST_VALUE", StddevPop: "STDDEV_POP",
	StddevSamp: "STDDEV_SAMP", VarPop: "VAR_POP", VarSamp: "VAR_SAMP", ListAgg: "LISTAGG", User: "USER",
	JSONArrayAgg: "JSON_ARRAYAGG", JSONObjectAgg: "JSON_OBJECTAGG",
	Percentile: "PERCENTILE", ArrayAgg: "ARRAY_AGG", Collect: "COLLECT", SingleValue: "SINGLE_VALUE",
}

func (k AggKind) String() string {
	if n, ok := aggNames[k]; ok {
		return n
	}
	return "AGG?"
}

// AggSpec is one aggregate of a window aggregation.
type AggSpec struct {
	Kind     AggKind
	Input    int    // index of the argument column in the input; ignored by CountStar
	Name     string // output column name
	Distinct bool   // aggregate each distinct non-NULL value once
	// MoreInputs are the further argument columns of COUNT(DISTINCT a, b,
	// ...), which counts the distinct combinations without a NULL.
	MoreInputs []int
	// Filtered: only rows whose BOOLEAN column Filter is TRUE are folded
	// in (FILTER (WHERE ...)).
	Filtered bool
	Filter   int
	// Separator joins LISTAGG's values. It is used as given: the planner
	// fills in Flink's default "," when the query names none.
	Separator string
	// User is the aggregate of kind User.
	User UserAggregate
	// Percentage is PERCENTILE's p, in [0, 1]; its frequency, if any, is
	// MoreInputs[0].
	Percentage float64
	// Percentages are PERCENTILE(x, ARRAY[p1, p2, ...])'s, when
	// PercentageArray: the result is an ARRAY<DOUBLE> of the percentiles.
	Percentages     []float64
	PercentageArray bool
	// IgnoreNulls: ARRAY_AGG(x IGNORE NULLS) skips NULL values, which
	// Flink's default, RESPECT NULLS, keeps.
	IgnoreNulls bool
}

// Nullable tells whether the aggregate's result can be NULL: every
// aggregate but COUNT is NULL over a window without non-NULL values.
func (s AggSpec) Nullable() bool {
	return s.Kind != CountStar && s.Kind != Count && s.Kind != JSONArrayAgg && s.Kind != JSONObjectAgg && s.Kind != Collect
}

// accumulator holds one aggregate's state for every slot, in flat arrays
// indexed by slot. All methods work on many rows or slots per call, so the
// interface is crossed once per batch segment, never per row.
type accumulator interface {
	// resize makes room for slots [0, n).
	resize(n int)
	// reset clears a slot for reuse.
	reset(slot int32)
	// update folds rows [from, to) of col into their slots; slots[i] < 0
	// means row i reaches no window. Batches come in arrival order, and
	// within a batch the row index is the arrival order; a batch may be
	// passed in segments, or more than once with other slots (a sliding
	// count window folds it once per overlapping window).
	update(col arrow.Array, slots []int32, from, to int)
	// appendResults appends the result of each slot to b.
	appendResults(slots []int32, b array.Builder)
	// merge folds slot src into dst (HOP/CUMULATE panes into a window,
	// merging sessions); copyTo overwrites dst with a deep copy of src.
	merge(dst, src int32)
	copyTo(dst, src int32)
	// sameResult reports whether two slots give the same result, so an
	// update is emitted only when the value changed.
	sameResult(a, b int32) bool
	resultType() arrow.DataType
	// save writes slots [0, n) (freed slots too, as reset left them) and
	// the state that is not per slot, such as the arrival counter, so a
	// restored query folds, merges and orders exactly as this one would.
	// It is called between batches, never mid-batch.
	save(e *checkpoint.Encoder, n int)
	// load reads what save wrote into a fresh accumulator of the same spec
	// and input type, leaving exactly n slots. Input that does not fit is
	// reported through d, never by a panic; after an error the
	// accumulator is garbage and must be dropped.
	load(d *checkpoint.Decoder, n int)
}

// failer is an accumulator that can meet a result it cannot hold (LISTAGG
// past its limit): it records the error, and the operator stops the run
// with it before the batch that would carry the result goes out.
type failer interface{ failed() error }

// accumulatorsFailed returns the first error an accumulator recorded.
func accumulatorsFailed(accs []accumulator) error {
	for _, a := range accs {
		if f, ok := a.(failer); ok {
			if err := f.failed(); err != nil {
				return err
			}
		}
	}
	return nil
}

// newAccumulator builds the accumulator for spec over an input column of
// type in (nil for COUNT(*)). Result types follow Flink (FlinkTypeSystem,
// LogicalTypeMerging): COUNT is BIGINT; SUM keeps its argument's type
// except DECIMAL(p, s), which sums to DECIMAL(38, s); AVG keeps its
// argument's type except DECIMAL(p, s) → DECIMAL(38, max(6, s)); MIN, MAX,
// FIRST_VALUE and LAST_VALUE keep the argument's type; the variance family
// is DOUBLE, as is PERCENTILE (ARRAY<DOUBLE> over an ARRAY of
// percentages); LISTAGG is STRING; ARRAY_AGG is ARRAY<T> and COLLECT
// MULTISET<T> of the argument's type T.
func newAccumulator(spec AggSpec, in arrow.DataType) (accumulator, error) {
	if spec.Kind != CountStar && in == nil {
		return nil, fmt.Errorf("%s needs an argument column", spec.Kind)
	}
	if spec.Distinct {
		switch spec.Kind {
		case Min, Max:
			// the smallest distinct value is the smallest value
		case ListAgg:
			return newListAggAcc(in, spec.Separator, true)
		case ArrayAgg:
			return newArrayAggAcc(in, spec.IgnoreNulls, true)
		case Collect:
			return newCollectAcc(in, true)
		case Count, Sum, Avg, StddevPop, StddevSamp, VarPop, VarSamp, Percentile:
			if spec.Kind == Percentile && len(spec.MoreInputs) > 0 {
				return nil, fmt.Errorf("PERCENTILE(DISTINCT ...) with a frequency is not supported")
			}
			plain := spec
			plain.Distinct = false
			inner, err := newAccumulator(plain, in)
			if err != nil {
				return nil, err
			}
			return newDistinctAcc(inner, in)
		default:
			return nil, fmt.Errorf("%s(DISTINCT ...) is not supported yet", spec.Kind)
		}
	}
	switch spec.Kind {
	case CountStar:
		return &countAcc{star: true}, nil
	case Count:
		return &countAcc{}, nil
	case Sum:
		return newSumAcc(in)
	case Avg:
		return newAvgAcc(in)
	case Min:
		return newPickAcc(in, pickMin)
	case Max:
		return newPickAcc(in, pickMax)
	case FirstValue:
		return newPickAcc(in, pickFirst)
	case LastValue:
		return newPickAcc(in, pickLast)
	case StddevPop, StddevSamp, VarPop, VarSamp:
		return newVarianceAcc(spec.Kind, in)
	case ListAgg:
		return newListAggAcc(in, spec.Separator, false)
	case User:
		return newUserAcc(spec.User)
	case JSONArrayAgg, JSONObjectAgg:
		return newJSONAggAcc(in, spec.Kind == JSONObjectAgg)
	case Percentile:
		return newPercentileAcc(in, spec.Percentage, spec.Percentages, spec.PercentageArray)
	case ArrayAgg:
		return newArrayAggAcc(in, spec.IgnoreNulls, false)
	case Collect:
		return newCollectAcc(in, false)
	case SingleValue:
		return newSingleValueAcc(in, false)
	}
	return nil, fmt.Errorf("aggregate %s is not supported yet", spec.Kind)
}

// countAcc is COUNT(*) and COUNT(x).
type countAcc struct {
	star   bool
	counts []int64
}

func (a *countAcc) resize(n int) {
	a.counts = extendTo(a.counts, n)
}

func (a *countAcc) reset(slot int32) { a.counts[slot] = 0 }

func (a *countAcc) update(col arrow.Array, slots []int32, from, to int) {
	counts := a.counts
	if a.star || col.NullN() == 0 {
		for _, s := range slots[from:to] {
			if s >= 0 {
				counts[s]++
			}
		}
		return
	}
	for i := from; i < to; i++ {
		if s := slots[i]; s >= 0 && col.IsValid(i) {
			counts[s]++
		}
	}
}

func (a *countAcc) appendResults(slots []int32, b array.Builder) {
	appendIntsAt(b, slots, nil, a.counts) // a BIGINT, never NULL
}

func (a *countAcc) merge(dst, src int32)       { a.counts[dst] += a.counts[src] }
func (a *countAcc) copyTo(dst, src int32)      { a.counts[dst] = a.counts[src] }
func (a *countAcc) sameResult(x, y int32) bool { return a.counts[x] == a.counts[y] }
func (*countAcc) resultType() arrow.DataType   { return arrow.PrimitiveTypes.Int64 }

func (a *countAcc) save(e *checkpoint.Encoder, n int) { checkpoint.Ints(e, a.counts[:n]) }

func (a *countAcc) load(d *checkpoint.Decoder, n int) {
	a.counts = rowCounts(d, fit(d, checkpoint.ReadInts[int64](d), n))
}

// resultCopier is an accumulator whose result needs less than its whole
// state: copyResult copies into dst only what appendResults and
// sameResult read. A shadow slot, which only ever shows the values
// emitted last, takes that copy (a DISTINCT aggregate's result without
// its set of values).
type resultCopier interface{ copyResult(dst, src int32) }

// copyResult copies src's result into dst: the whole state unless the
// accumulator can copy less.
func copyResult(a accumulator, dst, src int32) {
	if c, ok := a.(resultCopier); ok {
		c.copyResult(dst, src)
		return
	}
	a.copyTo(dst, src)
}
