package textfn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

var splitRows = []string{
	"https://www.nexmark.com/abcde/fghij/item.htm?query=1&channel_id=12", "", "/", "//", "a/b", "a//b/", "abc", "é/ü/ß",
	"a::b::::c", "::", "a:b:c", "x y  z", "\u2028a b",
}

// splitField gives what splitIndex gives for every non-empty separator.
func TestSplitFieldAgreesWithSplitIndex(t *testing.T) {
	for _, s := range splitRows {
		for _, sep := range []string{"/", "::", ":", " ", "é", "ab"} {
			for k := int64(-1); k < 7; k++ {
				want, wantOK, err := splitIndex(nil, s, sep, k)
				require.NoError(t, err)
				got, ok := splitField(s, sep, k)
				require.Equal(t, wantOK, ok, "%q %q %d", s, sep, k)
				require.Equal(t, string(want), got, "%q %q %d", s, sep, k)
			}
		}
	}
}

func FuzzSplitField(f *testing.F) {
	for i, s := range splitRows {
		f.Add(s, []string{"/", "::", ":"}[i%3], int64(i%6))
	}
	f.Fuzz(func(t *testing.T, s, sep string, k int64) {
		if sep == "" {
			return
		}
		want, wantOK, err := splitIndex(nil, s, sep, k)
		require.NoError(t, err)
		got, ok := splitField(s, sep, k)
		require.Equal(t, wantOK, ok)
		require.Equal(t, string(want), got)
	})
}

// SPLIT_INDEX of a column by a constant separator (splitIndexColumn)
// gives what the separator given as a column gives through the general
// loop, NULL rows and indexes included.
func TestSplitIndexColumnAgreesWithGeneralLoop(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 80
	sb := array.NewStringBuilder(mem)
	kb := array.NewInt64Builder(mem)
	for i := range n {
		if i%7 == 3 {
			sb.AppendNull()
		} else {
			sb.Append(splitRows[i%len(splitRows)] + strings.Repeat("/x", i%4))
		}
		if i%11 == 5 {
			kb.AppendNull()
		} else {
			kb.Append(int64(i%7) - 1)
		}
	}
	strs, ks := sb.NewArray(), kb.NewArray()
	sb.Release()
	kb.Release()
	defer strs.Release()
	defer ks.Release()
	for _, sep := range []string{"/", "::", " ", "é"} {
		pb := array.NewStringBuilder(mem)
		for range n {
			pb.Append(sep)
		}
		seps := pb.NewArray()
		pb.Release()
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
			{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "sep", Type: arrow.BinaryTypes.String},
		}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{strs, ks, seps}, n)
		seps.Release()
		s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
		k := &expr.ColumnExpr{Index: 1, Name: "k", Type: arrow.PrimitiveTypes.Int64}
		sepCol := &expr.ColumnExpr{Index: 2, Name: "sep", Type: arrow.BinaryTypes.String}
		lit := &expr.Literal{Type: arrow.BinaryTypes.String, Str: sep}
		for _, third := range []expr.Expr{k, &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 3}} {
			fast, err := (&Func{Name: "SPLIT_INDEX", Args: []expr.Expr{s, lit, third}, Type: arrow.BinaryTypes.String}).Eval(rec, mem)
			require.NoError(t, err)
			general, err := (&Func{Name: "SPLIT_INDEX", Args: []expr.Expr{s, sepCol, third}, Type: arrow.BinaryTypes.String}).Eval(rec, mem)
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(general), fmt.Sprint(fast), "%q", sep)
			require.Equal(t, general.NullN(), fast.NullN())
			fast.Release()
			general.Release()
		}
		rec.Release()
	}
}
