package exprplan

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/internal/arrowtest"
)

// evalText compiles src over exprSchema and evaluates it on rec, one text
// per row ("NULL" for NULL); a panic fails the test instead of the run.
func evalText(t *testing.T, src string, rec arrow.RecordBatch, mem memory.Allocator) ([]string, error) {
	t.Helper()
	x, err := compileText(t, src)
	if err != nil {
		return nil, err
	}
	a, err := x.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	got := make([]string, a.Len())
	for i := range got {
		got[i] = "NULL"
		if a.IsValid(i) {
			got[i] = string(format.AppendValue(nil, a, i, time.UTC))
		}
	}
	return got, nil
}

// A CAST to a DECIMAL that cannot hold the value is NULL, as in Flink,
// folded as a constant or computed per row; it used to panic inside
// Arrow's decimal128 (rescaling past 128 bits) or wrap silently (an
// integer times 10^scale).
func TestDecimalCastOverflowIsNull(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const nines = "99999999999999999999999999999999999999" // 38 digits
	for src, want := range map[string]string{
		"CAST(CAST('" + nines + "' AS DECIMAL(38, 0)) AS DECIMAL(38, 2))":  "NULL",
		"CAST(CAST('-" + nines + "' AS DECIMAL(38, 0)) AS DECIMAL(38, 2))": "NULL",
		"CAST(CAST('" + nines + "' AS DECIMAL(38, 0)) AS DECIMAL(38, 0))":  nines,
		"CAST(CAST('12.345' AS DECIMAL(10, 3)) AS DECIMAL(38, 36))":        "12.345000000000000000000000000000000000",
		"CAST(CAST('12.345' AS DECIMAL(10, 3)) AS DECIMAL(38, 37))":        "NULL",
		"CAST(CAST('12.345' AS DECIMAL(10, 3)) AS DECIMAL(4, 2))":          "12.35",
		"CAST(CAST('12.345' AS DECIMAL(10, 3)) AS DECIMAL(3, 2))":          "NULL",
		"CAST(9223372036854775807 AS DECIMAL(38, 19))":                     "9223372036854775807.0000000000000000000",
		"CAST(9223372036854775807 AS DECIMAL(38, 20))":                     "NULL",
		"CAST(-9223372036854775807 - 1 AS DECIMAL(38, 30))":                "NULL",
		"CAST(1e30 AS DECIMAL(38, 20))":                                    "NULL",
		"CAST(1e30 AS DECIMAL(38, 7))":                                     "1000000000000000000000000000000.0000000",
		"CAST(CAST('1e40' AS DOUBLE) AS DECIMAL(38, 0))":                   "NULL",
		"CAST('" + nines + "9' AS DECIMAL(38, 0))":                         "NULL",
		"CAST('1e38' AS DECIMAL(38, 0))":                                   "NULL",
		"CAST('123.456e-1' AS DECIMAL(5, 2))":                              "12.35",
	} {
		requireFolds(t, src, want)
	}
	// text that is no number is an error, not a panic (Arrow's FromString
	// dereferenced nil on this exponent)
	_, err := compileText(t, "CAST('1e1000000000' AS DECIMAL(10, 2))")
	require.ErrorContains(t, err, `cannot read "1e1000000000"`)

	// per row: a DECIMAL(38, 0) column and a BIGINT column
	schema := arrow.NewSchema([]arrow.Field{{Name: "big", Type: &arrow.Decimal128Type{Precision: 38, Scale: 0}, Nullable: true}, {Name: "n", Type: tBigint}}, nil)
	rec := arrowtest.Record(t, mem, schema,
		[]any{nines, int64(9223372036854775807)}, []any{"-" + nines, int64(-9223372036854775808)},
		[]any{125, 5}, []any{nil, 0})
	defer rec.Release()
	saved := exprSchema
	exprSchema = schema
	defer func() { exprSchema = saved }()
	for src, want := range map[string][]string{
		"CAST(big AS DECIMAL(38, 2))": {"NULL", "NULL", "125.00", "NULL"},
		"CAST(big AS DECIMAL(3, 0))":  {"NULL", "NULL", "125", "NULL"},
		"CAST(big AS DECIMAL(2, 0))":  {"NULL", "NULL", "NULL", "NULL"},
		"CAST(n AS DECIMAL(38, 20))":  {"NULL", "NULL", "5.00000000000000000000", "0.00000000000000000000"},
		// digits far out of int32's range used to wrap (to 2 and 0 here)
		"ROUND(CAST(big AS DECIMAL(38, 2)), 4294967298)": {"NULL", "NULL", "125.00", "NULL"},
		"ROUND(CAST(n AS DECIMAL(20, 2)), -4294967296)":  {"NULL", "NULL", "0", "0"}, // DECIMAL(19, 0)
		"ROUND(CAST(n AS DECIMAL(20, 2)), 4294967260)":   {"NULL", "NULL", "5.00", "0.00"},
		"CAST(n AS DECIMAL(20, 1))":                      {"9223372036854775807.0", "-9223372036854775808.0", "5.0", "0.0"},
		"CAST(CAST(n AS DOUBLE) AS DECIMAL(38, 20))":     {"NULL", "NULL", "5.00000000000000000000", "0.00000000000000000000"},
	} {
		got, err := evalText(t, src, rec, mem)
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
}

// DECIMALs meeting in COALESCE, CASE, IF and NULLIF keep an exact type by
// Flink's LogicalTypeMerging: the most integer digits, then the larger
// scale, at most 38 digits; integers count as DECIMAL(3|5|10|19, 0); only
// a float makes DOUBLE. They used to become DOUBLE (1.2345000000000002).
func TestDecimalCommonType(t *testing.T) {
	for src, want := range map[string]string{
		"COALESCE(price, a)":                                              "DECIMAL(12, 2)",
		"COALESCE(price, b)":                                              "DECIMAL(21, 2)",
		"COALESCE(price, CAST(a AS TINYINT))":                             "DECIMAL(10, 2)",
		"COALESCE(CAST(a AS SMALLINT), price)":                            "DECIMAL(10, 2)",
		"IF(flag, price, CAST(1.2345 AS DECIMAL(5, 4)))":                  "DECIMAL(12, 4)",
		"CASE WHEN flag THEN price WHEN a > 0 THEN 7 ELSE NULL END":       "DECIMAL(12, 2)",
		"NULLIF(price, 0)":                                                "DECIMAL(10, 2)",
		"COALESCE(CAST(b AS DECIMAL(38, 0)), price)":                      "DECIMAL(38, 0)",
		"COALESCE(CAST(b AS DECIMAL(30, 0)), CAST(d AS DECIMAL(38, 30)))": "DECIMAL(38, 8)",
		"COALESCE(price, d)":                                              "DOUBLE",
		"COALESCE(price, CAST(d AS FLOAT))":                               "DOUBLE",
		"COALESCE(price, 1.5)":                                            "DECIMAL(10, 2)", // 1.5 is DECIMAL(2, 1)
	} {
		x, err := compileText(t, src)
		require.NoError(t, err, src)
		require.Equal(t, want, typeName(x.DataType()), src)
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Columns(t, mem, exprSchema, 3, map[string][]any{
		"a":     {3, -2147483648, nil},
		"flag":  {true, false, false},
		"price": {12345, -1, nil},
	})
	defer rec.Release()
	for src, want := range map[string][]string{
		"IF(flag, price, CAST(1.2345 AS DECIMAL(5, 4)))": {"123.4500", "1.2345", "1.2345"},
		"COALESCE(price, a)":                             {"123.45", "-0.01", "NULL"},
		"CASE WHEN flag THEN a ELSE price END":           {"3.00", "-0.01", "NULL"},
		"NULLIF(price, -0.01)":                           {"123.45", "NULL", "NULL"},
		// exact comparisons of a DECIMAL with an INT and with a DECIMAL
		"price > a":                                       {"true", "true", "NULL"},
		"price = CAST(-0.010 AS DECIMAL(5, 3))":           {"false", "true", "NULL"},
		"price < CAST(123.4500000001 AS DECIMAL(20, 10))": {"true", "true", "NULL"},
	} {
		got, err := evalText(t, src, rec, mem)
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
}

// requireFolds checks that src compiles to a constant whose text is want
// ("NULL" for a NULL).
func requireFolds(t *testing.T, src, want string) {
	t.Helper()
	x, err := compileText(t, src)
	require.NoError(t, err, src)
	l, ok := x.(*expr.Literal)
	require.True(t, ok, "%s folds to a literal, not %T", src, x)
	got := "NULL"
	if !l.Null {
		got = l.String()
	}
	require.Equal(t, want, got, src)
}
