package overop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

var numSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.PrimitiveTypes.Int64},
	{Name: "yes", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// TestRowsFrameSlidesAsTheAccumulators compares, in one operator, every
// aggregate with a sliding form (SUM, AVG, COUNT of each numeric type,
// COUNT(*)) with the same aggregate under a FILTER that is always TRUE,
// which the general accumulator path computes: their columns must be
// identical bit for bit, floating-point sums of values of wildly
// different magnitude, wrapping integer sums and NULLs included, across
// random batches, watermarks and a checkpoint restored midway.
func TestRowsFrameSlidesAsTheAccumulators(t *testing.T) {
	var aggs []windowop.AggSpec
	for c := 3; c < numSchema.NumFields(); c++ {
		for _, kind := range []windowop.AggKind{windowop.Sum, windowop.Avg, windowop.Count} {
			aggs = append(aggs, windowop.AggSpec{Kind: kind, Input: c, Name: fmt.Sprintf("%s_%d", kind, c)})
		}
	}
	aggs = append(aggs, windowop.AggSpec{Kind: windowop.CountStar, Name: "n"}, windowop.AggSpec{Kind: windowop.Max, Input: 6, Name: "hi"})
	for _, a := range slices.Clone(aggs) {
		a.Name += "_general"
		a.Filtered, a.Filter = true, 2
		aggs = append(aggs, a)
	}
	half := len(aggs) / 2
	for _, preceding := range []int64{0, 1, 3, 17} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("preceding=%d/seed%d", preceding, seed), func(t *testing.T) {
				cfg := Config{Input: numSchema, Time: 0, PartitionBy: []int{1}, Aggs: aggs, Rows: true, Preceding: preceding}
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var outs []arrow.RecordBatch
				sink := &collect{add: func(r arrow.RecordBatch) { r.Retain(); outs = append(outs, r) }}
				op, err := New(cfg, mem, sink)
				require.NoError(t, err)
				require.True(t, op.aggs.Slides(0))
				require.False(t, op.aggs.Slides(half-1)) // MAX
				require.False(t, op.aggs.Slides(half))
				rng := rand.New(rand.NewPCG(seed, 11))
				ts := int64(0)
				for b := range 40 {
					rec := numBatch(mem, rng, 1+rng.IntN(60), &ts)
					require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
					rec.Release()
					require.NoError(t, op.ProcessWatermark(ts-int64(rng.IntN(3))))
					if b == 20 {
						var e checkpoint.Encoder
						require.NoError(t, op.SnapshotState(&e))
						op.Close()
						op, err = New(cfg, mem, sink)
						require.NoError(t, err)
						d := checkpoint.NewDecoder(e.Data())
						require.NoError(t, op.RestoreState(d))
						require.NoError(t, d.Finish())
					}
				}
				require.NoError(t, op.ProcessEnd())
				op.Close()
				rows := 0
				for _, out := range outs {
					base := numSchema.NumFields()
					for a := range half {
						slid, general := out.Column(base+a), out.Column(base+half+a)
						require.True(t, array.Equal(slid, general) || sameBits(slid, general), "%s: %s vs %s", aggs[a].Name, slid, general)
					}
					rows += int(out.NumRows())
					out.Release()
				}
				require.Positive(t, rows)
			})
		}
	}
}

// sameBits compares float columns bit for bit, so that NaN equals NaN.
func sameBits(a, b arrow.Array) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) != b.IsNull(i) {
			return false
		}
		if a.IsNull(i) {
			continue
		}
		switch x := a.(type) {
		case *array.Float64:
			if math.Float64bits(x.Value(i)) != math.Float64bits(b.(*array.Float64).Value(i)) {
				return false
			}
		case *array.Float32:
			if math.Float32bits(x.Value(i)) != math.Float32bits(b.(*array.Float32).Value(i)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// numBatch is n rows of 5 partitions in time order from *ts on, about a
// sixth of each value NULL; integers near their type's limits, floats of
// magnitudes from 1e-8 to 1e15 (so that the order of additions shows in
// the sums), now and then an infinity.
func numBatch(mem memory.Allocator, rng *rand.Rand, n int, ts *int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, numSchema)
	defer b.Release()
	for range n {
		*ts += int64(rng.IntN(2))
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(*ts))
		b.Field(1).(*array.Int64Builder).Append(int64(rng.IntN(5)))
		b.Field(2).(*array.BooleanBuilder).Append(true)
		for c := 3; c < numSchema.NumFields(); c++ {
			if rng.IntN(6) == 0 {
				b.Field(c).AppendNull()
				continue
			}
			f := math.Pow(10, float64(rng.IntN(24)-8)) * (rng.Float64() - 0.5)
			if rng.IntN(200) == 0 {
				f = math.Inf(1)
			}
			switch fb := b.Field(c).(type) {
			case *array.Int8Builder:
				fb.Append(int8(rng.Uint32()))
			case *array.Int16Builder:
				fb.Append(int16(rng.Uint32()))
			case *array.Int32Builder:
				fb.Append(int32(rng.Uint32()))
			case *array.Int64Builder:
				fb.Append(int64(rng.Uint64()))
			case *array.Float32Builder:
				fb.Append(float32(f))
			case *array.Float64Builder:
				fb.Append(f)
			}
		}
	}
	return b.NewRecordBatch()
}

// collect hands each batch to add.
type collect struct{ add func(arrow.RecordBatch) }

func (c *collect) ProcessBatch(b pipeline.Batch) error { c.add(b.Record); return nil }
func (c *collect) ProcessWatermark(int64) error        { return nil }
func (c *collect) ProcessEnd() error                   { return nil }
func (c *collect) Close()                              {}
