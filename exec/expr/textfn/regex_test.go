package textfn

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// REGEXP_EXTRACT and REGEXP_SUBSTR of a constant pattern over a column
// read the rows straight from the column (firstMatches); they give what
// the same pattern given as a column gives through the general loop,
// NULLs, groups out of range and non-ASCII rows included.
func TestFirstMatchesAgreeWithGeneralLoop(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []string{"user5 GET /item?id=39595 ok", "", "id=", "id=7 id=8", "ééé id=12é", "abc", "foothebar", "x\ny", "ID=3", "a1b22c333"}
	patterns := []string{`id=(\d+)`, `(\w)(\d*)`, `foo(.*?)(bar)`, `é+`, `(?i)id=(\d)`, `x*`, `(a)|(b)`, `[a-c](\d+)`, `(`, `^$`}
	const n = 64
	sb := array.NewStringBuilder(mem)
	gb := array.NewInt64Builder(mem)
	for i := range n {
		if i%7 == 3 {
			sb.AppendNull()
		} else {
			sb.Append(rows[i%len(rows)])
		}
		if i%11 == 5 {
			gb.AppendNull()
		} else {
			gb.Append(int64(i%5) - 1) // -1 to 3
		}
	}
	strs, groups := sb.NewArray(), gb.NewArray()
	sb.Release()
	gb.Release()
	for _, p := range patterns {
		pb := array.NewStringBuilder(mem)
		for range n {
			pb.Append(p)
		}
		pcol := pb.NewArray()
		pb.Release()
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
			{Name: "g", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "p", Type: arrow.BinaryTypes.String},
		}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{strs, groups, pcol}, n)
		pcol.Release()
		s := &expr.ColumnExpr{Index: 0, Name: "s", Type: arrow.BinaryTypes.String}
		g := &expr.ColumnExpr{Index: 1, Name: "g", Type: arrow.PrimitiveTypes.Int64}
		pc := &expr.ColumnExpr{Index: 2, Name: "p", Type: arrow.BinaryTypes.String}
		lit := &expr.Literal{Type: arrow.BinaryTypes.String, Str: p}
		for _, c := range []struct {
			kind  RegexKind
			third expr.Expr
		}{
			{RegexpExtract, g},
			{RegexpExtract, &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 1}},
			{RegexpExtract, nil},
			{RegexpSubstr, nil},
		} {
			fast, err := NewRegex(c.kind, s, lit, c.third).Eval(rec, mem)
			require.NoError(t, err)
			general, err := NewRegex(c.kind, s, pc, c.third).Eval(rec, mem)
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(general), fmt.Sprint(fast), "%s %q", regexNames[c.kind], p)
			require.Equal(t, general.NullN(), fast.NullN())
			fast.Release()
			general.Release()
		}
		rec.Release()
	}
	strs.Release()
	groups.Release()
}
