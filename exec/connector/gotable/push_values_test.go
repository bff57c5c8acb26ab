package gotable

import (
	"context"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

var checkedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "ratio", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// Values the CSV and JSON decoders refuse are refused when pushed from Go
// too, naming the column: before, NaN became a garbage DECIMAL, 1e300 a
// FLOAT +Inf, and invalid UTF-8 a STRING.
func TestPushSourceRefusesWhatTheDecodersRefuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s := NewPushSource(checkedSchema, mem, 8)
	defer s.Release()
	ts := at("09:00:00")
	for _, c := range []struct {
		row []any
		err string
	}{
		{[]any{ts, math.NaN(), nil, nil}, "column price is DECIMAL(10, 2) and cannot take NaN: a DECIMAL has no NaN or infinity"},
		{[]any{ts, math.Inf(-1), nil, nil}, "column price is DECIMAL(10, 2) and cannot take -Inf: a DECIMAL has no NaN or infinity"},
		{[]any{ts, float32(math.NaN()), nil, nil}, "column price is DECIMAL(10, 2) and cannot take NaN: a DECIMAL has no NaN or infinity"},
		{[]any{ts, "NaN", nil, nil}, `column price is DECIMAL(10, 2) and cannot take "NaN": invalid decimal`},
		{[]any{ts, "1e1000000000", nil, nil}, `column price is DECIMAL(10, 2) and cannot take "1e1000000000": invalid decimal`},
		{[]any{ts, 1e300, nil, nil}, "column price is DECIMAL(10, 2) and 1e+300 does not fit in it"},
		{[]any{ts, int64(math.MaxInt64), nil, nil}, "column price is DECIMAL(10, 2) and 9223372036854775807 does not fit in it"},
		{[]any{ts, nil, 1e300, nil}, "column ratio is FLOAT and 1e+300 is out of its range; declare it DOUBLE"},
		{[]any{ts, nil, -1e39, nil}, "column ratio is FLOAT and -1e+39 is out of its range; declare it DOUBLE"},
		{[]any{ts, nil, nil, "ab\xffc"}, `column name is STRING and "ab\xffc" is not valid UTF-8`},
		{[]any{ts, nil, nil, []byte{0xc3}}, `column name is STRING and "\xc3" is not valid UTF-8`},
	} {
		require.EqualError(t, s.AppendValues(ctx, 0, c.row), c.err)
	}
	// what the decoders accept still goes in: an explicit infinity or NaN
	// in a FLOAT, a float rounded as CAST rounds it (12.345 → 12.35)
	require.NoError(t, s.AppendValues(ctx, 0, []any{ts, 12.345, math.Inf(1), "héllo"}))
	require.NoError(t, s.AppendValues(ctx, 0, []any{ts, " 1.005 ", float32(math.NaN()), nil}))
	require.NoError(t, s.Close())
	r, err := s.Open(mem, checkedSchema, 8)
	require.NoError(t, err)
	defer r.Close()
	b, err := r.Next()
	require.NoError(t, err)
	defer b.Record.Release()
	require.Equal(t, int64(2), b.Record.NumRows())
	price := b.Record.Column(1).(*array.Decimal128)
	require.Equal(t, "12.35", price.Value(0).ToString(2))
	require.Equal(t, "1.01", price.Value(1).ToString(2))
	require.True(t, math.IsInf(float64(b.Record.Column(2).(*array.Float32).Value(0)), 1))
	require.Equal(t, "héllo", b.Record.Column(3).(*array.String).Value(0))
}

// A batch appended whole is checked too: STRING values must be UTF-8 (also
// when the bytes of the whole buffer are, but a value cuts a character in
// two), DECIMAL values must fit their precision. NULLs are not looked at.
func TestPushSourceChecksBatchValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s := NewPushSource(checkedSchema, mem, 8)
	defer s.Release()
	batch := func(prices []decimal128.Num, names []string, valid []bool) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, checkedSchema)
		defer b.Release()
		for i := range names {
			b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(i))
			b.Field(1).(*array.Decimal128Builder).Append(prices[i])
			b.Field(2).AppendNull()
			b.Field(3).(*array.StringBuilder).AppendValues([]string{names[i]}, []bool{valid[i]})
		}
		return b.NewRecordBatch()
	}
	one := decimal128.FromI64(100)
	for _, c := range []struct {
		prices []decimal128.Num
		names  []string
		valid  []bool
		err    string
	}{
		{[]decimal128.Num{one, one, one}, []string{"a", "b\xff", "c"}, []bool{true, true, true},
			"column name is STRING and row 2 of the batch is not valid UTF-8"},
		// "é" split over two values: the buffer is valid, the values are not
		{[]decimal128.Num{one, one}, []string{"x\xc3", "\xa9y"}, []bool{true, true},
			"column name is STRING and row 1 of the batch is not valid UTF-8"},
		{[]decimal128.Num{one, decimal128.FromI64(10_000_000_000)}, []string{"a", "b"}, []bool{true, true},
			"column price is DECIMAL(10, 2) and row 2 of the batch holds 100000000.00, more digits than its precision"},
	} {
		rec := batch(c.prices, c.names, c.valid)
		require.EqualError(t, s.Append(ctx, 0, rec), c.err)
		rec.Release()
	}
	// invalid bytes under a NULL are no value
	rec := batch([]decimal128.Num{one, one}, []string{"ok", "\xff"}, []bool{true, false})
	defer rec.Release()
	require.NoError(t, s.Append(ctx, 0, rec))
	// a slice is checked by its own rows
	rec2 := batch([]decimal128.Num{one, one, one}, []string{"\xff", "fine", "é"}, []bool{true, true, true})
	defer rec2.Release()
	sliced := rec2.NewSlice(1, 3)
	defer sliced.Release()
	require.NoError(t, s.Append(ctx, 0, sliced))
}
