package function

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/temporal"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// init adds the family at its place in the registry.
func init() { addFamily(400, timeFunctions) }

// timeFunctions are the date and time functions.
var timeFunctions = []Function{
	{Name: "EXTRACT", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "a field of a DATE or TIMESTAMP; unit is one of " + strings.Join(expr.ExtractUnits, ", ") + "; MILLISECOND, MICROSECOND and NANOSECOND count the seconds too, from t's own precision (12.345678 s is 12345678 MICROSECOND), as in Flink",
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
	{Name: "PROCTIME", Kind: ScalarFunction, Syntax: SyntaxComputedColumn, Description: "the processing time; declare it as a computed column, `pt AS PROCTIME()`, or select it in a view or subquery",
		Signatures: []Signature{{Result: "TIMESTAMP_LTZ(3)"}}},

	{Name: "CURRENT_ROW_TIMESTAMP", Kind: ScalarFunction, Description: "as CURRENT_TIMESTAMP: wsql evaluates the current time once, at the query's start",
		Signatures: []Signature{{Result: "TIMESTAMP_LTZ(3)"}}, Constant: nowKernel},
	{Name: "LOCALTIME", Kind: ScalarFunction, Bare: true, Description: "the time of day of the query's start in the session time zone, whole seconds",
		Signatures: []Signature{{Written: "LOCALTIME", Result: "TIME(0)"}}, Constant: nowKernel},
	{Name: "CURRENT_TIME", Kind: ScalarFunction, Bare: true, Description: "as LOCALTIME",
		Signatures: []Signature{{Written: "CURRENT_TIME", Result: "TIME(0)"}}, Constant: nowKernel},
	{Name: "TO_DATE", Kind: ScalarFunction, Description: "text read as a DATE in a format (default `yyyy-MM-dd`) of TO_TIMESTAMP's letters; text that does not match is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "DATE"}},
		Compile:    toDateKernel},
	{Name: "FROM_UNIXTIME", Kind: ScalarFunction, Description: "epoch seconds as text in a format (default `yyyy-MM-dd HH:mm:ss`), in the session time zone",
		Signatures: []Signature{{Params: []Param{{Name: "n", Type: ArgInteger}, {Name: "format", Type: ArgFormat, Optional: true}}, Result: "STRING"}},
		Compile:    fromUnixtimeKernel},
	{Name: "TIMESTAMPADD", Kind: ScalarFunction, Description: "t plus n units (" + temporal.Units + "); below t's precision n is cut to whole ticks (1500 MICROSECOND on a TIMESTAMP(3) is 1 ms); months keep the day, clamped to the month's length; a DATE plus a unit under a day is a TIMESTAMP(3)",
		Signatures: []Signature{{Params: []Param{{Name: "n", Type: ArgInteger}, {Name: "t", Type: argTimepoint}}, Unit: true, Written: "TIMESTAMPADD(unit, n, t)", Result: "the type of t"}},
		Compile:    timestampAddKernel},
	{Name: "TIMESTAMPDIFF", Kind: ScalarFunction, Description: "the whole units (" + temporal.Units + ") from t1 to t2, negative when t2 is earlier",
		Signatures: []Signature{{Params: []Param{{Name: "t1", Type: argTimepoint}, {Name: "t2", Type: argTimepoint}}, Unit: true, Written: "TIMESTAMPDIFF(unit, t1, t2)", Result: "INT"}},
		Compile:    timestampDiffKernel},
	{Name: "CONVERT_TZ", Kind: ScalarFunction, Description: "the date-time text s (`yyyy-MM-dd HH:mm:ss`) moved from time zone `from` to `to`: a name such as `'America/Los_Angeles'`, an offset such as `'GMT-08:00'`, or a short ID such as `'PST'`; text that does not read is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: "STRING"}},
		Compile:    convertTZKernel},

	{Name: "CURRENT_WATERMARK", Kind: ScalarFunction, Description: "the watermark the row arrived under (the latest rowtime before it minus the WATERMARK delay), NULL before the first; `WHERE CURRENT_WATERMARK(ts) IS NULL OR ts > CURRENT_WATERMARK(ts)` drops late rows. The argument is the table's rowtime attribute, in WHERE and the select list of a query without GROUP BY and in aggregate arguments",
		Signatures: []Signature{{Params: []Param{{Name: "rowtime", Type: argRowtime}}, Result: "the type of rowtime, precision 3"}},
		Compile:    currentWatermarkKernel},

	// Flink's, not run yet
	{Name: "OVERLAPS", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "whether two periods overlap, ends included, as in Flink: each is a start and an end or an INTERVAL length (a DATE or TIMESTAMP plus it), in either order; NULL when an end is NULL and the other comparison does not decide",
		Signatures: []Signature{{Params: []Param{{Name: "start1", Type: ArgAny}, {Name: "end1", Type: ArgAny}, {Name: "start2", Type: ArgAny}, {Name: "end2", Type: ArgAny}}, Written: "(start1, end1 or INTERVAL) OVERLAPS (start2, end2 or INTERVAL)", Result: "BOOLEAN"}},
		Compile:    overlapsKernel},
}

// The argument types of the time functions, checked by their kernels.
var (
	// argTemporal: a DATE or TIMESTAMP (EXTRACT's check).
	argTemporal = ArgType{Name: "DATE/TIMESTAMP", Sample: "ts", Check: millisTimestampArg}
	// argTimepoint: a DATE or TIMESTAMP of any precision, which the
	// kernel keeps (inMillis): TIMESTAMPADD, TIMESTAMPDIFF, FLOOR/CEIL TO.
	argTimepoint = ArgType{Name: "DATE/TIMESTAMP", Sample: "ts"}
	// argDateFormatted: DATE_FORMAT's first argument.
	argDateFormatted = ArgType{Name: "TIMESTAMP/DATE/STRING", Sample: "ts", Check: millisTimestampArg}
	// argRowtime: the rowtime attribute, checked by the kernel.
	argRowtime = ArgType{Name: "rowtime attribute", Sample: "ts"}
	// argEpoch and argEpochPrecision: TO_TIMESTAMP_LTZ's.
	argEpoch          = ArgType{Name: "INTEGER", Sample: "b"}
	argEpochPrecision = ArgType{Name: "0 or 3", Sample: "3"}
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
	case "LOCALTIME", "CURRENT_TIME":
		// TIME(0): the time of day, whole seconds
		local := rowtime.NewLocalTime(c.Location()).ToLocal(c.Now())
		tod := local - rowtime.FloorDiv(local, msPerDay)*msPerDay
		return &expr.Literal{Type: tTime, Int: tod / 1000}
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

// timeRoundUnits are the units FLOOR/CEIL(t TO unit) take.
const timeRoundUnits = temporal.RoundUnits + "; a unit finer than t's precision leaves it as it is, a DECADE starts in a year ending in 0, a CENTURY or MILLENNIUM in a year ending in 1"

// timeRoundSignature is FLOOR(t TO unit) and CEIL(t TO unit).
func timeRoundSignature(name string) Signature {
	return Signature{Params: []Param{{Name: "t", Type: argTimepoint}}, Unit: true, Written: name + "(t TO unit)", Result: "the type of t"}
}

// timeUnitOr compiles a call with a time unit with withUnit, others with
// plain.
func timeUnitOr(plain, withUnit func(Compiler, *Call) (expr.Expr, error)) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		if k.F.Unit != "" {
			return withUnit(c, k)
		}
		return plain(c, k)
	}
}

// temporalArg checks argument i is a DATE or TIMESTAMP (a NULL literal
// becomes a TIMESTAMP(3)).
func temporalArg(k *Call, i int) error {
	dt := k.Args[i].DataType()
	switch {
	case IsNull(dt):
		k.Args[i] = expr.NullLiteral(tTS)
	case !IsTemporal(dt):
		return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects a DATE or TIMESTAMP, got %s", k.Name, TypeName(dt))
	}
	return nil
}

// unitArg checks the call's time unit.
func unitArg(k *Call) error {
	if err := temporal.CheckUnit(k.F.Unit, k.Name); err != nil {
		return sql.Errorf(sql.ErrUnsupported, k.F.At, "%v", err)
	}
	return nil
}

// timeRoundKernel is FLOOR(t TO unit) and CEIL(t TO unit); a TIME is
// rounded within the day (FLOOR(TIME '12:44:31' TO MINUTE) is 12:44:00).
func timeRoundKernel(c Compiler, k *Call) (expr.Expr, error) {
	if err := unitArg(k); err != nil {
		return nil, err
	}
	if _, ok := k.Args[0].DataType().(*arrow.Time32Type); ok {
		if !temporal.WithinDay(k.F.Unit) {
			return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "%s of a TIME takes a unit up to HOUR, not %s", k.Name, k.F.Unit)
		}
	} else if err := temporalArg(k, 0); err != nil {
		return nil, err
	}
	return inMillis(c, k, []int{0}, func(args []expr.Expr) (expr.Expr, error) {
		return c.Fold(k.F.At, &temporal.Round{Unit: k.F.Unit, Ceil: k.Name != "FLOOR", X: args[0], Loc: c.Location()}, args[0])
	})
}

// inMillis runs build over the call's arguments, the TIMESTAMP_LTZ ones
// among idx brought to milliseconds (the session zone's conversions read
// milliseconds), and brings the result back to the first one's precision:
// below a millisecond, an instant's digits are dropped. A TIMESTAMP keeps
// its precision: the kernels count in its unit.
func inMillis(c Compiler, k *Call, idx []int, build func([]expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	args := append([]expr.Expr(nil), k.Args...)
	var orig arrow.DataType
	for _, i := range idx {
		ts, ok := args[i].DataType().(*arrow.TimestampType)
		if !ok || ts.Unit == arrow.Millisecond || ts.TimeZone == "" {
			continue
		}
		if orig == nil {
			orig = ts
		}
		var err error
		if args[i], err = c.To(args[i], &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: ts.TimeZone}, k.Pos[i]); err != nil {
			return nil, err
		}
	}
	out, err := build(args)
	if err != nil || orig == nil {
		return out, err
	}
	if ts, ok := out.DataType().(*arrow.TimestampType); ok && ts.TimeZone == orig.(*arrow.TimestampType).TimeZone {
		return c.To(out, orig, k.F.At)
	}
	return out, nil
}

func timestampAddKernel(c Compiler, k *Call) (expr.Expr, error) {
	if err := unitArg(k); err != nil {
		return nil, err
	}
	if err := temporalArg(k, 1); err != nil {
		return nil, err
	}
	return inMillis(c, k, []int{1}, func(args []expr.Expr) (expr.Expr, error) {
		n, t := args[0], args[1]
		return c.Fold(k.F.At, temporal.NewAdd(k.F.Unit, n, t), n, t)
	})
}

// timestampDiffKernel is TIMESTAMPDIFF: two TIMESTAMP_LTZ compare as
// instants, a DATE and a TIMESTAMP as wall clocks; an instant and a wall
// clock only through a CAST.
func timestampDiffKernel(c Compiler, k *Call) (expr.Expr, error) {
	if err := unitArg(k); err != nil {
		return nil, err
	}
	for i := range 2 {
		if err := temporalArg(k, i); err != nil {
			return nil, err
		}
	}
	a, b := k.Args[0], k.Args[1]
	if isLTZ(a.DataType()) != isLTZ(b.DataType()) {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "TIMESTAMPDIFF of %s and %s: CAST one to the other's type", TypeName(a.DataType()), TypeName(b.DataType()))
	}
	// one clock for both: the finer TIMESTAMP's (a DATE is midnight)
	if fine := finerTimestamp(a.DataType(), b.DataType()); fine != nil {
		for i := range 2 {
			var err error
			if k.Args[i], err = c.To(k.Args[i], fine, k.Pos[i]); err != nil {
				return nil, err
			}
		}
	}
	return inMillis(c, k, []int{0, 1}, func(args []expr.Expr) (expr.Expr, error) {
		return c.Fold(k.F.At, &temporal.Diff{Unit: k.F.Unit, A: args[0], B: args[1]}, args[0], args[1])
	})
}

func isLTZ(dt arrow.DataType) bool {
	ts, ok := dt.(*arrow.TimestampType)
	return ok && ts.TimeZone != ""
}

// toDateKernel is TO_DATE: TO_TIMESTAMP's reader, then the date.
func toDateKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	format, err := FormatArg(c, k, 1, "yyyy-MM-dd")
	if err != nil {
		return nil, err
	}
	tt, err := expr.NewToTimestamp(x, format)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.Args[1].Pos(), "%v", err)
	}
	d, err := c.To(tt, tDate, k.F.At)
	if err != nil {
		return nil, err
	}
	return c.Fold(k.F.At, d, x)
}

// fromUnixtimeKernel is FROM_UNIXTIME: DATE_FORMAT of the instant in the
// session zone.
func fromUnixtimeKernel(c Compiler, k *Call) (expr.Expr, error) {
	n := k.Args[0]
	format, err := FormatArg(c, k, 1, expr.DefaultTimestampFormat)
	if err != nil {
		return nil, err
	}
	df, err := expr.NewDateFormat(&expr.ToTimestampLTZ{Arg: n, Precision: 0}, format, c.Location())
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.Args[1].Pos(), "%v", err)
	}
	return c.Fold(k.F.At, df, n)
}

// currentWatermarkKernel is CURRENT_WATERMARK, with Flink's errors for an
// argument that is not a rowtime attribute.
func currentWatermarkKernel(c Compiler, k *Call) (expr.Expr, error) {
	x := k.Args[0]
	ts, ok := x.DataType().(*arrow.TimestampType)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, k.Pos[0], "CURRENT_WATERMARK() must be called with a single rowtime attribute argument, but '%s' cannot be a time attribute.", TypeName(x.DataType()))
	}
	if !c.IsRowtime(x) {
		return nil, sql.Errorf(sql.ErrInvalid, k.Pos[0], "The argument of CURRENT_WATERMARK() must be a rowtime attribute, but was '%s'.", TypeName(x.DataType()))
	}
	return &expr.CurrentWatermark{Of: x, Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: ts.TimeZone}}, nil
}

// overlapsKernel is (a, b) OVERLAPS (c, d) as Calcite rewrites it: each
// period sorted (LEAST and GREATEST of its ends), then
// greatest(a, b) >= least(c, d) AND greatest(c, d) >= least(a, b).
func overlapsKernel(c Compiler, k *Call) (expr.Expr, error) {
	if len(k.Args) != 4 {
		return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "OVERLAPS compares two periods, as in (start1, end1) OVERLAPS (start2, end2)")
	}
	period := func(i int) (lo, hi expr.Expr, err error) {
		for _, j := range []int{i, i + 1} {
			if dt := k.Args[j].DataType(); !IsTemporal(dt) && dt.ID() != arrow.TIME32 && !IsNull(dt) {
				return nil, nil, sql.Errorf(sql.ErrInvalid, k.Pos[j], "OVERLAPS expects a DATE, TIME or TIMESTAMP, got %s", TypeName(dt))
			}
		}
		pair := &Call{F: k.F, Name: "OVERLAPS", Args: k.Args[i : i+2], Pos: k.Pos[i : i+2]}
		if lo, err = extremeKernel("<=")(c, pair); err != nil {
			return nil, nil, err
		}
		pair.Args = append([]expr.Expr(nil), k.Args[i:i+2]...)
		hi, err = extremeKernel(">=")(c, pair)
		return lo, hi, err
	}
	lo1, hi1, err := period(0)
	if err != nil {
		return nil, err
	}
	lo2, hi2, err := period(2)
	if err != nil {
		return nil, err
	}
	a, err := c.Comparison(k.F.At, ">=", hi1, lo2, k.Pos[1], k.Pos[2])
	if err != nil {
		return nil, err
	}
	b, err := c.Comparison(k.F.At, ">=", hi2, lo1, k.Pos[3], k.Pos[0])
	if err != nil {
		return nil, err
	}
	return c.Fold(k.F.At, &expr.And{L: a, R: b}, a, b)
}

// convertTZKernel is CONVERT_TZ; a constant zone is checked now.
func convertTZKernel(c Compiler, k *Call) (expr.Expr, error) {
	for i := 1; i < 3; i++ {
		if l, ok := k.Args[i].(*expr.Literal); ok && !l.Null {
			if _, err := temporal.Zone(l.Str); err != nil {
				return nil, sql.Errorf(sql.ErrInvalid, k.Pos[i], "%v", err)
			}
		}
	}
	return c.Fold(k.F.At, &temporal.ConvertTZ{S: k.Args[0], From: k.Args[1], To: k.Args[2]}, k.Args...)
}

// finerTimestamp is the TIMESTAMP type of a or b with the finer unit (a
// DATE's is milliseconds); nil when a and b are already of one type.
func finerTimestamp(a, b arrow.DataType) arrow.DataType {
	if arrow.TypeEqual(a, b) {
		return nil
	}
	unit := func(dt arrow.DataType) arrow.TimeUnit {
		if ts, ok := dt.(*arrow.TimestampType); ok {
			return ts.Unit
		}
		return arrow.Millisecond
	}
	fine := &arrow.TimestampType{Unit: max(unit(a), unit(b))}
	if isLTZ(a) {
		fine.TimeZone = "UTC"
	}
	return fine
}
