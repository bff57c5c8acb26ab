package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// outerNegate is a kernel as another package writes one: it sees only the
// exported helpers and names its operand through Children.
type outerNegate struct{ X Expr }

func (e *outerNegate) DataType() arrow.DataType { return e.X.DataType() }
func (e *outerNegate) String() string           { return "outerNegate(" + e.X.String() + ")" }
func (e *outerNegate) Children() []Expr         { return []Expr{e.X} }

func (e *outerNegate) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	validity, nulls := AndValidity(mem, n, x)
	vb, out := NewValues[int64](mem, n)
	for i, v := range ValuesOf[int64](x) {
		out[i] = -v
	}
	return NewArray(x.DataType(), n, validity, nulls, vb), nil
}

// TestOuterKernelSkipsFailingOperand: a kernel of another package over a
// division is evaluated only on the rows CASE sends it, because it names
// its operand (Parent), so b = 0 does not stop the query.
func TestOuterKernelSkipsFailingOperand(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, i64, 10, 9, nil), arrowtest.Array(t, mem, i64, 0, 3, 0))
	defer rec.Release()
	a, b := col(rec, 0), col(rec, 1)
	c := &Case{
		Whens: []Expr{&Compare{Op: "=", L: b, R: lit(i64, 0)}},
		Thens: []Expr{lit(i64, 1)},
		Else:  &outerNegate{X: &Arith{Op: '/', L: a, R: b, Type: i64}},
		Type:  i64,
	}
	require.Equal(t, []string{"1", "-3", "1"}, texts(t, mem, c, rec))
}

func TestStringArgReadsAConstantInPlace(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, "x", nil))
	defer rec.Release()
	s, arr, err := EvalStringArg(lit(str, "k"), rec, mem)
	require.NoError(t, err)
	require.Nil(t, arr)
	require.True(t, s.IsConst())
	require.Equal(t, "k", s.At(1))
	s, arr, err = EvalStringArg(col(rec, 0), rec, mem)
	require.NoError(t, err)
	defer arr.Release()
	require.False(t, s.IsConst())
	require.Equal(t, "x", s.At(0))
	valid, nulls := AndValidity(mem, 2, arr)
	defer valid.Release()
	require.Equal(t, 1, nulls)
}
