package planner

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/sql"
)

// functionTableDDL is the table every signature is compiled against: the
// argument types' samples are written over its columns.
const functionTableDDL = `CREATE TABLE t (
  ts TIMESTAMP(3), s STRING, i INT, b BIGINT, d DOUBLE, flag BOOLEAN, pt AS PROCTIME(),
  arr ARRAY<INT>, m MAP<STRING, INT>,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 't.json', 'format' = 'json')`

// planFunctionQuery plans query over functionTableDDL and returns the type
// of its first output column.
func planFunctionQuery(t *testing.T, query string) (string, error) {
	t.Helper()
	stmts, err := sql.Parse(functionTableDDL + ";\n" + query)
	if err != nil {
		return "", err
	}
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	p, err := PlanSelect(stmts[1].(*sql.Select), cat, Options{BatchSize: 7})
	if err != nil {
		return "", err
	}
	job, err := p.Job()
	if err != nil {
		return "", err
	}
	return sqlTypeName(job.Schema().Field(0).Type), nil
}

// sampleCall writes a call of name with sample arguments for sig's
// parameters (optional ones only when all is set).
func sampleCall(name string, sig function.Signature, all bool) string {
	var args []string
	for _, p := range sig.Params {
		if p.Optional && !all {
			break
		}
		args = append(args, p.Type.Sample)
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// ownFormExamples are the functions with a grammar of their own, written
// as a query would; a new one needs an example here.
var ownFormExamples = map[string]string{
	"CAST":     "CAST(i AS STRING)",
	"EXTRACT":  "EXTRACT(YEAR FROM ts)",
	"TRIM":     "TRIM(LEADING 'x' FROM s)",
	"TRY_CAST": "TRY_CAST(s AS INT)",

	"IS JSON":     "s IS NOT JSON OBJECT",
	"JSON_EXISTS": "JSON_EXISTS(s, 'lax $.a' UNKNOWN ON ERROR)",
	"JSON_VALUE":  "JSON_VALUE(s, '$.a' RETURNING INT DEFAULT i ON EMPTY DEFAULT -1 ON ERROR)",
	"JSON_QUERY":  "JSON_QUERY(s, '$.a' WITH CONDITIONAL ARRAY WRAPPER EMPTY ARRAY ON EMPTY)",
	"JSON_OBJECT": "JSON_OBJECT(KEY s VALUE i, 'k' VALUE JSON_ARRAY(d, flag) ABSENT ON NULL)",
	"JSON_ARRAY":  "JSON_ARRAY(s, ts, JSON_OBJECT() NULL ON NULL)",

	"JSON_OBJECTAGG": "JSON_OBJECTAGG(KEY s VALUE i ABSENT ON NULL)",
	"JSON_ARRAYAGG":  "JSON_ARRAYAGG(d NULL ON NULL)",

	"POSITION": "POSITION(s IN s)",
	"OVERLAPS": "(ts, INTERVAL '1' HOUR) OVERLAPS (ts, ts)",
	"OVERLAY":  "OVERLAY(s PLACING s FROM i FOR i)",
}

// unitExamples are calls of the signatures that name a time unit.
var unitExamples = map[string]string{
	"FLOOR":         "FLOOR(ts TO HOUR)",
	"CEIL":          "CEIL(ts TO HOUR)",
	"CEILING":       "CEILING(ts TO HOUR)",
	"TIMESTAMPADD":  "TIMESTAMPADD(DAY, i, ts)",
	"TIMESTAMPDIFF": "TIMESTAMPDIFF(DAY, ts, ts)",
}

// windowOf is the GROUP BY window a window property is selected with.
func windowOf(t *testing.T, prop *function.Function) *function.Function {
	name := prop.Name[:strings.LastIndexByte(prop.Name, '_')]
	w := builtins.Lookup(name)
	require.NotNil(t, w, "no window %s for %s", name, prop.Name)
	return w
}

// TestEveryListedFunctionCompiles: each function SHOW FUNCTIONS lists
// compiles with every signature (all its names), and a scalar's result
// type is its signature's when that names a type.
func TestEveryListedFunctionCompiles(t *testing.T) {
	for _, fn := range builtins.Functions() {
		if !fn.Runs() {
			continue
		}
		for _, name := range fn.Names() {
			for _, sig := range fn.Signatures {
				for _, all := range []bool{false, true} {
					var query string
					call := sampleCall(name, sig, all)
					switch {
					case sig.Unit:
						ex, ok := unitExamples[name]
						require.True(t, ok, "function %s names a time unit: add an example to unitExamples", name)
						query = "SELECT " + ex + " FROM t"
					case fn.Syntax == function.SyntaxOwnForm:
						ex, ok := ownFormExamples[name]
						require.True(t, ok, "function %s has its own form: add an example to ownFormExamples", name)
						query = "SELECT " + ex + " FROM t"
						if fn.Kind == function.AggregateFunction {
							query += " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
						}
					case fn.Syntax == function.SyntaxComputedColumn:
						query = "SELECT COUNT(*) FROM t GROUP BY TUMBLE(pt, INTERVAL '1' MINUTE)" // the table's pt AS PROCTIME()
					case fn.Syntax == function.SyntaxGroupBy && fn.Kind == function.AggregateFunction:
						// GROUPING(x, ...), GROUP_ID(): over grouping sets of their arguments
						args := call[strings.Index(call, "(")+1 : len(call)-1]
						if args == "" {
							args = "s"
						}
						query = "SELECT " + call + " FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), CUBE(" + args + ")"
					case fn.Kind == function.ScalarFunction:
						query = "SELECT " + call + " FROM t"
					case fn.Kind == function.AggregateFunction:
						query = "SELECT " + call + " FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
					case fn.Kind == function.WindowFunction:
						query = "SELECT COUNT(*) FROM t GROUP BY " + call
					case fn.Kind == function.WindowPropertyFunction:
						query = "SELECT " + call + " FROM t GROUP BY " + sampleCall(windowOf(t, fn).Name, sig, all)
					}
					got, err := planFunctionQuery(t, query)
					require.NoError(t, err, query)
					if fn.Kind == function.ScalarFunction && fn.Syntax == function.SyntaxCall && isTypeName(sig.Result) {
						require.Equal(t, sig.Result, got, "result type of %s", query)
					}
				}
			}
			if fn.Bare {
				_, err := planFunctionQuery(t, "SELECT "+name+" FROM t")
				require.NoError(t, err, name)
			}
		}
	}
}

// isTypeName reports a result written as a SQL type, not as a rule.
func isTypeName(s string) bool {
	return s != "" && s == strings.ToUpper(s) && !strings.Contains(s, " ")
}

// TestKnownFunctionsThatDoNotRunSaySo: a Flink function wsql knows but
// does not run is refused as not supported, not as unknown, and SHOW
// FUNCTIONS does not list it.
func TestKnownFunctionsThatDoNotRunSaySo(t *testing.T) {
	listed := builtins.RunnableNames()
	for _, fn := range builtins.Functions() {
		if fn.Runs() {
			continue
		}
		require.NotContains(t, listed, fn.Name)
		query := "SELECT " + sampleCall(fn.Name, fn.Signatures[0], true) + " FROM t"
		if fn.Kind == function.AggregateFunction {
			query += " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
		}
		_, err := planFunctionQuery(t, query)
		var se *sql.Error
		require.True(t, errors.As(err, &se), "%s: %v", query, err)
		require.Equal(t, sql.ErrUnsupported, se.Kind, "%s: %v", query, err)
	}
}

// TestShowFunctionsIsTheRegistry: SHOW FUNCTIONS lists exactly the names
// and aliases of the functions that run, each once, sorted; every name
// the compiler resolves (scalars and aggregates, running or not) is a
// registry entry with a description and a signature.
func TestShowFunctionsIsTheRegistry(t *testing.T) {
	var want []string
	for _, fn := range builtins.Functions() {
		require.NotEmpty(t, fn.Description, fn.Name)
		require.NotEmpty(t, fn.Signatures, fn.Name)
		for _, sig := range fn.Signatures {
			require.NotEmpty(t, sig.Result, fn.Name)
			for _, p := range sig.Params {
				require.NotEmpty(t, p.Type.Sample, "%s: parameter %s has no sample", fn.Name, p.Name)
			}
		}
		if fn.Runs() {
			want = append(want, fn.Names()...)
		}
	}
	slices.Sort(want)
	require.Equal(t, want, builtins.RunnableNames())
	require.Equal(t, slices.Compact(slices.Clone(want)), want, "a name is listed twice")
	for _, n := range []string{"WEEK", "DAYOFWEEK", "DAYOFYEAR"} {
		require.Contains(t, builtins.RunnableNames(), n)
	}
	for _, name := range builtins.CallableNames() {
		require.NotNil(t, builtins.Lookup(name), name)
	}
}

func TestUnknownFunctionSuggestsARegisteredName(t *testing.T) {
	_, err := planFunctionQuery(t, "SELECT UPPPER(s) FROM t")
	require.ErrorContains(t, err, "unknown function UPPPER")
	require.ErrorContains(t, err, "UPPER")
}

// TestFunctionCallErrors pins the errors the registry's checks give, as
// the compiler gave them before it read the registry.
func TestFunctionCallErrors(t *testing.T) {
	window := " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
	cases := map[string]string{
		"SELECT UPPER(i) FROM t":                                        "UPPER expects a STRING, got INT",
		"SELECT CHARACTER_LENGTH(i) FROM t":                             "CHARACTER_LENGTH expects a STRING, got INT",
		"SELECT SUBSTR(s, s) FROM t":                                    "SUBSTR expects an integer start, got STRING",
		"SELECT SUBSTRING(s, 1, d) FROM t":                              "SUBSTRING expects an integer length, got DOUBLE",
		"SELECT NOW(1) FROM t":                                          "NOW takes no arguments, got 1",
		"SELECT UNIX_TIMESTAMP(s, 'x', 'y') FROM t":                     "UNIX_TIMESTAMP takes 0 to 2 arguments, got 3",
		"SELECT CONCAT() FROM t":                                        "CONCAT takes at least 1 argument, got 0",
		"SELECT ROUND(d, 1, 2) FROM t":                                  "ROUND takes 1 to 2 arguments, got 3",
		"SELECT YEAR(ts, ts) FROM t":                                    "YEAR takes 1 argument, got 2",
		"SELECT POWER(s, 2) FROM t":                                     "POWER expects a number, got STRING",
		"SELECT IF(i, 1, 2) FROM t":                                     "IF expects a BOOLEAN, got INT",
		"SELECT WEEK(s) FROM t":                                         "EXTRACT expects a DATE or TIMESTAMP, got STRING",
		"SELECT TO_TIMESTAMP_LTZ(s, 3) FROM t":                          "TO_TIMESTAMP_LTZ expects an integer, got STRING",
		"SELECT TO_TIMESTAMP_LTZ(b, 2) FROM t":                          "the precision of TO_TIMESTAMP_LTZ must be 0 (epoch seconds) or 3 (epoch milliseconds)",
		"SELECT ROUND(d, i) FROM t":                                     "the digits of ROUND must be a constant integer",
		"SELECT DATE_FORMAT(i, 'yyyy') FROM t":                          "DATE_FORMAT expects a TIMESTAMP, got INT",
		"SELECT TO_TIMESTAMP(s, s) FROM t":                              "the format of TO_TIMESTAMP must be a constant string",
		"SELECT PROCTIME() FROM t":                                      "PROCTIME() has no value to show yet",
		"SELECT ENCODE(s, 'EBCDIC') FROM t":                             `ENCODE: the character set "EBCDIC" is not supported; use one of US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16`,
		"SELECT DECODE(s, 'UTF-8') FROM t":                              "DECODE expects BYTES, got STRING",
		"SELECT TRY_PARSE_JSON(s) FROM t":                               "function TRY_PARSE_JSON is not supported yet: it needs the VARIANT type, which wsql does not have yet",
		"SELECT HASH_CODE(s) FROM t":                                    "function HASH_CODE is not supported yet: its value is the hashCode() of Flink's internal Java objects",
		"SELECT GROUP_ID() FROM t" + window:                             "",
		"SELECT COLLECT(s), ARRAY_AGG(s) FROM t" + window:               "",
		"SELECT UPPER(s) FROM t WHERE SUM(d) > 1":                       "aggregate SUM is not allowed here",
		"SELECT COUNT(*) FROM t" + window + " HAVING LOWERR('a') = 'a'": "unknown function LOWERR",
		"SELECT SUM(s) FROM t" + window:                                 "SUM expects a numeric argument, got STRING",
		"SELECT MAX(UPPER(s)) FROM t" + window:                          "",
	}
	for q, msg := range cases {
		_, err := planFunctionQuery(t, q)
		if msg == "" {
			require.NoError(t, err, q)
			continue
		}
		require.ErrorContains(t, err, msg, q)
	}
}
