package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/pipeline"
)

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

	toTS, err := expr.NewToTimestamp(&expr.ColumnExpr{Index: 1, Name: "s", Type: arrow.BinaryTypes.String}, expr.DefaultTimestampFormat)
	require.NoError(t, err)
	spec := ComputedSpec{
		Exprs: []expr.Expr{
			&expr.ToTimestampLTZ{Arg: &expr.ColumnExpr{Index: 0, Name: "epoch", Type: arrow.PrimitiveTypes.Int64}, Precision: 0},
			toTS,
		},
		Schema: arrow.NewSchema(append(in.Fields(),
			arrow.Field{Name: "ltz", Type: ltzType, Nullable: true},
			arrow.Field{Name: "ts", Type: tsType}), nil),
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
