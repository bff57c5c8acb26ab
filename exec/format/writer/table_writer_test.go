package writer

import (
	"bytes"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

var resultSchema = testSchema("window_end", tsType, "usr", arrow.BinaryTypes.String,
	"cnt", arrow.PrimitiveTypes.Int64, "avg", arrow.PrimitiveTypes.Float64)

// resultBatch builds a resultSchema batch; rows with valid false have NULL usr and avg.
func resultBatch(mem memory.Allocator, ts []int64, usr []string, cnt []int64, avg []float64, valid []bool) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, resultSchema)
	defer b.Release()
	for i := range ts {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(ts[i]))
		if valid[i] {
			b.Field(1).(*array.StringBuilder).Append(usr[i])
			b.Field(3).(*array.Float64Builder).Append(avg[i])
		} else {
			b.Field(1).(*array.StringBuilder).AppendNull()
			b.Field(3).(*array.Float64Builder).AppendNull()
		}
		b.Field(2).(*array.Int64Builder).Append(cnt[i])
	}
	return b.NewRecordBatch()
}

func TestTableWriterWidens(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	w := NewTableWriter(&out, resultSchema, time.UTC)
	r1 := resultBatch(mem, []int64{1704067200000, -1}, []string{"bob", ""}, []int64{3, 12}, []float64{12.5, 0}, []bool{true, false})
	require.NoError(t, w.WriteBatch(r1))
	r1.Release()
	first := out.String()
	r2 := resultBatch(mem, []int64{1704067201000}, []string{"eve"}, []int64{30}, []float64{30}, []bool{true})
	require.NoError(t, w.WriteBatch(r2))
	r2.Release()
	r3 := resultBatch(mem, []int64{1704067205000}, []string{"alexandra\tx"}, []int64{1234567}, []float64{1e22}, []bool{true})
	require.NoError(t, w.WriteBatch(r3))
	r3.Release()
	require.NoError(t, w.Close())
	require.NoError(t, w.Close())
	require.ErrorIs(t, w.WriteBatch(r1), ErrWriterClosed)

	require.Equal(t, ""+
		"+-------------------------+------+------+------+\n"+
		"| window_end              | usr  |  cnt |  avg |\n"+
		"+-------------------------+------+------+------+\n"+
		"| 2024-01-01 00:00:00.000 | bob  |    3 | 12.5 |\n"+
		"| 1969-12-31 23:59:59.999 | NULL |   12 | NULL |\n", first, "rows are written as they arrive")
	require.Equal(t, ""+
		"+-------------------------+------+------+------+\n"+
		"| window_end              | usr  |  cnt |  avg |\n"+
		"+-------------------------+------+------+------+\n"+
		"| 2024-01-01 00:00:00.000 | bob  |    3 | 12.5 |\n"+
		"| 1969-12-31 23:59:59.999 | NULL |   12 | NULL |\n"+
		"| 2024-01-01 00:00:01.000 | eve  |   30 | 30.0 |\n"+
		"+-------------------------+--------------+---------+--------+\n"+
		"| window_end              | usr          |     cnt |    avg |\n"+
		"+-------------------------+--------------+---------+--------+\n"+
		"| 2024-01-01 00:00:05.000 | alexandra\\tx | 1234567 | 1.0E22 |\n"+
		"+-------------------------+--------------+---------+--------+\n"+
		"4 rows\n", out.String())
}

func TestTableWriterEmptyAndOneRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	w := NewTableWriter(&out, resultSchema, nil)
	empty := resultBatch(mem, nil, nil, nil, nil, nil)
	require.NoError(t, w.WriteBatch(empty))
	empty.Release()
	require.NoError(t, w.Close())
	require.Equal(t, ""+
		"+-------------------------+------+------+------+\n"+
		"| window_end              | usr  |  cnt |  avg |\n"+
		"+-------------------------+------+------+------+\n"+
		"0 rows\n", out.String())

	out.Reset()
	schema := testSchema("名前", arrow.BinaryTypes.String, "ok", arrow.FixedWidthTypes.Boolean)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.StringBuilder).Append("東京")
	b.Field(1).(*array.BooleanBuilder).Append(false)
	rec := b.NewRecordBatch()
	b.Release()
	w = NewTableWriter(&out, schema, nil)
	require.NoError(t, w.WriteBatch(rec))
	rec.Release()
	require.NoError(t, w.Close())
	require.Equal(t, ""+
		"+------+-------+\n"+
		"| 名前 | ok    |\n"+
		"+------+-------+\n"+
		"| 東京 | false |\n"+
		"+------+-------+\n"+
		"1 row\n", out.String())
}

func TestTableWriterDisplayWidth(t *testing.T) {
	require.Equal(t, 5, displayWidth([]byte("héllo")))
	require.Equal(t, 4, displayWidth([]byte("東京")))
	require.Equal(t, 1, displayWidth([]byte("e\u0301")))
	require.Equal(t, 4, displayWidth([]byte("a\nb")))
	require.Equal(t, 4, displayWidth([]byte("\x1b")))
	require.Equal(t, `a\nb\x1b`, string(appendTableText(nil, []byte("a\nb\x1b"))))
	require.Equal(t, len(appendTableText(nil, []byte("\x00\t\r"))), displayWidth([]byte("\x00\t\r")))
}
