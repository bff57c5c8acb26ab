package exec

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// The rows of VALUES come out in order, in batches of at most the batch
// size, then the end of the one split and io.EOF; every array is freed.
func TestValuesRowsInBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	row := func(id int64, name string) []expr.Expr {
		return []expr.Expr{&expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: id}, &expr.Literal{Type: arrow.BinaryTypes.String, Str: name}}
	}
	v := &Values{Rows: [][]expr.Expr{row(1, "a"), row(2, "b"), {expr.NullLiteral(arrow.PrimitiveTypes.Int64), expr.NullLiteral(arrow.BinaryTypes.String)}}}
	r, err := v.Open(mem, schema, 2)
	require.NoError(t, err)
	var got []string
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.End {
			got = append(got, "end")
			continue
		}
		for _, fields := range recordRows(b.Record) {
			got = append(got, strings.Join(fields, ","))
		}
		got = append(got, "|")
		b.Record.Release()
	}
	require.Equal(t, []string{"1,a", "2,b", "|", "NULL,NULL", "|", "end"}, got)
	require.Equal(t, int64(3), r.Stats().Rows)
	require.NoError(t, r.Close())

	// the one row without columns a SELECT without FROM reads
	r, err = (&Values{Rows: [][]expr.Expr{nil}}).Open(mem, arrow.NewSchema(nil, nil), 4096)
	require.NoError(t, err)
	b, err := r.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1), b.Record.NumRows())
	b.Record.Release()
	require.NoError(t, r.Close())
}
