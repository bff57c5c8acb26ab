package writer

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
)

func TestCSVWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	w := NewCSVWriter(&out, resultSchema, time.UTC)
	r1 := resultBatch(mem, []int64{1704067200000, -1}, []string{"b,o\"b", ""}, []int64{3, 12}, []float64{12.5, 0}, []bool{true, false})
	require.NoError(t, w.WriteBatch(r1))
	r2 := resultBatch(mem, []int64{0}, []string{""}, []int64{-1}, []float64{1e22}, []bool{true})
	require.NoError(t, w.WriteBatch(r2))
	r2.Release()
	require.NoError(t, w.Close())
	require.NoError(t, w.Close())
	require.ErrorIs(t, w.WriteBatch(r1), ErrWriterClosed)
	r1.Release()
	require.Equal(t, ""+
		"window_end,usr,cnt,avg\n"+
		"2024-01-01 00:00:00.000,\"b,o\"\"b\",3,12.5\n"+
		"1969-12-31 23:59:59.999,,12,\n"+
		"1970-01-01 00:00:00.000,\"\",-1,1.0E22\n", out.String())
}

func TestCSVWriterEmpty(t *testing.T) {
	var out bytes.Buffer
	w := NewCSVWriter(&out, testSchema("a b", tsType, "x,y", tsType), nil)
	require.NoError(t, w.Close())
	require.Equal(t, "a b,\"x,y\"\n", out.String())
}

// The CSV writer writes what the CSV decoder reads back as is.
func TestCSVRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := testSchema("s", arrow.BinaryTypes.String, "f", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 6, Scale: 2}, "ts", tsType, "d", arrow.FixedWidthTypes.Date32)
	input := "s,f,dec,ts,d\n" +
		"\"a,\"\"b\"\"\",0.1,-0.05,1969-12-31 23:59:59.999,1969-12-31\n" +
		"\"\",1.0E22,1234.50,2024-02-29 00:00:00.000,2024-02-29\n" +
		",,,,\n" +
		"\"multi\nline\",NaN,0.00,0001-01-01 00:00:00.000,0001-01-01\n"
	d := format.NewCSVDecoder(strings.NewReader(input), "in", schema, format.CSVOptions{IgnoreFirstLine: true}, mem, 2)
	var out bytes.Buffer
	w := NewCSVWriter(&out, schema, nil)
	for {
		rec, err := d.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.NoError(t, w.WriteBatch(rec))
		rec.Release()
	}
	require.NoError(t, w.Close())
	require.Equal(t, input, out.String())
}
