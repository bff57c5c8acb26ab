package format

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format/scalartext"
)

func TestFormatDecimals(t *testing.T) {
	cases := []struct {
		n     decimal128.Num
		scale int32
		want  string
	}{
		{decimal128.FromI64(12345), 2, "123.45"},
		{decimal128.FromI64(-5), 2, "-0.05"},
		{decimal128.FromI64(0), 3, "0.000"},
		{decimal128.FromI64(7), 0, "7"},
		{decimal128.FromI64(math.MinInt64), 1, "-922337203685477580.8"},
		{decimal128.FromI64(math.MaxInt64).Mul(decimal128.FromI64(100)), 4, "92233720368547758.0700"},
		{decimal128.FromI64(math.MinInt64).Mul(decimal128.FromI64(10)), 0, "-92233720368547758080"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(AppendDecimal128Value(nil, c.n, c.scale)))
	}
}

func TestFormatTemporal(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	ms := arrow.Millisecond
	require.Equal(t, "1969-12-31 23:59:59.999", string(AppendTimestampValue(nil, -1, ms, false, shanghai)))
	require.Equal(t, "1970-01-01 07:59:59.999", string(AppendTimestampValue(nil, -1, ms, true, shanghai)))
	require.Equal(t, "1969-12-31 23:59:59.999", string(AppendTimestampValue(nil, -1, ms, true, time.UTC)))
	require.Equal(t, "0001-01-01 00:00:00.000", string(AppendTimestampValue(nil, -62135596800000, ms, false, nil)))
	require.Equal(t, "2024-02-29 12:00:00", string(AppendTimestampValue(nil, 1709208000, arrow.Second, false, nil)))
	require.Equal(t, "1969-12-31 23:59:59.999999999", string(AppendTimestampValue(nil, -1, arrow.Nanosecond, false, nil)))
	require.Equal(t, "1969-12-31 23:59:59.999999", string(AppendTimestampValue(nil, -1, arrow.Microsecond, false, nil)))
	require.Equal(t, "1969-12-31", string(AppendDateValue(nil, -1)))
	require.Equal(t, "2000-03-01", string(AppendDateValue(nil, 11017)))
	require.Equal(t, "23:59:59.999", string(AppendTimeOfDayValue(nil, 86399999e6, ms)))
	require.Equal(t, "00:00:01", string(AppendTimeOfDayValue(nil, 1e9, arrow.Second)))

	// Every day from 1600 to 2400 formats back to what the decoder parsed.
	for days := int64(-135140); days < 157000; days++ {
		b := AppendDateValue(nil, days)
		got, msg := scalartext.ParseDate(b)
		require.Empty(t, msg, string(b))
		require.Equal(t, days, got)
	}
}

func TestFormatAppendValue(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := csvSchema("b", arrow.FixedWidthTypes.Boolean, "u", arrow.PrimitiveTypes.Uint16,
		"ltz", ltzType, "d64", arrow.FixedWidthTypes.Date64, "s", arrow.BinaryTypes.String)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil)
	b.Field(1).(*array.Uint16Builder).AppendValues([]uint16{65535, 0}, nil)
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{0, 0}, []bool{true, false})
	b.Field(3).(*array.Date64Builder).AppendValues([]arrow.Date64{-1, 86400000}, nil)
	b.Field(4).(*array.StringBuilder).AppendValues([]string{"x", ""}, []bool{true, false})
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	ny := time.FixedZone("EST", -5*3600)
	row := func(i int) []string {
		var out []string
		for _, col := range rec.Columns() {
			out = append(out, string(AppendValue([]byte("<"), col, i, ny)))
		}
		return out
	}
	require.Equal(t, []string{"<true", "<65535", "<1969-12-31 19:00:00.000", "<1969-12-31", "<x"}, row(0))
	require.Equal(t, []string{"<false", "<0", "<", "<1970-01-02", "<"}, row(1))
}
