package sql

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// erase zeroes, in place, what Format does not promise to keep: positions
// and the as-written texts (IntervalLiteral.Text, CreateView.QueryText).
func erase(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			erase(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			erase(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[Pos]() {
			v.SetZero()
			return
		}
		for i := range v.NumField() {
			switch name := v.Type().Field(i).Name; {
			case v.Type() == reflect.TypeFor[IntervalLiteral]() && name == "Text",
				v.Type() == reflect.TypeFor[CreateView]() && name == "QueryText":
				v.Field(i).SetZero()
			default:
				erase(v.Field(i))
			}
		}
	}
}

// requireRoundTrip checks that Format(st) parses back into st, modulo
// what erase clears. It clears those fields of st.
func requireRoundTrip(t testing.TB, st Statement) {
	t.Helper()
	text := formatStmt(st)
	again, err := Parse(text)
	require.NoError(t, err, "Format gave:\n%s", text)
	require.Len(t, again, 1, "Format gave:\n%s", text)
	erase(reflect.ValueOf(st))
	erase(reflect.ValueOf(again[0]))
	require.Equal(t, st, again[0], "Format gave:\n%s", text)
}

func TestFormatExpr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a + b * c", "a + b * c"},
		{"(a + b) * c", "(a + b) * c"},
		{"a - (b - c)", "a - (b - c)"},
		{"(a - b) - c", "a - b - c"},
		{"a || b || c", "(a || b) || c"},
		{"a || b + c", "(a || b) + c"},
		{"a AND (b OR c)", "a AND (b OR c)"},
		{"NOT (a AND b)", "NOT (a AND b)"},
		{"NOT a = b", "NOT (a = b)"},
		{"(a = b) = c", "(a = b) = c"},
		{"(a + 1) IS NULL", "a + 1 IS NULL"},
		{"(a = 1) IS NOT NULL", "(a = 1) IS NOT NULL"},
		{"- -1", "-(-1)"},
		{"1 - -1", "1 - -1"},
		{"NOT NOT a", "NOT (NOT a)"},
		{"NOT a AND b", "NOT a AND b"},
		{"a AND b OR c AND d", "a AND b OR c AND d"},
		{"a IS NULL IS NULL", "(a IS NULL) IS NULL"},
		{"(a || b) * c", "(a || b) * c"},
		{"POSITION('a' IN b)", "POSITION('a' IN b)"},
		{"SUBSTRING(a, 1, 2)", "SUBSTRING(a FROM 1 FOR 2)"},
		{"CURRENT_TIMESTAMP()", "CURRENT_TIMESTAMP"},
		{"DATE '2024-01-02'", "DATE '2024-01-02'"},
		{"TIMESTAMP '2024-01-02 10:00:00.123456'", "TIMESTAMP '2024-01-02 10:00:00.123456'"},
		{"CAST('10:00:00.5' AS TIME)", "CAST('10:00:00.5' AS TIME)"},
		{"CAST(a AS TIMESTAMP(3) WITH LOCAL TIME ZONE)", "CAST(a AS TIMESTAMP_LTZ(3))"},
		{"-(a + b)", "-(a + b)"},
		{"'it''s'", "'it''s'"},
		{"`select` + `my col` + `a``b` + x1", "`select` + `my col` + `a``b` + x1"},
		{"COUNT(*) + COUNT(DISTINCT a)", "COUNT(*) + COUNT(DISTINCT a)"},
		{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
		{"CAST(a AS DECIMAL(10, 2))", "CAST(a AS DECIMAL(10, 2))"},
		{"INTERVAL '90' SECOND", "INTERVAL '90' SECOND"},
		{"INTERVAL '1:30' MINUTE TO SECOND", "INTERVAL '90' SECOND"},
		{"INTERVAL '2' MINUTES", "INTERVAL '2' MINUTE"},
		{"INTERVAL '120' MINUTE", "INTERVAL '2' HOUR"},
		{"INTERVAL '1.5' SECOND", "INTERVAL '1.5' SECOND"},
		{"INTERVAL '-0.25' SECOND", "INTERVAL '-0.25' SECOND"},
		{"INTERVAL '150' SECOND", "INTERVAL '150' SECOND(3)"},
		{"INTERVAL '100' DAY", "INTERVAL '100' DAY(3)"},
		{"INTERVAL '4503599627.37' SECOND", "INTERVAL '52124 23:53:47.37' DAY(5) TO SECOND(3)"},
		{"a IN (1, b + 1)", "a IN (1, b + 1)"},
		{"NOT a IN (1)", "NOT (a IN (1))"},
		{"a NOT IN (1) AND b", "a NOT IN (1) AND b"},
		{"(a = 1) IN (TRUE)", "(a = 1) IN (TRUE)"},
		{"(a IN (1)) IS NULL", "(a IN (1)) IS NULL"},
		{"(a IN (1)) = (b IN (2))", "(a IN (1)) = (b IN (2))"},
		{"a BETWEEN 1 AND 2 AND b", "a BETWEEN 1 AND 2 AND b"},
		{"a NOT BETWEEN b - 1 AND b + 1", "a NOT BETWEEN b - 1 AND b + 1"},
		{"a BETWEEN 1 AND (b BETWEEN 2 AND 3)", "a BETWEEN 1 AND (b BETWEEN 2 AND 3)"},
		{"(a BETWEEN 1 AND 2) BETWEEN FALSE AND TRUE", "(a BETWEEN 1 AND 2) BETWEEN FALSE AND TRUE"},
		{"a BETWEEN (1 = 1) AND (b OR c)", "a BETWEEN (1 = 1) AND (b OR c)"},
		{"NOT a BETWEEN 1 AND 2", "NOT (a BETWEEN 1 AND 2)"},
		{"a || b BETWEEN 'a' AND 'b' || 'c'", "(a || b) BETWEEN 'a' AND ('b' || 'c')"},
		{"a LIKE 'x%'", "a LIKE 'x%'"},
		{"a NOT LIKE 'x!%' ESCAPE '!'", "a NOT LIKE 'x!%' ESCAPE '!'"},
		{"a LIKE b || 'c' ESCAPE 'c'", "a LIKE (b || 'c') ESCAPE 'c'"},
		{"a LIKE -1", "a LIKE (-1)"},
		{"(a LIKE 'x') LIKE 'y'", "(a LIKE 'x') LIKE 'y'"},
		{"a LIKE (b LIKE 'y' ESCAPE 'y') ESCAPE 'z'", "a LIKE (b LIKE 'y' ESCAPE 'y') ESCAPE 'z'"},
		{"NOT a LIKE 'x' OR b", "NOT (a LIKE 'x') OR b"},
		{"CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE NULL END", "CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE NULL END"},
		{"CASE WHEN a > 1 AND b THEN 1 END + 1", "CASE WHEN a > 1 AND b THEN 1 END + 1"},
		{"-CASE WHEN a THEN 1 END", "-CASE WHEN a THEN 1 END"},
		{"a LIKE CASE WHEN b LIKE 'x' ESCAPE 'x' THEN 'y' END ESCAPE 'z'", "a LIKE CASE WHEN b LIKE 'x' ESCAPE 'x' THEN 'y' END ESCAPE 'z'"},
		{"EXTRACT(dow FROM ts) + 1", "EXTRACT(DOW FROM ts) + 1"},
		{"EXTRACT(HOUR FROM ts - INTERVAL '1' HOUR)", "EXTRACT(HOUR FROM ts - INTERVAL '1' HOUR)"},
		{"TRIM(x)", "TRIM(x)"},
		{"TRIM(FROM x)", "TRIM(x)"},
		{"TRIM(BOTH FROM x)", "TRIM(x)"},
		{"TRIM('a' FROM x)", "TRIM(BOTH 'a' FROM x)"},
		{"TRIM(LEADING FROM x)", "TRIM(LEADING FROM x)"},
		{"TRIM(TRAILING ' ' FROM x || y)", "TRIM(TRAILING ' ' FROM x || y)"},
		{"MOD(a, 2)", "MOD(a, 2)"},
		{"MOD(a, 2) % 3", "MOD(a, 2) % 3"},
		{"a % 2", "a % 2"},
		{"CONCAT(a, b) || c", "CONCAT(a, b) || c"},
		{"ts + INTERVAL '1' HOUR > CURRENT_TIMESTAMP", "ts + INTERVAL '1' HOUR > CURRENT_TIMESTAMP"},
		{"`my fn`(1) + `_f`(2)", "`MY FN`(1) + `_F`(2)"},
		// Flink forms MySQL lacks (flink_forms.go)
		{"a IS DISTINCT FROM b + 1", "a IS DISTINCT FROM b + 1"},
		{"a IS NOT DISTINCT FROM NULL AND b", "a IS NOT DISTINCT FROM NULL AND b"},
		{"a BETWEEN SYMMETRIC 3 AND 1", "a BETWEEN SYMMETRIC 3 AND 1"},
		{"a NOT BETWEEN ASYMMETRIC 1 AND 3", "a NOT BETWEEN 1 AND 3"},
		{"a NOT SIMILAR TO '(x|y)%' ESCAPE '!'", "a NOT SIMILAR TO '(x|y)%' ESCAPE '!'"},
		{"a IS NOT TRUE OR b IS FALSE", "a IS NOT TRUE OR b IS FALSE"},
		{"(a = 1) IS TRUE", "(a = 1) IS TRUE"},
		{"TRY_CAST(a AS INT) + 1", "TRY_CAST(a AS INT) + 1"},
		{"FLOOR(ts TO day) < CEIL((ts + INTERVAL '1' HOUR) TO HOUR)", "FLOOR(ts TO DAY) < CEIL((ts + INTERVAL '1' HOUR) TO HOUR)"},
		{"FLOOR(x) + CEILING(x)", "FLOOR(x) + CEILING(x)"},
		{"TIMESTAMPADD(MONTH, 1, ts)", "TIMESTAMPADD(MONTH, 1, ts)"},
		{"TIMESTAMPDIFF(SQL_TSI_DAY, a, b)", "TIMESTAMPDIFF(DAY, a, b)"},
		{"CASE a WHEN 1, 2 THEN 'x' WHEN (3), f(4, 5) THEN 'y' END", "CASE a WHEN 1, 2 THEN 'x' WHEN 3, F(4, 5) THEN 'y' END"},
	} {
		e, err := ParseExpr(tc.in)
		require.NoError(t, err, tc.in)
		got := formatExpr(e)
		require.Equal(t, tc.want, got, tc.in)
		again, err := ParseExpr(got)
		require.NoError(t, err, got)
		erase(reflect.ValueOf(e))
		erase(reflect.ValueOf(again))
		require.Equal(t, e, again, got)
	}
}

func TestQuoteName(t *testing.T) {
	for name, want := range map[string]string{
		"usr": "usr", "window_start": "window_start", "Ümlaut": "Ümlaut", "a$b": "a$b",
		"select": "`select`", "count": "`count`", "key": "key", "1a": "`1a`", "my col": "`my col`",
		"a`b": "`a``b`", "_utf8mb4": "`_utf8mb4`", "": "``",
	} {
		require.Equal(t, want, quoteName(name), name)
	}
}
