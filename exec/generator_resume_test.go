package exec

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/rowtime"
)

// generatorResumeCase is a generator whose read is interrupted and resumed.
type generatorResumeCase struct {
	name   string
	g      BatchMaker
	schema *arrow.Schema
	rows   int  // rows to compare of an unbounded source (at least 3 batches); a bounded one is read to its end
	big    bool // too many rows to read a row at a time
}

// readGeneratorSteps takes up to steps steps of r (batches and the split's end),
// appending each row as text; it reports whether r reached io.EOF.
func readGeneratorSteps(t *testing.T, r BatchReader, steps int, rows []string) ([]string, bool) {
	t.Helper()
	for range steps {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows, true
		}
		require.NoError(t, err)
		if b.End {
			continue
		}
		for i := range int(b.Record.NumRows()) {
			var cols []string
			for _, c := range b.Record.Columns() {
				cols = append(cols, c.ValueStr(i))
			}
			rows = append(rows, strings.Join(cols, "|"))
		}
		b.Record.Release()
	}
	return rows, false
}

func openGeneratorAt(t *testing.T, c generatorResumeCase, mem memory.Allocator, size int, at []byte) (BatchReader, error) {
	t.Helper()
	var d *checkpoint.Decoder
	if at != nil {
		d = checkpoint.NewDecoder(at)
	}
	return (&MakerSource{Maker: c.g, SourceSpec: SourceSpec{Schema: c.schema, BatchSize: size}}).Open(mem, d)
}

// saveGeneratorAfter reads steps steps of a fresh read and returns its rows and
// its saved state.
func saveGeneratorAfter(t *testing.T, c generatorResumeCase, mem memory.Allocator, size, steps int) ([]string, []byte) {
	t.Helper()
	r, err := openGeneratorAt(t, c, mem, size, nil)
	require.NoError(t, err)
	defer r.Close()
	rows, _ := readGeneratorSteps(t, r, steps, nil)
	var e checkpoint.Encoder
	require.NoError(t, r.(StateReader).SaveState(&e))
	return rows, e.Data()
}

// requireGeneratorResumes checks that a read cut after k steps, for several k, and
// resumed from its saved state delivers the rows of an uninterrupted read.
func requireGeneratorResumes(t *testing.T, c generatorResumeCase, size int) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	steps := math.MaxInt // a bounded source: to its end
	if c.rows > 0 {
		steps = max((c.rows+size-1)/size, 3)
	}
	r, err := openGeneratorAt(t, c, mem, size, nil)
	require.NoError(t, err)
	want, eof := readGeneratorSteps(t, r, steps, nil)
	require.NoError(t, r.Close())
	if c.rows > 0 {
		require.False(t, eof)
		steps = (len(want) + size - 1) / size
	} else {
		require.True(t, eof)
		steps = (len(want)+size-1)/size + 1 // the batches and the end
	}
	if !strings.HasSuffix(c.name, "no rows") {
		require.NotEmpty(t, want)
	}
	for _, k := range []int{0, 1, 2, steps / 2, steps - 1, steps} {
		if k > steps {
			continue
		}
		before, state := saveGeneratorAfter(t, c, mem, size, k)
		require.LessOrEqual(t, len(state), 16+len(c.schema.Fields())*32, "state size is O(columns)")
		r, err := openGeneratorAt(t, c, mem, size, state)
		require.NoError(t, err, "resume after %d steps", k)
		more := steps - k // an unbounded read: to the rows compared
		if c.rows == 0 {
			more++ // a bounded one: to its EOF
		}
		got, eof := readGeneratorSteps(t, r, more, before)
		require.Equal(t, c.rows == 0, eof, "resume after %d steps", k)
		require.Equal(t, want, got, "%s at batch size %d, resumed after %d steps", c.name, size, k)
		require.Equal(t, int64(len(want)), r.Stats().Rows)
		require.NoError(t, r.Close())
		// The resumed read checkpoints as the uninterrupted one.
		if k > 0 && k < steps {
			r, err := openGeneratorAt(t, c, mem, size, state)
			require.NoError(t, err)
			var e checkpoint.Encoder
			require.NoError(t, r.(StateReader).SaveState(&e))
			require.Equal(t, state, e.Data())
			require.NoError(t, r.Close())
		}
	}
}

func generatorResumeCases() []generatorResumeCase {
	tz := time.FixedZone("UTC-5", -5*3600)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 2, 30, 0, 0, time.UTC))
	allTypes := func(seed, rows int64) *DatagenSource {
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
	seq := &DatagenSource{NumberOfRows: -1, Seed: 3, Fields: []DatagenField{
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
	rnd := &DatagenSource{NumberOfRows: -1, Seed: -9, Clock: clock, Location: tz, Fields: []DatagenField{
		{Name: "all", Min: math.MinInt64, Max: math.MaxInt64},
		{Name: "pow2", Min: -512, Max: 511},
		{Name: "odd", Min: 0, Max: math.MaxInt64/3*2 + 1}, // rejects about a third of its draws
		{Name: "s", Length: 37},
		{Name: "s0", Length: 0},
		{Name: "b"},
		{Name: "day", MaxPast: 400 * 24 * time.Hour},
		{Name: "ts", MaxPast: time.Hour},
	}}
	cases := []generatorResumeCase{
		{name: "datagen all types, number-of-rows", g: allTypes(7, 1000), schema: datagenSchema},
		{name: "datagen all types, another seed", g: allTypes(-12345, 5000), schema: datagenSchema, big: true},
		{name: "datagen all types, unbounded rows", g: allTypes(1, -1), schema: datagenSchema, rows: 1000},
		{name: "datagen sequences end the read", g: seq, schema: seqSchema},
		{name: "datagen unbounded random", g: rnd, schema: rndSchema, rows: 1000},
		{name: "datagen no rows", g: allTypes(7, 0), schema: datagenSchema},
	}
	for _, table := range NexmarkTables() {
		g, schema := newNexmark(table, 1234, 5)
		cases = append(cases, generatorResumeCase{name: "nexmark " + table, g: g, schema: schema})
		g, _ = newNexmark(table, 15_000, 5)
		cases = append(cases, generatorResumeCase{name: "nexmark many " + table, g: g, schema: schema, big: true})
		u, _ := newNexmark(table, -1, 6)
		cases = append(cases, generatorResumeCase{name: "nexmark unbounded " + table, g: u, schema: schema, rows: 700})
	}
	// Bids with only the columns drawn before the price read.
	bid, all := newNexmark("bid", 1500, 11)
	bid.Columns, bid.Read = []int{5, 0, 1}, []bool{true, true, true}
	cases = append(cases, generatorResumeCase{name: "nexmark bid, pruned", g: bid,
		schema: arrow.NewSchema([]arrow.Field{all.Field(5), all.Field(0), all.Field(1)}, nil)})
	return cases
}

func TestGeneratorsResumeFromSavedState(t *testing.T) {
	for _, c := range generatorResumeCases() {
		for _, size := range []int{1, 7, 4096} {
			if c.big && size == 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", c.name, size), func(t *testing.T) {
				t.Parallel()
				requireGeneratorResumes(t, c, size)
			})
		}
	}
}

// A saved state that does not fit the source is refused with
// ErrCorrupt, never a panic; so is any truncation of it.
func TestGeneratorResumeRefusesBadState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	refused := func(c generatorResumeCase, state []byte, msg string) {
		t.Helper()
		r, err := openGeneratorAt(t, c, mem, 7, state)
		require.ErrorIs(t, err, checkpoint.ErrCorrupt, "%s: %x", c.name, state)
		if msg != "" {
			require.ErrorContains(t, err, msg)
		}
		require.Nil(t, r)
	}
	dg := generatorResumeCase{name: "datagen", g: newDatagen(7, 100), schema: datagenSchema}
	nb, nbSchema := newNexmark("bid", 1000, 1)
	nx := generatorResumeCase{name: "nexmark", g: nb, schema: nbSchema}
	for _, c := range []generatorResumeCase{dg, nx} {
		_, state := saveGeneratorAfter(t, c, mem, 7, 3)
		for n := range len(state) {
			refused(c, state[:n], "")
		}
		refused(c, append(state[:len(state):len(state)], 0), "left over")
		// Any byte flipped: refused or resumed, never a panic.
		for i := range state {
			bad := append([]byte(nil), state...)
			bad[i] ^= 0x41
			if r, err := openGeneratorAt(t, c, mem, 7, bad); err == nil {
				_, _ = readGeneratorSteps(t, r, 2, nil)
				require.NoError(t, r.Close())
			} else {
				require.ErrorIs(t, err, checkpoint.ErrCorrupt)
			}
		}
	}
	// Another generator's state.
	_, dgState := saveGeneratorAfter(t, dg, mem, 7, 2)
	_, nxState := saveGeneratorAfter(t, nx, mem, 7, 2)
	refused(nx, dgState, `"datagen" generator given to "nexmark"`)
	refused(dg, nxState, `"nexmark" generator given to "datagen"`)
	// Another nexmark table or other columns.
	na, naSchema := newNexmark("auction", 1000, 1)
	refused(generatorResumeCase{g: na, schema: naSchema}, nxState, "nexmark state of table")

	state := func(kind string, rows int64, ended bool, rest func(e *checkpoint.Encoder)) []byte {
		var e checkpoint.Encoder
		e.String(kind)
		e.Int(rows)
		e.Bool(ended)
		rest(&e)
		return e.Data()
	}
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
	fields := dg.g.(*DatagenSource).Fields
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
	r, err := openGeneratorAt(t, dg, mem, 7, state("datagen", 5, false, cols(len(fields), isSeq, at(5))))
	require.NoError(t, err)
	require.NoError(t, r.Close())
	refused(dg, state("datagen", -1, false, cols(len(fields), isSeq, at(-1))), "generator at row -1")
	refused(dg, state("datagen", 101, false, cols(len(fields), isSeq, at(101))), "generator at row 101 of 100")
	refused(dg, state("datagen", 99, true, cols(len(fields), isSeq, at(99))), "generator ended at row 99 of 100")
	refused(dg, state("datagen", 5, false, cols(len(fields)-1, isSeq, at(5))), "datagen state of 12 columns for 13")
	refused(dg, state("datagen", 5, false, cols(len(fields)+1, func(int) bool { return false }, func(int) int64 { return 0 })), "")
	refused(dg, state("datagen", 5, false, cols(len(fields), func(i int) bool { return !isSeq(i) }, at(5))), "is a sequence in the state")
	refused(dg, state("datagen", 5, false, cols(len(fields), isSeq, at(6))), "sequence at 7 after 5 rows from 1")
	refused(dg, state("datagen", 5, false, cols(len(fields), isSeq, func(i int) int64 { return at(5)(i) + 1 })), "")
	refused(dg, state("datagen", 5, false, func(e *checkpoint.Encoder) { e.Uint(1 << 40) }), "runs past the end")
	refused(nx, state("nexmark", math.MinInt64, false, func(e *checkpoint.Encoder) {
		e.String("bid")
		checkpoint.Ints(e, nb.Columns)
	}), "generator at row")
	refused(nx, []byte{}, "")
}

// readOnceMaker is a BatchMaker that cannot resume, as the tables a Go
// program attaches cannot.
type readOnceMaker struct{}

func (readOnceMaker) Open(memory.Allocator, *arrow.Schema, int) (BatchReader, error) {
	return nil, ErrSource
}
func (readOnceMaker) Explain() string { return "connector=[read once]" }
func (readOnceMaker) Bounded() bool   { return true }

// A connector that cannot resume is refused a saved state, and a job over
// it cannot be checkpointed; a generator's can.
func TestGeneratorCheckpointable(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := &MakerSource{Maker: readOnceMaker{}, SourceSpec: SourceSpec{Schema: schema}}
	_, err := src.Open(mem, checkpoint.NewDecoder(nil))
	require.ErrorIs(t, err, ErrCheckpointUnsupported)
	require.ErrorContains(t, (&Job{Source: src}).checkpointable(), "cannot resume from a position")
	for _, c := range generatorResumeCases()[:1] {
		require.NoError(t, (&Job{Source: &MakerSource{Maker: c.g, SourceSpec: SourceSpec{Schema: c.schema}}}).checkpointable())
	}
	g, schema := newNexmark("person", 10, 0)
	require.NoError(t, (&Job{Source: &MakerSource{Maker: g, SourceSpec: SourceSpec{Schema: schema}}}).checkpointable())
}
