package exprplan

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// countingAllocator counts allocations: every kernel evaluation allocates
// its result, so the count measures how many evaluations a batch costs.
type countingAllocator struct {
	memory.Allocator
	n int
}

func (a *countingAllocator) Allocate(size int) []byte {
	a.n++
	return a.Allocator.Allocate(size)
}

// nestedForms are the forms that read an operand more than once, each
// wrapping the level below (x) once per level.
var nestedForms = map[string]func(x string) string{
	"COALESCE":    func(x string) string { return "COALESCE(" + x + ", a, 7)" },
	"IFNULL":      func(x string) string { return "IFNULL(" + x + ", 7)" },
	"NULLIF":      func(x string) string { return "NULLIF(" + x + ", 3)" },
	"BETWEEN":     func(x string) string { return "IF(" + x + " BETWEEN -5 AND 5, 1, 2)" },
	"NOT BETWEEN": func(x string) string { return "IF(" + x + " NOT BETWEEN a AND 5, 1, 2)" },
	"simple CASE": func(x string) string { return "CASE " + x + " WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE 0 END" },
	"IN":          func(x string) string { return "IF(" + x + " IN (b, 2), 1, 2)" },
	"NOT IN":      func(x string) string { return "IF(" + x + " NOT IN (a, 2), 1, 2)" },
}

func nest(form func(string) string, depth int) string {
	x := "b"
	for range depth {
		x = form(x)
	}
	return x
}

// shareRecord has rows where b and a are NULL and not.
func shareRecord(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	return arrowtest.Columns(t, mem, exprSchema, 4, map[string][]any{
		"a": {1, 0, nil, 3},
		"b": {1, nil, nil, 5},
	})
}

// Forms that read an operand twice (COALESCE, IFNULL, NULLIF, BETWEEN, a
// simple CASE, an IN list of expressions) evaluate it once: nested 200
// deep they plan and run with work linear in the depth. Written out as
// CASE and comparisons, each level evaluated the level below two or more
// times, so 20 levels took 40 s over 3 rows.
func TestNestedOperandsEvaluatedOnce(t *testing.T) {
	for name, form := range nestedForms {
		t.Run(name, func(t *testing.T) {
			checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer checked.AssertSize(t, 0)
			rec := shareRecord(t, checked)
			defer rec.Release()
			perLevel := 0
			for _, depth := range []int{1, 10, 200} {
				x, err := compileText(t, nest(form, depth))
				require.NoError(t, err)
				mem := &countingAllocator{Allocator: checked}
				a, err := x.Eval(rec, mem)
				require.NoError(t, err)
				a.Release()
				if depth == 1 {
					perLevel = mem.n
					continue
				}
				// at most a constant per level more than the first level costs
				require.LessOrEqual(t, mem.n, (perLevel+8)*depth, "%s nested %d deep: %d allocations", name, depth, mem.n)
			}
		})
	}
}

// The shared forms give the values and types the CASE forms gave,
// including NULLs, three-valued IN, and an operand that can fail only
// evaluated on the rows that reach it.
func TestSharedOperandResults(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := shareRecord(t, mem)
	defer rec.Release()
	// rows: (a, b) = (1, 1), (0, NULL), (NULL, NULL), (3, 5)
	for src, want := range map[string][]string{
		"COALESCE(b, a)":                   {"1", "0", "NULL", "5"},
		"COALESCE(b, a, 7)":                {"1", "0", "7", "5"},
		"COALESCE(b)":                      {"1", "NULL", "NULL", "5"},
		"COALESCE(NULL, b, NULL)":          {"1", "NULL", "NULL", "5"},
		"IFNULL(a + 1, b)":                 {"2", "1", "NULL", "4"},
		"COALESCE(COALESCE(b, a), -1)":     {"1", "0", "-1", "5"},
		"COALESCE(CAST(b AS STRING), 'x')": {"1", "x", "x", "5"},
		// the later argument is evaluated only where the earlier are NULL
		"COALESCE(b, 10 / (a - 1))":                            {"1", "-10", "NULL", "5"},
		"NULLIF(a + 0, 1)":                                     {"NULL", "0", "NULL", "3"},
		"NULLIF(b * 1, a)":                                     {"NULL", "NULL", "NULL", "5"},
		"(a + 1) BETWEEN 1 AND 2":                              {"true", "true", "NULL", "false"},
		"(a + 1) NOT BETWEEN 1 AND 2":                          {"false", "false", "NULL", "true"},
		"(a + 1) BETWEEN b AND 4":                              {"true", "NULL", "NULL", "false"},
		"CASE a + 0 WHEN 1 THEN 'one' WHEN 3 THEN 'three' END": {"one", "NULL", "NULL", "three"},
		"CASE b * 1 WHEN a THEN 'same' ELSE 'other' END":       {"same", "other", "other", "other"},
		"(a + 0) IN (b, 0)":                                    {"true", "true", "NULL", "false"},
		"(a + 0) IN (b, 7)":                                    {"true", "NULL", "NULL", "false"},
		"(a + 0) NOT IN (b, 7)":                                {"false", "NULL", "NULL", "true"},
		// a shared operand that can fail, inside a branch only some rows take
		"CASE WHEN a <> 0 THEN (10 / a) BETWEEN 3 AND 10 END": {"true", "NULL", "NULL", "true"},
		"CASE WHEN a <> 0 THEN NULLIF(10 / a, 10) END":        {"NULL", "NULL", "NULL", "3"},
		"CASE WHEN a <> 0 THEN (10 / a) IN (b, 3) END":        {"false", "NULL", "NULL", "true"},
	} {
		got, err := evalText(t, src, rec, mem)
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
	for src, want := range map[string]string{
		"COALESCE(b, a)":                          "BIGINT",
		"COALESCE(a, CAST(NULL AS SMALLINT))":     "INT",
		"IFNULL(price, a)":                        "DECIMAL(12, 2)",
		"NULLIF(d + 0, a)":                        "DOUBLE",
		"NULLIF(CAST(b AS DECIMAL(20, 3)), a)":    "DECIMAL(20, 3)",
		"CASE a + 0 WHEN 1 THEN price ELSE 2 END": "DECIMAL(12, 2)",
	} {
		x, err := compileText(t, src)
		require.NoError(t, err, src)
		require.Equal(t, want, typeName(x.DataType()), src)
	}
	// the operand is evaluated once and printed once
	x, err := compileText(t, "(a + 1) BETWEEN 1 AND 2")
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(x.String(), "a#0 + 1"), x.String())
}
