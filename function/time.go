package function

import (
	"strings"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// init adds the family at its place in the registry.
func init() { addFamily(400, timeFunctions) }

// timeFunctions are the date and time functions.
var timeFunctions = []Function{
	{Name: "EXTRACT", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "a field of a DATE or TIMESTAMP; unit is one of " + strings.Join(expr.ExtractUnits, ", "),
		Signatures: []Signature{{Params: []Param{{Name: "t", Type: argTemporal}}, Written: "EXTRACT(unit FROM t)", Result: "BIGINT"}}},
	calendarFunction("YEAR", "YEAR", "the year"),
	calendarFunction("QUARTER", "QUARTER", "the quarter, 1 to 4"),
	calendarFunction("MONTH", "MONTH", "the month, 1 to 12"),
	calendarFunction("WEEK", "WEEK", "the ISO week of the year, 1 to 53"),
	calendarFunction("DAYOFYEAR", "DOY", "the day of the year, 1 to 366"),
	calendarFunction("DAYOFMONTH", "DAY", "the day of the month, 1 to 31"),
	calendarFunction("DAYOFWEEK", "DOW", "the day of the week, 1 (Sunday) to 7"),
	calendarFunction("HOUR", "HOUR", "the hour, 0 to 23"),
	calendarFunction("MINUTE", "MINUTE", "the minute, 0 to 59"),
	calendarFunction("SECOND", "SECOND", "the second, 0 to 59"),
	{Name: "DATE_FORMAT", Kind: ScalarFunction, Description: "t as text in a Java date format such as `'yyyy/MM/dd HH:mm'` or `'EEE, dd MMM yyyy h:mm a'` (every letter of a date-time without a zone, English names, `'quoted'` text; a zone letter is an error); a STRING t is read as `yyyy-MM-dd HH:mm:ss`",
		Signatures: []Signature{{Params: []Param{{Name: "t", Type: argDateFormatted}, {Name: "format", Type: ArgFormat}}, Result: "STRING"}},
		Compile:    dateFormatKernel},
	{Name: "TO_TIMESTAMP", Kind: ScalarFunction, Description: "text read as a TIMESTAMP in a format (default `yyyy-MM-dd HH:mm:ss`) of the letters y M MMM MMMM d H h K k a m s S EEE EEEE; text that does not match is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "TIMESTAMP(3)"}},
		Compile:    toTimestampKernel},
	{Name: "TO_TIMESTAMP_LTZ", Kind: ScalarFunction, Description: "epoch seconds (precision 0) or milliseconds (3) as an instant; NULL outside 0000-01-01 to 9999-12-31 UTC, as in Flink",
		Signatures: []Signature{{Params: []Param{{Name: "n", Type: argEpoch}, {Name: "precision", Type: argEpochPrecision}}, Result: "TIMESTAMP_LTZ(3)"}},
		Compile:    toTimestampLTZKernel},
	{Name: "UNIX_TIMESTAMP", Kind: ScalarFunction, Description: "epoch seconds of the query's start, or of text read in a format (default `yyyy-MM-dd HH:mm:ss`) in the session time zone; text that does not match is -9223372036854775808 (Long.MIN_VALUE), as in Flink",
		Signatures: []Signature{
			{Result: "BIGINT"},
			{Params: []Param{{Name: "s", Type: ArgString}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "BIGINT"},
		},
		Constant: func(c Compiler, _ string) expr.Expr {
			return &expr.Literal{Type: tBigint, Int: rowtime.FloorDiv(c.Now(), 1000)}
		},
		Compile: unixTimestampKernel},
	{Name: "CURRENT_TIMESTAMP", Kind: ScalarFunction, Bare: true, Description: "the query's start time, the same for every row",
		Signatures: []Signature{{Written: "CURRENT_TIMESTAMP", Result: "TIMESTAMP_LTZ(3)"}}, Constant: nowKernel},
	{Name: "NOW", Kind: ScalarFunction, Description: "as CURRENT_TIMESTAMP",
		Signatures: []Signature{{Result: "TIMESTAMP_LTZ(3)"}}, Constant: nowKernel},
	{Name: "LOCALTIMESTAMP", Kind: ScalarFunction, Bare: true, Description: "the query's start time in the session time zone",
		Signatures: []Signature{{Written: "LOCALTIMESTAMP", Result: "TIMESTAMP(3)"}}, Constant: nowKernel},
	{Name: "CURRENT_DATE", Kind: ScalarFunction, Bare: true, Description: "the date of the query's start in the session time zone",
		Signatures: []Signature{{Written: "CURRENT_DATE", Result: "DATE"}}, Constant: nowKernel},
	{Name: "PROCTIME", Kind: ScalarFunction, Syntax: SyntaxComputedColumn, Description: "the processing time; declare it as a computed column, `pt AS PROCTIME()`",
		Signatures: []Signature{{Result: "TIMESTAMP_LTZ(3)"}}},

	// Flink's, not run yet
	{Name: "TO_DATE", Kind: ScalarFunction, Description: "text read as a DATE in a format",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "DATE"}}},
	{Name: "FROM_UNIXTIME", Kind: ScalarFunction, Description: "epoch seconds as text in a format",
		Signatures: []Signature{{Params: []Param{{Name: "n", Type: ArgInteger}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "STRING"}}},
	{Name: "CURRENT_TIME", Kind: ScalarFunction, Description: "the time of day in the session time zone",
		Signatures: []Signature{{Result: "TIME(0)"}}},
	{Name: "TIMESTAMPADD", Kind: ScalarFunction, Description: "t plus n units",
		Signatures: []Signature{{Params: []Param{{Name: "unit", Type: argTimeUnit}, {Name: "n", Type: ArgInteger}, {Name: "t", Type: argTemporal}}, Result: "the type of t"}}},
	{Name: "TIMESTAMPDIFF", Kind: ScalarFunction, Description: "whole units from t1 to t2",
		Signatures: []Signature{{Params: []Param{{Name: "unit", Type: argTimeUnit}, {Name: "t1", Type: argTemporal}, {Name: "t2", Type: argTemporal}}, Result: "INT"}}},
	{Name: "CONVERT_TZ", Kind: ScalarFunction, Description: "a timestamp's text moved from one time zone to another",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: "STRING"}}},
}

// The argument types of the time functions, checked by their kernels.
var (
	// argTemporal: a DATE or TIMESTAMP (EXTRACT's check).
	argTemporal = ArgType{Name: "DATE/TIMESTAMP", Sample: "ts", Check: millisTimestampArg}
	// argDateFormatted: DATE_FORMAT's first argument.
	argDateFormatted = ArgType{Name: "TIMESTAMP/DATE/STRING", Sample: "ts", Check: millisTimestampArg}
	// argEpoch and argEpochPrecision: TO_TIMESTAMP_LTZ's.
	argEpoch          = ArgType{Name: "INTEGER", Sample: "b"}
	argEpochPrecision = ArgType{Name: "0 or 3", Sample: "3"}
	// argTimeUnit: a unit keyword, as TIMESTAMPADD's DAY.
	argTimeUnit = ArgType{Name: "time unit", Sample: "DAY"}
)

// calendarFunction is a one-argument time function that is EXTRACT of
// unit.
func calendarFunction(name, unit, description string) Function {
	return Function{Name: name, Kind: ScalarFunction, Description: description + " (EXTRACT of " + unit + ")",
		Signatures: []Signature{{Params: []Param{{Name: "t", Type: argTemporal}}, Result: "BIGINT"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			return c.Extract(k.F.At, unit, k.Args[0], k.Pos[0])
		}}
}

// nowKernel is CURRENT_TIMESTAMP and its relatives, from the query's
// injected start time.
func nowKernel(c Compiler, name string) expr.Expr {
	switch name {
	case "LOCALTIMESTAMP":
		return &expr.Literal{Type: tTS, Int: rowtime.NewLocalTime(c.Location()).ToLocal(c.Now())}
	case "CURRENT_DATE":
		local := rowtime.NewLocalTime(c.Location()).ToLocal(c.Now())
		return &expr.Literal{Type: tDate, Int: rowtime.FloorDiv(local, msPerDay)}
	}
	return &expr.Literal{Type: tLTZ, Int: c.Now()}
}

func toTimestampKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	format, err := FormatArg(c, k, 1, expr.DefaultTimestampFormat)
	if err != nil {
		return nil, err
	}
	tt, err := expr.NewToTimestamp(x, format)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.Args[1].Pos(), "%v", err)
	}
	return c.Fold(k.F.At, tt, x)
}

func toTimestampLTZKernel(c Compiler, k *Call) (expr.Expr, error) {
	args, pos := k.Args, k.Pos
	if !IsInteger(args[0].DataType()) && !IsNull(args[0].DataType()) {
		return nil, sql.Errorf(sql.ErrInvalid, pos[0], "TO_TIMESTAMP_LTZ expects an integer, got %s", TypeName(args[0].DataType()))
	}
	p, ok := args[1].(*expr.Literal)
	if !ok || !IsInteger(p.Type) || (p.Int != 0 && p.Int != 3) {
		return nil, sql.Errorf(sql.ErrInvalid, pos[1], "the precision of TO_TIMESTAMP_LTZ must be 0 (epoch seconds) or 3 (epoch milliseconds)")
	}
	x, err := c.To(args[0], tBigint, pos[0])
	if err != nil {
		return nil, err
	}
	if l, ok := x.(*expr.Literal); ok && !l.Null && !expr.EpochInRange(l.Int, int(p.Int)) {
		unit := map[int64]string{0: "seconds", 3: "milliseconds"}[p.Int]
		return nil, sql.Errorf(sql.ErrInvalid, pos[0], "TO_TIMESTAMP_LTZ(%d, %d) is outside the range of TIMESTAMP_LTZ, 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999 UTC; give epoch %s from %d to %d",
			l.Int, p.Int, unit, rowtime.MinEventTime/map[int64]int64{0: 1000, 3: 1}[p.Int], rowtime.MaxEventTime/map[int64]int64{0: 1000, 3: 1}[p.Int])
	}
	return c.Fold(k.F.At, &expr.ToTimestampLTZ{Arg: x, Precision: int(p.Int)}, x)
}

func unixTimestampKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	format, err := FormatArg(c, k, 1, expr.DefaultTimestampFormat)
	if err != nil {
		return nil, err
	}
	u, err := expr.NewUnixTimestamp(x, format, c.Location())
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.Args[1].Pos(), "%v", err)
	}
	return c.Fold(k.F.At, u, x)
}

func dateFormatKernel(c Compiler, k *Call) (expr.Expr, error) {
	args, pos := k.Args, k.Pos
	x := args[0]
	switch dt := x.DataType(); {
	case IsNull(dt):
		return expr.NullLiteral(tString), nil
	case IsString(dt):
		// Flink reads a string argument in the default timestamp format
		tt, err := expr.NewToTimestamp(x, expr.DefaultTimestampFormat)
		if err != nil {
			return nil, err
		}
		x = tt
	case !IsTemporal(dt):
		return nil, sql.Errorf(sql.ErrInvalid, pos[0], "DATE_FORMAT expects a TIMESTAMP, got %s", TypeName(dt))
	}
	format, err := FormatArg(c, k, 1, "")
	if err != nil {
		return nil, err
	}
	df, err := expr.NewDateFormat(x, format, c.Location())
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, pos[1], "%v", err)
	}
	return c.Fold(k.F.At, df, args[0])
}
