package predicate

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// strings is one STRING column ("" with null false is NULL).
func stringsBatch(mem memory.Allocator, vals []string, valid []bool) arrow.RecordBatch {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	a := b.NewArray()
	defer a.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{a}, int64(len(vals)))
}

// bools evaluates e and prints true, false or NULL per row.
func bools(t *testing.T, mem memory.Allocator, e expr.Expr, rec arrow.RecordBatch) []string {
	t.Helper()
	a, err := e.Eval(rec, mem)
	require.NoError(t, err)
	defer a.Release()
	out := make([]string, a.Len())
	for i := range out {
		switch {
		case a.IsNull(i):
			out[i] = "NULL"
		case a.(*array.Boolean).Value(i):
			out[i] = "true"
		default:
			out[i] = "false"
		}
	}
	return out
}

func TestSimilarTo(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := stringsBatch(mem, []string{"abc", "a.c", "abd", "", "x%y"}, []bool{true, true, true, false, true})
	defer rec.Release()
	s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
	for pattern, want := range map[string][]string{
		"a.c":        {"false", "true", "false", "NULL", "false"}, // . is itself
		"a_c":        {"true", "true", "false", "NULL", "false"},
		"a%":         {"true", "true", "true", "NULL", "false"},
		"(ab|a.)c":   {"true", "true", "false", "NULL", "false"},
		"[a-b]+[cd]": {"true", "false", "true", "NULL", "false"},
		"ab?c*d?":    {"true", "false", "true", "NULL", "false"},
		"x!%y":       {"false", "false", "false", "NULL", "true"}, // with ESCAPE '!'
	} {
		st, err := NewSimilarTo(s, pattern, '!')
		require.NoError(t, err, pattern)
		require.Equal(t, want, bools(t, mem, st, rec), pattern)
	}
	_, err := NewSimilarTo(s, "a!", '!')
	require.ErrorContains(t, err, "ends with the escape character")
	_, err = NewSimilarTo(s, "(a", -1)
	require.ErrorContains(t, err, "invalid SIMILAR TO pattern")
}

func TestCharTests(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := stringsBatch(mem, []string{"abc", "123", "-1.5e3", "", "", "ab1", "١٢٣", "12.", "1e"}, []bool{true, true, true, true, false, true, true, true, true})
	defer rec.Release()
	s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
	for name, want := range map[string][]string{
		// NULL and '' are FALSE, never NULL
		"IS_ALPHA":   {"true", "false", "false", "false", "false", "false", "false", "false", "false"},
		"IS_DIGIT":   {"false", "true", "false", "false", "false", "false", "true", "false", "false"},
		"IS_DECIMAL": {"false", "true", "true", "false", "false", "false", "false", "true", "false"},
	} {
		ct, err := NewCharTest(name, s)
		require.NoError(t, err)
		require.Equal(t, want, bools(t, mem, ct, rec), name)
	}
}
