package datagen

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

	"github.com/wsql/wsql/exec/connector/generator/generatortest"
	"github.com/wsql/wsql/rowtime"
)

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

func newDatagen(seed, rows int64) *Source {
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC))
	return &Source{
		NumberOfRows: rows, RowsPerSecond: 10, Throttle: false, Seed: seed, Clock: clock, Location: time.UTC,
		Fields: []Field{
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
	want := generatortest.Drain(t, newDatagen(7, 5000), datagenSchema, 4096)
	require.Len(t, want, 5000)
	for _, size := range []int{1, 7} {
		require.Equal(t, want, generatortest.Drain(t, newDatagen(7, 5000), datagenSchema, size), "batch size %d", size)
	}
	require.NotEqual(t, want, generatortest.Drain(t, newDatagen(8, 5000), datagenSchema, 4096), "another seed, other rows")
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
	g := &Source{NumberOfRows: -1, Fields: []Field{{Name: "n", Sequence: true, Start: 5, End: 9}}}
	require.True(t, g.Bounded())
	require.Equal(t, []string{"5", "6", "7", "8", "9"}, generatortest.Drain(t, g, schema, 2))
	g.NumberOfRows = 3
	require.Equal(t, []string{"5", "6", "7"}, generatortest.Drain(t, g, schema, 2))
	g.Fields[0].Sequence = false
	g.NumberOfRows = -1
	require.False(t, g.Bounded())

	whole := &Source{NumberOfRows: -1, Fields: []Field{{Sequence: true, Start: math.MinInt64, End: math.MaxInt64}}}
	require.Equal(t, int64(math.MaxInt64), whole.Rows(), "a sequence over all of int64 does not overflow")

	dec := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}}}, nil)
	g = &Source{NumberOfRows: -1, Fields: []Field{{Name: "d", Sequence: true, Start: -1, End: 1}}}
	require.Equal(t, []string{"-1", "0", "1"}, generatortest.Drain(t, g, dec, 7), "a DECIMAL sequence counts whole numbers (not -0.01, 0, 0.01)")
}

func TestDatagenPacesOnlyWhenThrottled(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32}}, nil)
	g := &Source{NumberOfRows: 30, RowsPerSecond: 100, Fields: []Field{{Name: "n", Min: 0, Max: 1}}}
	start := time.Now()
	generatortest.Drain(t, g, schema, 4096)
	require.Less(t, time.Since(start), 100*time.Millisecond, "not throttled: no sleeping")
	g.Throttle = true
	start = time.Now()
	generatortest.Drain(t, g, schema, 4096)
	// 30 rows at 100 per second, in batches of 10: the last starts at 0.2 s.
	require.GreaterOrEqual(t, time.Since(start), 190*time.Millisecond)
}

// TestDatagenMakesThePinnedRows: the hash of the rows datagen made before
// it was rewritten for speed.
func TestDatagenMakesThePinnedRows(t *testing.T) {
	if got, want := generatortest.Hash(t, newDatagen(7, 20000), datagenSchema, 1000), "e177fc645f41b934"; got != want {
		t.Errorf("datagen: hash %s, want %s", got, want)
	}
}

// A random TIMESTAMP of any precision is the same instant Flink draws in
// milliseconds, kept in the column's unit: TIMESTAMP (6) in microseconds,
// TIMESTAMP(9) in nanoseconds, TIMESTAMP(0) truncated to its second.
func TestDatagenTimestampsKeepTheirUnit(t *testing.T) {
	now := time.Date(2024, 3, 1, 9, 30, 0, 123_000_000, time.UTC)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: &arrow.TimestampType{Unit: arrow.Second}},
		{Name: "ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
	}, nil)
	g := &Source{NumberOfRows: 1, Seed: 1, Clock: rowtime.NewManualClock(now), Location: time.UTC,
		Fields: []Field{{Name: "s"}, {Name: "ms"}, {Name: "us"}, {Name: "ns"}}}
	require.Equal(t, []string{"2024-03-01T09:30:00|2024-03-01T09:30:00.123|2024-03-01T09:30:00.123|2024-03-01T09:30:00.123Z"},
		generatortest.Drain(t, g, schema, 4))
}
