package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/pipeline"
)

func TestTimestampLayouts(t *testing.T) {
	cases := []struct {
		format, in string
		ms         int64
		ok         bool
	}{
		{DefaultTimestampFormat, "1970-01-01 00:00:01", 1000, true},
		{DefaultTimestampFormat, "1970-01-01 00:00:01.5", 1500, true},
		{DefaultTimestampFormat, "1969-12-31 23:59:59.999", -1, true},
		{DefaultTimestampFormat, "2024-02-30 00:00:00", 0, false},
		{DefaultTimestampFormat, "2024-02-29 24:00:00", 0, false},
		{DefaultTimestampFormat, "garbage", 0, false},
		{"yyyy/MM/dd HH:mm", "2024/3/1 09:05", 1709283900000, true},
		{"dd.MM.yyyy'T'HH:mm:ss.SSS", "01.03.2024T09:05:00.123", 1709283900123, true},
		{"yyyyMMddHHmmss", "20240301090500", 1709283900000, true},
		{"yyyyMMddHHmmss", "2024030109050", 0, false},
	}
	for _, c := range cases {
		l, err := compileTimestampLayout(c.format)
		require.NoError(t, err)
		ms, ok := l.parse(c.in)
		require.Equal(t, c.ok, ok, "%s %s", c.format, c.in)
		if ok {
			require.Equal(t, c.ms, ms, "%s %s", c.format, c.in)
		}
	}
	_, err := compileTimestampLayout("yyyy-MM-dd Z")
	require.ErrorContains(t, err, `pattern letter 'Z' is not supported`)
	_, err = compileTimestampLayout("yyyy'T")
	require.ErrorContains(t, err, "unterminated quote")
}

type collect struct {
	rows []string
}

func (c *collect) ProcessBatch(b pipeline.Batch) error {
	for _, r := range recordRows(b.Record) {
		c.rows = append(c.rows, strings.Join(r, ","))
	}
	return nil
}
func (c *collect) ProcessWatermark(int64) error { return nil }
func (c *collect) ProcessEnd() error            { return nil }
func (c *collect) Close()                       {}

func TestComputedColumnsAppendAndCheckRowtime(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := arrow.NewSchema([]arrow.Field{
		{Name: "epoch", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, in)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1000, 2, 3}, []bool{true, true, false})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"2024-01-01 00:00:00", "bad", "2024-01-01 00:00:02.25"}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()

	toTS, err := NewToTimestamp(&ColumnExpr{Index: 1, Name: "s", Type: arrow.BinaryTypes.String}, DefaultTimestampFormat)
	require.NoError(t, err)
	spec := ComputedSpec{
		Exprs: []Expr{
			&ToTimestampLTZ{Arg: &ColumnExpr{Index: 0, Name: "epoch", Type: arrow.PrimitiveTypes.Int64}, Precision: 0},
			toTS,
		},
		Schema: arrow.NewSchema(append(in.Fields(),
			arrow.Field{Name: "ltz", Type: timestampLTZMillis, Nullable: true},
			arrow.Field{Name: "ts", Type: timestampMillis}), nil),
		RowtimeIndex: 3,
		Table:        "t",
	}
	out := &collect{}
	err = NewComputedColumns(spec, mem, out).ProcessBatch(pipeline.Batch{Record: rec})
	require.ErrorIs(t, err, format.ErrBadRow)
	require.EqualError(t, err, `bad input row: table t: rowtime ts is NULL: TO_TIMESTAMP(s#1, "yyyy-MM-dd HH:mm:ss") gave NULL for [s = "bad"]`)
	require.Len(t, out.rows, 1, "the row before the bad one is passed on first")
	out.rows = nil

	spec.SkipBadRows = true
	stage := NewComputedColumns(spec, mem, out)
	require.NoError(t, stage.ProcessBatch(pipeline.Batch{Record: rec}))
	require.Equal(t, int64(1), stage.Skipped())
	require.Equal(t, []string{
		fmt.Sprintf("1000,2024-01-01 00:00:00,%s,2024-01-01 00:00:00.000", "1970-01-01 00:16:40.000"),
		"NULL,2024-01-01 00:00:02.25,NULL,2024-01-01 00:00:02.250",
	}, out.rows)
}

// TO_TIMESTAMP_LTZ(ms, 3) over a BIGINT shares its buffers: the values,
// nulls and slice offset come through unchanged.
func TestToTimestampLTZMillisSharesBuffers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{-1, 1000, 0, 1709283600123}, []bool{true, true, false, true})
	full := b.NewInt64Array()
	b.Release()
	defer full.Release()
	sliced := array.NewSlice(full, 1, 4)
	defer sliced.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "ms", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{sliced}, 3)
	defer rec.Release()

	f := &ToTimestampLTZ{Arg: &ColumnExpr{Index: 0, Name: "ms", Type: arrow.PrimitiveTypes.Int64}, Precision: 3}
	got, err := f.Eval(rec, mem)
	require.NoError(t, err)
	defer got.Release()
	ts := got.(*array.Timestamp)
	require.Equal(t, timestampLTZMillis, ts.DataType())
	require.Equal(t, 3, ts.Len())
	require.Equal(t, 1, ts.NullN())
	require.Equal(t, arrow.Timestamp(1000), ts.Value(0))
	require.True(t, ts.IsNull(1))
	require.Equal(t, arrow.Timestamp(1709283600123), ts.Value(2))
}
