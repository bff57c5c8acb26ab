package exprplan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// Result types of DECIMAL literals and arithmetic, computed by Flink's
// rules (LogicalTypeMerging.findAdditionDecimalType and friends, whose
// comment tables SQL Server's formulas; adjustPrecisionScale for results
// past 38 digits, e.g. its documented (38, 8) + (32, 8) → (38, 7)), and
// Calcite's literal types (0.1 is DECIMAL(2, 1)). price is DECIMAL(10, 2),
// a INT, b BIGINT, d DOUBLE.
func TestDecimalArithTypes(t *testing.T) {
	for src, want := range map[string]string{
		"0.1":           "DECIMAL(2, 1)",
		"1.50":          "DECIMAL(3, 2)",
		"0.908":         "DECIMAL(4, 3)",
		"1e3":           "DOUBLE",
		"0.1 + 0.2":     "DECIMAL(3, 1)",
		"price + a":     "DECIMAL(13, 2)",
		"price - 1.5":   "DECIMAL(11, 2)",
		"price * b":     "DECIMAL(30, 2)",
		"0.908 * b":     "DECIMAL(24, 3)",
		"price / price": "DECIMAL(23, 13)",
		"a / 2.0":       "DECIMAL(17, 6)",
		"price % 3":     "DECIMAL(10, 2)",
		"-price":        "DECIMAL(10, 2)",
		"price + d":     "DOUBLE",
		"price * 1e0":   "DOUBLE",
		"CAST(b AS DECIMAL(38, 0)) + CAST(b AS DECIMAL(38, 0))":   "DECIMAL(38, 0)",
		"CAST(b AS DECIMAL(38, 8)) + CAST(b AS DECIMAL(32, 8))":   "DECIMAL(38, 7)",
		"CAST(b AS DECIMAL(38, 10)) * CAST(b AS DECIMAL(38, 10))": "DECIMAL(38, 6)",
		"CAST(b AS DECIMAL(38, 2)) / CAST(b AS DECIMAL(10, 0))":   "DECIMAL(38, 6)",
		"CAST(b AS DECIMAL(38, 2)) * CAST(b AS DECIMAL(38, 2))":   "DECIMAL(38, 4)",
		"ROUND(price, 1)":  "DECIMAL(10, 1)",
		"ROUND(price)":     "DECIMAL(9, 0)",
		"ROUND(price, -1)": "DECIMAL(9, 0)",
		"ROUND(price, 5)":  "DECIMAL(10, 2)",
		"ABS(price)":       "DECIMAL(10, 2)",
		"FLOOR(price)":     "DECIMAL(10, 0)",
		"CEIL(price)":      "DECIMAL(10, 0)",
	} {
		x, err := compileText(t, src)
		require.NoError(t, err, src)
		require.Equal(t, want, typeName(x.DataType()), src)
	}
	_, err := compileText(t, "1.000000000000000000000000000000000000001")
	require.ErrorContains(t, err, "more than 38 digits")
}

// Constant DECIMAL arithmetic folds to Flink's exact answers; a result
// with more digits than its type is NULL, as Flink's DecimalData.
func TestDecimalArithConstants(t *testing.T) {
	const nines = "99999999999999999999999999999999999999"
	for src, want := range map[string]string{
		"0.1 + 0.2":       "0.3", // Flink: 0.3, not 0.30000000000000004
		"0.908 * 3345118": "3037367.144",
		"1.50 - 2":        "-0.50",
		"-0.5 * 2":        "-1.0",
		"10 / 3.0":        "3.333333",
		"2.00 / 3":        "0.6666666666667",
		"-1.00 / 3":       "-0.3333333333333",
		"7.5 % 2":         "1.5",
		"-1.25 % 0.3":     "-0.05",
		"CAST('" + nines + "' AS DECIMAL(38, 0)) + 1":                                               "NULL",
		"CAST('" + nines + "' AS DECIMAL(38, 0)) - 1":                                               "99999999999999999999999999999999999998",
		"CAST('1234567890.123456' AS DECIMAL(38, 6)) * CAST('9876543210.654321' AS DECIMAL(38, 6))": "12193263113290649114.967230",
		"CAST('1234567890.123456' AS DECIMAL(38, 6)) / CAST('9876543210.654321' AS DECIMAL(38, 6))": "0.125000",
		"CAST(1 AS DECIMAL(38, 0)) / CAST(3 AS DECIMAL(38, 0))":                                     "0.333333",
		"CAST(2 AS DECIMAL(38, 0)) / CAST(3 AS DECIMAL(38, 0))":                                     "0.666667",
		"ROUND(47.91, 1)":   "47.9",
		"ROUND(-2.675, 2)":  "-2.68",
		"ROUND(1250.5, -2)": "1300",
		"ROUND(9.99, 1)":    "10.0",
		"ABS(-1.50)":        "1.50",
		"FLOOR(-1.5)":       "-2",
		"CEIL(-1.5)":        "-1",
		"FLOOR(1.5)":        "1",
		"CEIL(1.2)":         "2",
		"CEIL(9.9)":         "10",
		"0.1 = 0.10":        "TRUE",
		"0.1 < 1":           "TRUE",
	} {
		requireFolds(t, src, want)
	}
	_, err := compileText(t, "1.5 / 0")
	require.ErrorContains(t, err, "division by zero")
}

// The column kernels give the same answers per row, NULL in NULL out, and
// free every buffer.
func TestDecimalArithColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Columns(t, mem, exprSchema, 4, map[string][]any{
		"price": {"1.25", "-3.10", nil, "99999999.99"},
		"a":     {3, 0, 5, -2},
		"b":     {int64(3345118), int64(-7), int64(1), nil},
	})
	defer rec.Release()
	for src, want := range map[string][]string{
		"price + a":       {"4.25", "-3.10", "NULL", "99999997.99"},
		"price - 0.005":   {"1.245", "-3.105", "NULL", "99999999.985"},
		"price * a":       {"3.75", "0.00", "NULL", "-199999999.98"},
		"0.908 * b":       {"3037367.144", "-6.356", "0.908", "NULL"},
		"price / 3":       {"0.4166666666667", "-1.0333333333333", "NULL", "33333333.3300000000000"},
		"price % 0.3":     {"0.05", "-0.10", "NULL", "0.09"},
		"-price":          {"-1.25", "3.10", "NULL", "-99999999.99"},
		"ROUND(price, 1)": {"1.3", "-3.1", "NULL", "100000000.0"},
		"FLOOR(price)":    {"1", "-4", "NULL", "99999999"},
		"CEIL(price)":     {"2", "-3", "NULL", "100000000"},
		"ABS(price)":      {"1.25", "3.10", "NULL", "99999999.99"},
		"price > 1.2":     {"true", "false", "NULL", "true"},
	} {
		got, err := evalText(t, src, rec, mem)
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
	_, err := evalText(t, "price / a", rec, mem)
	require.ErrorContains(t, err, "division by zero")
}
