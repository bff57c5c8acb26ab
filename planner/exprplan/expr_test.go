package exprplan

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/sql"
)

// schemaScope resolves column names against a schema.
type schemaScope struct{ s *arrow.Schema }

func (sc schemaScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	c, ok := e.(*sql.ColumnRef)
	if !ok {
		return 0, arrow.Field{}, false, nil
	}
	for i, f := range sc.s.Fields() {
		if strings.EqualFold(f.Name, c.Name) {
			return i, f, true, nil
		}
	}
	if builtins.IsBare(c.Name) {
		return 0, arrow.Field{}, false, nil
	}
	var names []string
	for _, f := range sc.s.Fields() {
		names = append(names, f.Name)
	}
	return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found%s", c.Name, sql.DidYouMean(c.Name, names))
}

var exprSchema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: tInt}, {Name: "b", Type: tBigint}, {Name: "d", Type: tDouble},
	{Name: "s", Type: tString}, {Name: "ts", Type: tTS}, {Name: "ltz", Type: tLTZ},
	{Name: "flag", Type: tBool}, {Name: "day", Type: tDate},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}},
}, nil)

// 2024-02-29 13:45:12.345 UTC
const exprNow = int64(1709214312345)

func compileText(t *testing.T, src string) (expr.Expr, error) {
	t.Helper()
	e, err := sql.ParseExpr(src)
	require.NoError(t, err, src)
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	return CompileExpr(e, schemaScope{exprSchema}, ExprOptions{Location: shanghai, Now: exprNow})
}

func TestCompileExprTypes(t *testing.T) {
	for src, want := range map[string]string{
		"a + 1":                             "INT",
		"a + b":                             "BIGINT",
		"a * d":                             "DOUBLE",
		"a / 2":                             "INT",
		"b % a":                             "INT",
		"MOD(b, 3)":                         "INT",
		"CAST(a AS FLOAT) + a":              "FLOAT",
		"a + 1.5":                           "DECIMAL(12, 1)",
		"-a":                                "INT",
		"a > 1 AND NOT flag":                "BOOLEAN",
		"s LIKE 'x%'":                       "BOOLEAN",
		"a IN (1, 2, NULL)":                 "BOOLEAN",
		"a BETWEEN 1 AND d":                 "BOOLEAN",
		"s IS NULL":                         "BOOLEAN",
		"CASE WHEN a > 1 THEN a ELSE b END": "BIGINT",
		"CASE a WHEN 1 THEN 'x' END":        "STRING",
		"COALESCE(a, 0)":                    "INT",
		"NULLIF(s, '')":                     "STRING",
		"IF(flag, d, 0)":                    "DOUBLE",
		"CAST(s AS BIGINT)":                 "BIGINT",
		"CAST(ts AS DATE)":                  "DATE",
		"CAST(a AS STRING)":                 "STRING",
		"UPPER(s) || 'x'":                   "STRING",
		"CHAR_LENGTH(s)":                    "INT",
		"SUBSTRING(s FROM 2 FOR 3)":         "STRING",
		"TRIM(LEADING 'x' FROM s)":          "STRING",
		"REPLACE(s, 'a', 'b')":              "STRING",
		"ROUND(d, 2)":                       "DOUBLE",
		"ROUND(a, -1)":                      "INT",
		"FLOOR(d)":                          "DOUBLE",
		"POWER(a, 2)":                       "DOUBLE",
		"EXTRACT(HOUR FROM ts)":             "BIGINT",
		"YEAR(ltz)":                         "BIGINT",
		"DATE_FORMAT(ts, 'yyyy-MM-dd')":     "STRING",
		"TO_TIMESTAMP(s)":                   "TIMESTAMP(3)",
		"TO_TIMESTAMP_LTZ(b, 3)":            "TIMESTAMP_LTZ(3)",
		"UNIX_TIMESTAMP()":                  "BIGINT",
		"UNIX_TIMESTAMP(s, 'yyyy-MM-dd')":   "BIGINT",
		"ts - INTERVAL '5' SECOND":          "TIMESTAMP(3)",
		"day + INTERVAL '1' DAY":            "DATE",
		"CURRENT_TIMESTAMP":                 "TIMESTAMP_LTZ(3)",
		"ts > '2024-01-01 00:00:00'":        "BOOLEAN",
		"ts >= day":                         "BOOLEAN",
		"price > 10":                        "BOOLEAN",
		"price * 2.0":                       "DECIMAL(13, 3)",
		"CAST(d AS DECIMAL(10, 2))":         "DECIMAL(10, 2)",
	} {
		x, err := compileText(t, src)
		require.NoError(t, err, src)
		require.Equal(t, want, typeName(x.DataType()), src)
	}
}

func TestCompileExprErrors(t *testing.T) {
	for src, want := range map[string]string{
		"UPPER(a)":                           "1:7: UPPER expects a STRING, got INT",
		"UPPR(s)":                            "1:1: unknown function UPPR; did you mean UPPER?",
		"a + s":                              "1:5: + expects numbers, got INT + STRING",
		"ts + 1":                             "1:1: cannot apply + to TIMESTAMP(3) and INT; add or subtract an INTERVAL",
		"s > 1":                              "cannot compare STRING with INT",
		"ts > ltz":                           "cannot compare TIMESTAMP(3) with TIMESTAMP_LTZ(3); CAST one side",
		"REPLACE(s, 'a')":                    "1:1: REPLACE takes 3 arguments, got 2",
		"1 / 0":                              "1:1: expression error: division by zero",
		"CAST('x' AS INT)":                   `cannot read "x"`,
		"ts > 'garbage'":                     `1:6: expression error: CAST('garbage' AS TIMESTAMP(3)): cannot read "garbage"`,
		"CAST(a AS TIMESTAMP)":               "cannot CAST INT to TIMESTAMP(6); use TO_TIMESTAMP_LTZ",
		"s LIKE 'a!b' ESCAPE '!'":            "1:8: invalid escape sequence",
		"s LIKE s":                           "the LIKE pattern must be a constant string",
		"CASE WHEN a THEN 1 END":             "1:11: WHEN expects a BOOLEAN, got INT",
		"CASE WHEN flag THEN 1 ELSE 'x' END": "CASE results have no common type: INT and STRING",
		"ROUND(d, a)":                        "the digits of ROUND must be a constant integer",
		"DATE_FORMAT(ts, 'yyyy z')":          "pattern letter 'z' is not supported: it names a time zone",
		"COUNT(a)":                           "aggregate COUNT is not allowed here",
		"nope + 1":                           "1:1: column nope not found",
		"TO_TIMESTAMP_LTZ(b, 6)":             "the precision of TO_TIMESTAMP_LTZ must be 0",
		"CONVERT_TZ(s, 'a', 'b')":            `1:15: unknown time zone "a"`,
		"TIMESTAMPADD(DECADE, 1, ts)":        "1:1: TIMESTAMPADD does not support the unit DECADE; use NANOSECOND, MICROSECOND, MILLISECOND",
		"FLOOR(a TO DAY)":                    "1:7: FLOOR expects a DATE or TIMESTAMP, got INT",
		"TIMESTAMPDIFF(DAY, ts, ltz)":        "TIMESTAMPDIFF of TIMESTAMP(3) and TIMESTAMP_LTZ(3): CAST one to the other's type",
		"s SIMILAR TO s":                     "the SIMILAR TO pattern must be a constant string",
		"s SIMILAR TO '[a'":                  `1:14: invalid SIMILAR TO pattern "[a": [ is not closed`,
		"GREATEST(s, 1)":                     "cannot compare STRING with INT",
		"flag IS DISTINCT FROM s":            "cannot compare BOOLEAN with STRING",
		"a IS TRUE":                          "1:1: IS TRUE expects a BOOLEAN, got INT",
		"TYPEOF(a, flag)":                    "force_serializable of TYPEOF must be TRUE or FALSE",
	} {
		_, err := compileText(t, src)
		require.Error(t, err, src)
		require.ErrorContains(t, err, want, src)
	}
	e, err := sql.ParseExpr("a + 1")
	require.NoError(t, err)
	_, err = CompileCondition(e, schemaScope{exprSchema}, ExprOptions{})
	require.ErrorIs(t, err, sql.ErrInvalid)
	require.EqualError(t, err, "1:1: a condition must be BOOLEAN, got INT")
}

// TestCompiledExprValues runs compiled expressions over a batch.
func TestCompiledExprValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Record(t, mem, exprSchema,
		[]any{7, 2, 2.675, "Hello", exprNow, 0, true, 0, nil},
		[]any{nil, 0, -0.5, "", -1, 57_600_000, false, -1, nil})
	defer rec.Release()
	for src, want := range map[string][]string{
		"a / b + 1":            {"4", "NULL"},
		"b <> 0 AND a / b > 1": {"true", "false"},
		"CASE WHEN b = 0 THEN -1 ELSE 10 / b END": {"5", "-1"},
		"COALESCE(a, 0) * 2":                      {"14", "0"},
		"ROUND(d, 2)":                             {"2.68", "-0.5"},
		"ROUND(d)":                                {"3.0", "-1.0"},
		"CAST(ROUND(d) AS STRING) || '!'":         {"3.0!", "-1.0!"},
		"UPPER(s) || '!'":                         {"HELLO!", "!"},
		"SUBSTRING(s, 2, 3)":                      {"ell", ""},
		"HOUR(ltz)":                               {"8", "0"},
		"DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm')":    {"1970-01-01 08:00", "1970-01-02 00:00"},
		"CAST(ltz AS STRING)":                     {"1970-01-01 08:00:00.000", "1970-01-02 00:00:00.000"},
		"EXTRACT(DAY FROM ts)":                    {"29", "31"},
		"ts - INTERVAL '1' MINUTE < ts":           {"true", "true"},
		"ts >= DATE '2024-01-01'":                 {"true", "false"},
		"a NOT IN (1, 7)":                         {"false", "NULL"},
		"a NOT BETWEEN 0 AND 5":                   {"true", "NULL"},
		"s LIKE 'H_l%'":                           {"true", "false"},
		"NULLIF(b, 0)":                            {"2", "NULL"},
		"IF(flag, 'y', 'n')":                      {"y", "n"},
		"CURRENT_TIMESTAMP":                       {"2024-02-29 13:45:12.345", "2024-02-29 13:45:12.345"},
		"UNIX_TIMESTAMP()":                        {"1709214312", "1709214312"},
		"CAST(CURRENT_TIMESTAMP AS DATE)":         {"2024-02-29", "2024-02-29"},
		"day + INTERVAL '2' DAY":                  {"1970-01-03", "1970-01-02"},
	} {
		x, err := compileText(t, src)
		require.NoError(t, err, src)
		a, err := x.Eval(rec, mem)
		require.NoError(t, err, src)
		got := make([]string, a.Len())
		for i := range got {
			got[i] = "NULL"
			if a.IsValid(i) {
				got[i] = string(format.AppendValue(nil, a, i, time.UTC))
			}
		}
		a.Release()
		require.Equal(t, want, got, src)
	}
}

func TestConstantsFold(t *testing.T) {
	x, err := compileText(t, "UPPER('a' || 'b') = 'AB' AND 1 + 2 > 2")
	require.NoError(t, err)
	l, ok := x.(*expr.Literal)
	require.True(t, ok, "%T", x)
	require.Equal(t, int64(1), l.Int)
	x, err = compileText(t, "ts > '2024-01-01 00:00:00'")
	require.NoError(t, err)
	require.Equal(t, "(ts#4 > TIMESTAMP '2024-01-01 00:00:00.000')", x.String())
}
