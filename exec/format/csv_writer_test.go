package format

import (
	"bytes"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
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
	w := NewCSVWriter(&out, csvSchema("a b", tsType, "x,y", tsType), nil)
	require.NoError(t, w.Close())
	require.Equal(t, "a b,\"x,y\"\n", out.String())
}
