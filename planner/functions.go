package planner

import "sort"

// Flink's built-in functions that users write in windowed queries; used to
// tell "not supported yet" from "unknown" and to suggest a name for a typo.
var aggregateFunctions = []string{
	"COUNT", "SUM", "AVG", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE",
	"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "LISTAGG", "COLLECT",
}

var scalarFunctions = []string{
	"ABS", "CEIL", "CEILING", "FLOOR", "ROUND", "MOD", "POWER", "SQRT", "EXP", "LN", "LOG10",
	"UPPER", "LOWER", "CONCAT", "CONCAT_WS", "SUBSTRING", "SUBSTR", "CHAR_LENGTH", "CHARACTER_LENGTH",
	"TRIM", "LTRIM", "RTRIM", "REPLACE", "REGEXP_REPLACE", "REGEXP_EXTRACT", "INITCAP", "LPAD", "RPAD",
	"COALESCE", "NULLIF", "IF", "IFNULL", "CAST", "TRY_CAST",
	"EXTRACT", "YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFYEAR", "DAYOFMONTH", "DAYOFWEEK", "HOUR", "MINUTE", "SECOND",
	"DATE_FORMAT", "TO_TIMESTAMP", "TO_TIMESTAMP_LTZ", "TO_DATE", "UNIX_TIMESTAMP", "FROM_UNIXTIME",
	"CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "NOW", "PROCTIME",
	"TIMESTAMPADD", "TIMESTAMPDIFF", "CONVERT_TZ", "MD5", "SHA1", "SHA256", "HASH_CODE",
}

func isAggregate(name string) bool      { return contains(aggregateFunctions, name) }
func isScalarFunction(name string) bool { return contains(scalarFunctions, name) }

// knownFunctions lists every function name wsql knows, sorted.
func knownFunctions() []string {
	out := append(append([]string(nil), aggregateFunctions...), scalarFunctions...)
	sort.Strings(out)
	return out
}

// runnableFunctions are the functions wsql evaluates today (SHOW FUNCTIONS).
var runnableFunctions = []string{
	// aggregates
	"COUNT", "SUM", "AVG", "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE",
	"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "LISTAGG",
	// windows and their auxiliaries
	"TUMBLE", "TUMBLE_START", "TUMBLE_END", "TUMBLE_ROWTIME",
	"HOP", "HOP_START", "HOP_END", "HOP_ROWTIME",
	"SESSION", "SESSION_START", "SESSION_END", "SESSION_ROWTIME",
	"CUMULATE", "CUMULATE_START", "CUMULATE_END", "CUMULATE_ROWTIME", "COUNT_WINDOW",
	// scalar functions
	"UPPER", "LOWER", "CHAR_LENGTH", "CHARACTER_LENGTH", "CONCAT", "REPLACE", "SUBSTRING", "SUBSTR",
	"TRIM", "LTRIM", "RTRIM", "COALESCE", "IFNULL", "NULLIF", "IF", "CAST",
	"ABS", "FLOOR", "CEIL", "CEILING", "SQRT", "EXP", "LN", "LOG10", "POWER", "ROUND", "MOD",
	"EXTRACT", "YEAR", "QUARTER", "MONTH", "DAYOFMONTH", "HOUR", "MINUTE", "SECOND",
	"DATE_FORMAT", "TO_TIMESTAMP", "TO_TIMESTAMP_LTZ", "UNIX_TIMESTAMP",
	"CURRENT_TIMESTAMP", "NOW", "LOCALTIMESTAMP", "CURRENT_DATE", "PROCTIME",
}

// FunctionNames lists what SHOW FUNCTIONS prints: the functions wsql runs.
func FunctionNames() []string {
	out := append([]string(nil), runnableFunctions...)
	sort.Strings(out)
	return out
}
