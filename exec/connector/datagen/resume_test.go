package datagen

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
	"github.com/wsql/wsql/rowtime"
)

func datagenResumeCases() []generatortest.ResumeCase {
	tz := time.FixedZone("UTC-5", -5*3600)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 2, 30, 0, 0, time.UTC))
	allTypes := func(seed, rows int64) *Source {
		g := newDatagen(seed, rows)
		g.Location = tz
		g.Clock = clock
		return g
	}
	// Sequences of every type a sequence has, the shortest ending the read.
	seqSchema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32},
		{Name: "d", Type: arrow.PrimitiveTypes.Float64},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 12, Scale: 3}},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "r", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	seq := &Source{NumberOfRows: -1, Seed: 3, Fields: []Field{
		{Name: "i8", Sequence: true, Start: -100, End: 100_000}, // wraps as int8
		{Name: "i16", Sequence: true, Start: 5, End: 100_000},
		{Name: "i32", Sequence: true, Start: math.MaxInt32 - 10, End: math.MaxInt32 + 100_000},
		{Name: "i64", Sequence: true, Start: math.MinInt64, End: math.MinInt64 + 2999}, // ends the read
		{Name: "f", Sequence: true, Start: -1000, End: 100_000},
		{Name: "d", Sequence: true, Start: 0, End: 100_000},
		{Name: "dec", Sequence: true, Start: -7, End: 100_000},
		{Name: "s", Sequence: true, Start: 99, End: 100_000},
		{Name: "r", Min: math.MinInt64, Max: math.MaxInt64},
	}}
	// Unbounded random values: the whole int64 range, a power-of-two span
	// (masked), a span with rejections, strings of several draws.
	rndSchema := arrow.NewSchema([]arrow.Field{
		{Name: "all", Type: arrow.PrimitiveTypes.Int64},
		{Name: "pow2", Type: arrow.PrimitiveTypes.Int32},
		{Name: "odd", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "s0", Type: arrow.BinaryTypes.String},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	}, nil)
	rnd := &Source{NumberOfRows: -1, Seed: -9, Clock: clock, Location: tz, Fields: []Field{
		{Name: "all", Min: math.MinInt64, Max: math.MaxInt64},
		{Name: "pow2", Min: -512, Max: 511},
		{Name: "odd", Min: 0, Max: math.MaxInt64/3*2 + 1}, // rejects about a third of its draws
		{Name: "s", Length: 37},
		{Name: "s0", Length: 0},
		{Name: "b"},
		{Name: "day", MaxPast: 400 * 24 * time.Hour},
		{Name: "ts", MaxPast: time.Hour},
	}}
	return []generatortest.ResumeCase{
		{Name: "datagen all types, number-of-rows", Maker: allTypes(7, 1000), Schema: datagenSchema},
		{Name: "datagen all types, another seed", Maker: allTypes(-12345, 5000), Schema: datagenSchema, Big: true},
		{Name: "datagen all types, unbounded rows", Maker: allTypes(1, -1), Schema: datagenSchema, Rows: 1000},
		{Name: "datagen sequences end the read", Maker: seq, Schema: seqSchema},
		{Name: "datagen unbounded random", Maker: rnd, Schema: rndSchema, Rows: 1000},
		{Name: "datagen no rows", Maker: allTypes(7, 0), Schema: datagenSchema},
	}
}

func TestDatagenResumesFromSavedState(t *testing.T) {
	generatortest.RunResumeCases(t, datagenResumeCases())
}

// A saved state that does not fit the source is refused with
// ErrCorrupt, never a panic; so is any truncation of it.
func TestDatagenResumeRefusesBadState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dg := generatortest.ResumeCase{Name: "datagen", Maker: newDatagen(7, 100), Schema: datagenSchema}
	refused := func(state []byte, msg string) {
		t.Helper()
		generatortest.RequireRefused(t, dg, mem, state, msg)
	}
	generatortest.RequireDamageRefused(t, dg, mem)
	// Another generator's state.
	refused(generatortest.State("nexmark", 2, false, func(e *checkpoint.Encoder) {
		e.String("bid")
		checkpoint.Ints(e, []int{0, 1, 2, 3, 4, 5, 6})
	}), `"nexmark" generator given to "datagen"`)

	state := generatortest.State
	cols := func(n int, seq func(i int) bool, next func(i int) int64) func(e *checkpoint.Encoder) {
		return func(e *checkpoint.Encoder) {
			e.Uint(uint64(n))
			for i := range n {
				e.Bool(seq(i))
				e.Uint(1)
				e.Uint(2)
				e.Int(next(i))
			}
		}
	}
	fields := dg.Maker.(*Source).Fields
	isSeq := func(i int) bool { return fields[i].Sequence }
	at := func(rows int64) func(int) int64 {
		return func(i int) int64 {
			if fields[i].Sequence {
				return fields[i].Start + rows
			}
			return fields[i].Start
		}
	}
	// A well-formed state is accepted, then each field broken.
	r, err := generatortest.OpenAt(t, dg, mem, 7, state("datagen", 5, false, cols(len(fields), isSeq, at(5))))
	require.NoError(t, err)
	require.NoError(t, r.Close())
	refused(state("datagen", -1, false, cols(len(fields), isSeq, at(-1))), "generator at row -1")
	refused(state("datagen", 101, false, cols(len(fields), isSeq, at(101))), "generator at row 101 of 100")
	refused(state("datagen", 99, true, cols(len(fields), isSeq, at(99))), "generator ended at row 99 of 100")
	refused(state("datagen", 5, false, cols(len(fields)-1, isSeq, at(5))), "datagen state of 12 columns for 13")
	refused(state("datagen", 5, false, cols(len(fields)+1, func(int) bool { return false }, func(int) int64 { return 0 })), "")
	refused(state("datagen", 5, false, cols(len(fields), func(i int) bool { return !isSeq(i) }, at(5))), "is a sequence in the state")
	refused(state("datagen", 5, false, cols(len(fields), isSeq, at(6))), "sequence at 7 after 5 rows from 1")
	refused(state("datagen", 5, false, cols(len(fields), isSeq, func(i int) int64 { return at(5)(i) + 1 })), "")
	refused(state("datagen", 5, false, func(e *checkpoint.Encoder) { e.Uint(1 << 40) }), "runs past the end")
}

// A datagen source can resume, so a job over it can be checkpointed.
func TestDatagenCheckpointable(t *testing.T) {
	c := datagenResumeCases()[0]
	require.NoError(t, (&exec.MakerSource{Maker: c.Maker, SourceSpec: exec.SourceSpec{Schema: c.Schema}}).Checkpointable())
}
