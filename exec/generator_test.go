package exec

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/rowtime"
)

// drainGenerator reads every row of g as text, one string per row.
func drainGenerator(t *testing.T, g BatchMaker, schema *arrow.Schema, size int) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := (&MakerSource{Maker: g, SourceSpec: SourceSpec{Schema: schema, BatchSize: size}}).Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, 1, r.NumSplits())
	var rows []string
	ended := false
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.End {
			require.False(t, ended, "one end per split")
			ended = true
			continue
		}
		require.LessOrEqual(t, b.Record.NumRows(), int64(size))
		for i := range int(b.Record.NumRows()) {
			var cols []string
			for _, c := range b.Record.Columns() {
				cols = append(cols, c.ValueStr(i))
			}
			rows = append(rows, strings.Join(cols, "|"))
		}
		b.Record.Release()
	}
	require.True(t, ended)
	require.Equal(t, int64(len(rows)), r.Stats().Rows)
	return rows
}

var datagenSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
	{Name: "f", Type: arrow.PrimitiveTypes.Float32},
	{Name: "d", Type: arrow.PrimitiveTypes.Float64},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 6, Scale: 2}},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "ltz", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	{Name: "seq", Type: arrow.BinaryTypes.String},
}, nil)

func newDatagen(seed, rows int64) *DatagenSource {
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC))
	return &DatagenSource{
		NumberOfRows: rows, RowsPerSecond: 10, Throttle: false, Seed: seed, Clock: clock, Location: time.UTC,
		Fields: []DatagenField{
			{Name: "id", Sequence: true, Start: 1, End: 1 << 40},
			{Name: "s", Length: 21},
			{Name: "i8", Min: -128, Max: 127},
			{Name: "i16", Min: 0, Max: 9},
			{Name: "i32", Min: -5, Max: 5},
			{Name: "f", MinF: 0, MaxF: 1},
			{Name: "d", MinF: -10, MaxF: 10},
			{Name: "dec", Min: -99999, Max: 99999},
			{Name: "b"},
			{Name: "day", MaxPast: 72 * time.Hour},
			{Name: "ts", MaxPast: 10 * time.Second},
			{Name: "ltz", MaxPast: 0},
			{Name: "seq", Sequence: true, Start: -3, End: 1 << 40},
		},
	}
}

func TestDatagenIsDeterministicWhateverTheBatchSize(t *testing.T) {
	want := drainGenerator(t, newDatagen(7, 5000), datagenSchema, 4096)
	require.Len(t, want, 5000)
	for _, size := range []int{1, 7} {
		require.Equal(t, want, drainGenerator(t, newDatagen(7, 5000), datagenSchema, size), "batch size %d", size)
	}
	require.NotEqual(t, want, drainGenerator(t, newDatagen(8, 5000), datagenSchema, 4096), "another seed, other rows")
	require.Equal(t, "1|", want[0][:2])
	require.True(t, strings.HasSuffix(want[0], "|-3"), "a string sequence: %s", want[0])
}

func TestDatagenValuesStayInBounds(t *testing.T) {
	g := newDatagen(1, 2000)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := g.Open(mem, datagenSchema, 500)
	require.NoError(t, err)
	defer r.Close()
	now := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	seen := map[int16]bool{}
	var id int64 = 1
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.End {
			continue
		}
		rec := b.Record
		for i := range int(rec.NumRows()) {
			require.Equal(t, id, rec.Column(0).(interface{ Value(int) int64 }).Value(i))
			id++
			require.Len(t, rec.Column(1).ValueStr(i), 21)
			v16 := rec.Column(3).(interface{ Value(int) int16 }).Value(i)
			require.True(t, v16 >= 0 && v16 <= 9)
			seen[v16] = true
			v32 := rec.Column(4).(interface{ Value(int) int32 }).Value(i)
			require.True(t, v32 >= -5 && v32 <= 5)
			d := rec.Column(6).(interface{ Value(int) float64 }).Value(i)
			require.True(t, d >= -10 && d <= 10)
			day := rec.Column(9).(interface{ Value(int) arrow.Date32 }).Value(i)
			require.True(t, day >= arrow.Date32FromTime(now)-3 && day <= arrow.Date32FromTime(now), "day %d", day)
			ts := int64(rec.Column(10).(interface{ Value(int) arrow.Timestamp }).Value(i))
			require.True(t, ts >= now.UnixMilli()-10_000 && ts <= now.UnixMilli())
			require.Equal(t, now.UnixMilli(), int64(rec.Column(11).(interface{ Value(int) arrow.Timestamp }).Value(i)))
		}
		rec.Release()
	}
	require.Len(t, seen, 10, "every value of [0, 9] drawn")
}

func TestDatagenSequenceEndsTheSource(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32}}, nil)
	g := &DatagenSource{NumberOfRows: -1, Fields: []DatagenField{{Name: "n", Sequence: true, Start: 5, End: 9}}}
	require.True(t, g.Bounded())
	require.Equal(t, []string{"5", "6", "7", "8", "9"}, drainGenerator(t, g, schema, 2))
	g.NumberOfRows = 3
	require.Equal(t, []string{"5", "6", "7"}, drainGenerator(t, g, schema, 2))
	g.Fields[0].Sequence = false
	g.NumberOfRows = -1
	require.False(t, g.Bounded())

	whole := &DatagenSource{NumberOfRows: -1, Fields: []DatagenField{{Sequence: true, Start: math.MinInt64, End: math.MaxInt64}}}
	require.Equal(t, int64(math.MaxInt64), whole.Rows(), "a sequence over all of int64 does not overflow")

	dec := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}}}, nil)
	g = &DatagenSource{NumberOfRows: -1, Fields: []DatagenField{{Name: "d", Sequence: true, Start: -1, End: 1}}}
	require.Equal(t, []string{"-1", "0", "1"}, drainGenerator(t, g, dec, 7), "a DECIMAL sequence counts whole numbers (not -0.01, 0, 0.01)")
}

func TestDatagenPacesOnlyWhenThrottled(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32}}, nil)
	g := &DatagenSource{NumberOfRows: 30, RowsPerSecond: 100, Fields: []DatagenField{{Name: "n", Min: 0, Max: 1}}}
	start := time.Now()
	drainGenerator(t, g, schema, 4096)
	require.Less(t, time.Since(start), 100*time.Millisecond, "not throttled: no sleeping")
	g.Throttle = true
	start = time.Now()
	drainGenerator(t, g, schema, 4096)
	// 30 rows at 100 per second, in batches of 10: the last starts at 0.2 s.
	require.GreaterOrEqual(t, time.Since(start), 190*time.Millisecond)
}
