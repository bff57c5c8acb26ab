package overop

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// TestRowsFrameSlidesAsTheAccumulators compares an operator whose
// aggregates all slide (SUM, AVG, COUNT of each numeric type, COUNT(*);
// its rounds keep only the columns they read) with one computing the
// same aggregates under a FILTER that is always TRUE, which takes the
// general accumulator path: their result columns must be identical bit
// for bit, floating-point sums of values of wildly different magnitude,
// wrapping integer sums and NULLs included, across random batches,
// watermarks and a checkpoint restored midway.
func TestRowsFrameSlidesAsTheAccumulators(t *testing.T) {
	var sliding, general []windowop.AggSpec
	for c := 3; c < numSchema.NumFields(); c++ {
		for _, kind := range []windowop.AggKind{windowop.Sum, windowop.Avg, windowop.Count} {
			sliding = append(sliding, windowop.AggSpec{Kind: kind, Input: c, Name: fmt.Sprintf("%s_%d", kind, c)})
		}
	}
	sliding = append(sliding, windowop.AggSpec{Kind: windowop.CountStar, Name: "n"})
	for _, a := range sliding {
		a.Filtered, a.Filter = true, 2
		general = append(general, a)
	}
	for _, preceding := range []int64{0, 1, 3, 17} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("preceding=%d/seed%d", preceding, seed), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var outs [2][]arrow.RecordBatch
				var ops [2]*Over
				var cfgs [2]Config
				for i, aggs := range [][]windowop.AggSpec{sliding, general} {
					cfgs[i] = Config{Input: numSchema, Time: 0, PartitionBy: []int{1}, Aggs: aggs, Rows: true, Preceding: preceding}
					op, err := New(cfgs[i], mem, &collect{add: func(r arrow.RecordBatch) { r.Retain(); outs[i] = append(outs[i], r) }})
					require.NoError(t, err)
					ops[i] = op
				}
				require.Equal(t, []int{3, 4, 5, 6, 7, 8}, ops[0].frameCols, "rounds keep the aggregated columns alone")
				require.False(t, ops[1].aggs.Slides(0))
				rng := rand.New(rand.NewPCG(seed, 11))
				ts := int64(0)
				for b := range 40 {
					rec := numBatch(mem, rng, 1+rng.IntN(60), &ts)
					wm := ts - int64(rng.IntN(3))
					for i, op := range ops {
						require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
						require.NoError(t, op.ProcessWatermark(wm))
						if b == 20 {
							var e checkpoint.Encoder
							require.NoError(t, op.SnapshotState(&e))
							op.Close()
							restored, err := New(cfgs[i], mem, op.out)
							require.NoError(t, err)
							d := checkpoint.NewDecoder(e.Data())
							require.NoError(t, restored.RestoreState(d))
							require.NoError(t, d.Finish())
							ops[i] = restored
						}
					}
					rec.Release()
				}
				for _, op := range ops {
					require.NoError(t, op.ProcessEnd())
					op.Close()
				}
				require.Equal(t, len(outs[0]), len(outs[1]))
				rows, base := 0, numSchema.NumFields()
				for k, slid := range outs[0] {
					gen := outs[1][k]
					for a := range sliding {
						x, y := slid.Column(base+a), gen.Column(base+a)
						require.True(t, array.Equal(x, y) || sameBits(x, y), "%s: %s vs %s", sliding[a].Name, x, y)
					}
					rows += int(slid.NumRows())
					slid.Release()
					gen.Release()
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
