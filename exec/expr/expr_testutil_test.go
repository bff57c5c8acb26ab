package expr

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
)

func col(rec arrow.RecordBatch, i int) *ColumnExpr {
	return &ColumnExpr{Index: i, Name: rec.Schema().Field(i).Name, Type: rec.Column(i).DataType()}
}

// texts evaluates e over rec and prints every value ("NULL" for NULL).
func texts(t *testing.T, mem memory.Allocator, e Expr, rec arrow.RecordBatch) []string {
	t.Helper()
	a, err := e.Eval(rec, mem)
	require.NoError(t, err)
	defer a.Release()
	require.Equal(t, int(rec.NumRows()), a.Len())
	require.True(t, arrow.TypeEqual(e.DataType(), a.DataType()), "%s is %s, evaluated to %s", e, e.DataType(), a.DataType())
	out := make([]string, a.Len())
	for i := range out {
		if a.IsNull(i) {
			out[i] = "NULL"
		} else {
			out[i] = string(format.AppendValue(nil, a, i, time.UTC))
		}
	}
	return out
}

func lit(dt arrow.DataType, v any) *Literal {
	l := &Literal{Type: dt}
	switch v := v.(type) {
	case nil:
		l.Null = true
	case int:
		l.Int = int64(v)
	case bool:
		l.Int = int64(b2u(v))
	case float64:
		l.Float = v
	case string:
		l.Str = v
	}
	return l
}

var (
	i32  = arrow.PrimitiveTypes.Int32
	i64  = arrow.PrimitiveTypes.Int64
	f64  = arrow.PrimitiveTypes.Float64
	str  = arrow.BinaryTypes.String
	boo  = arrow.FixedWidthTypes.Boolean
	tsT  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzT = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

// counted records the row count of each evaluation of X; fallible makes it
// count as an expression that can fail, so conditional forms evaluate it
// on the rows that reach it only.
type counted struct {
	Expr
	fallible bool
	evals    []int
}

func (c *counted) canFail() bool    { return c.fallible }
func (c *counted) children() []Expr { return []Expr{c.Expr} }

func (c *counted) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	c.evals = append(c.evals, int(rec.NumRows()))
	return c.Expr.Eval(rec, mem)
}
