package writer

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
)

// writerTestBatch is two rows of every type the JSON writer formats, the
// second all NULL.
func writerTestBatch(mem memory.Allocator) arrow.RecordBatch {
	schema := testSchema("s", arrow.BinaryTypes.String, "b", arrow.FixedWidthTypes.Boolean,
		"i", arrow.PrimitiveTypes.Int32, "l", arrow.PrimitiveTypes.Int64, "f", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "d", arrow.FixedWidthTypes.Date32,
		"ts", tsType, "ltz", ltzType)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a\"b\\c\n\té\x01"}, nil)
	b.Field(1).(*array.BooleanBuilder).Append(true)
	b.Field(2).(*array.Int32Builder).Append(-7)
	b.Field(3).(*array.Int64Builder).Append(math.MaxInt64)
	b.Field(4).(*array.Float64Builder).Append(0.1)
	b.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(-5))
	b.Field(6).(*array.Date32Builder).Append(19782)
	b.Field(7).(*array.TimestampBuilder).Append(1704164645678)
	b.Field(8).(*array.TimestampBuilder).Append(1704164645678)
	for _, f := range b.Fields() {
		f.AppendNull()
	}
	return b.NewRecordBatch()
}

func TestJSONWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := writerTestBatch(mem)
	defer rec.Release()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)

	var out bytes.Buffer
	w := NewJSONWriter(&out, rec.Schema(), nil, format.TimestampSQL)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	require.Equal(t, `{"s":"a\"b\\c\n\té\u0001","b":true,"i":-7,"l":9223372036854775807,"f":0.1,"dec":-0.05,"d":"2024-02-29","ts":"2024-01-02 03:04:05.678","ltz":"2024-01-02 03:04:05.678Z"}`+"\n"+
		`{"s":null,"b":null,"i":null,"l":null,"f":null,"dec":null,"d":null,"ts":null,"ltz":null}`+"\n", out.String())
	require.ErrorIs(t, w.WriteBatch(rec), ErrWriterClosed)

	out.Reset()
	w = NewJSONWriter(&out, rec.Schema(), shanghai, format.TimestampISO8601)
	require.NoError(t, w.WriteBatch(rec))
	first := strings.SplitN(out.String(), "\n", 2)[0]
	require.Contains(t, first, `"ts":"2024-01-02T03:04:05.678","ltz":"2024-01-02T11:04:05.678+08:00"}`)

	// every line is valid JSON, and the decoder reads the output back as is
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		require.True(t, json.Valid([]byte(line)), line)
	}
	d := format.NewJSONDecoder(&out, "out.json", rec.Schema(), format.JSONOptions{TimestampStandard: format.TimestampISO8601}, mem, 0)
	back, err := d.Next()
	require.NoError(t, err)
	defer back.Release()
	require.Equal(t, recordRows(rec), recordRows(back))
}

func TestJSONWriterFloats(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues([]float64{1, 1e21, 1.5e-7, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 0.30000000000000004}, nil)
	arr := b.NewArray()
	defer arr.Release()
	schema := testSchema("f", arrow.PrimitiveTypes.Float64)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	var out bytes.Buffer
	require.NoError(t, NewJSONWriter(&out, schema, nil, format.TimestampSQL).WriteBatch(rec))
	require.Equal(t, `{"f":1.0}
{"f":1.0E21}
{"f":1.5E-7}
{"f":-0.0}
{"f":"NaN"}
{"f":"Infinity"}
{"f":"-Infinity"}
{"f":0.30000000000000004}
`, out.String())
	d := format.NewJSONDecoder(&out, "out.json", schema, format.JSONOptions{}, mem, 0)
	back, err := d.Next()
	require.NoError(t, err)
	defer back.Release()
	require.Equal(t, recordRows(rec), recordRows(back), "floats round-trip")
}
