package planner

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// Scalar function calls: arity and argument types are checked here, with
// errors at the argument that is wrong.

// calendarUnits maps the one-argument time functions to EXTRACT units.
var calendarUnits = map[string]string{
	"YEAR": "YEAR", "QUARTER": "QUARTER", "MONTH": "MONTH", "WEEK": "WEEK",
	"DAYOFYEAR": "DOY", "DAYOFMONTH": "DAY", "DAYOFWEEK": "DOW",
	"HOUR": "HOUR", "MINUTE": "MINUTE", "SECOND": "SECOND",
}

// arity checks the argument count: between lo and hi (hi < 0: no limit).
func arity(f *sql.FuncCall, lo, hi int) error {
	n := len(f.Args)
	if n >= lo && (hi < 0 || n <= hi) {
		return nil
	}
	var want string
	switch {
	case lo == hi && lo == 0:
		want = "no arguments"
	case lo == hi && lo == 1:
		want = "1 argument"
	case lo == hi:
		want = fmt.Sprintf("%d arguments", lo)
	case hi < 0:
		want = fmt.Sprintf("at least %d argument%s", lo, map[bool]string{true: "", false: "s"}[lo == 1])
	default:
		want = fmt.Sprintf("%d to %d arguments", lo, hi)
	}
	return sql.Errorf(sql.ErrInvalid, f.At, "%s takes %s, got %d", f.Name, want, n)
}

func (c *exprCompiler) function(f *sql.FuncCall) (expr.Expr, error) {
	name := strings.ToUpper(f.Name)
	if isAggregate(name) {
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "aggregate %s is not allowed here", name)
	}
	// constants first: they take no column
	switch name {
	case "CURRENT_TIMESTAMP", "NOW", "LOCALTIMESTAMP", "CURRENT_DATE":
		if err := arity(f, 0, 0); err != nil {
			return nil, err
		}
		return c.nowLiteral(name), nil
	case "UNIX_TIMESTAMP":
		if len(f.Args) == 0 {
			return &expr.Literal{Type: tBigint, Int: rowtime.FloorDiv(c.opts.Now, 1000)}, nil
		}
	}
	args := make([]expr.Expr, len(f.Args))
	pos := make([]sql.Pos, len(f.Args))
	for i, a := range f.Args {
		x, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		args[i], pos[i] = x, a.Pos()
	}
	if unit, ok := calendarUnits[name]; ok {
		if err := arity(f, 1, 1); err != nil {
			return nil, err
		}
		return c.extract(f.At, unit, args[0], pos[0])
	}
	switch name {
	case "UPPER", "LOWER", "CHAR_LENGTH", "CHARACTER_LENGTH":
		if err := arity(f, 1, 1); err != nil {
			return nil, err
		}
		fn := name
		if fn == "CHARACTER_LENGTH" {
			fn = "CHAR_LENGTH"
		}
		return c.stringCall(f.At, fn, name, args, pos)
	case "CONCAT":
		if err := arity(f, 1, -1); err != nil {
			return nil, err
		}
		return c.stringCall(f.At, "CONCAT", name, args, pos)
	case "REPLACE":
		if err := arity(f, 3, 3); err != nil {
			return nil, err
		}
		return c.stringCall(f.At, "REPLACE", name, args, pos)
	case "SUBSTRING", "SUBSTR":
		if err := arity(f, 2, 3); err != nil {
			return nil, err
		}
		return c.substring(f, args, pos)
	case "LTRIM", "RTRIM":
		if err := arity(f, 1, 1); err != nil {
			return nil, err
		}
		x, err := c.stringArg(args[0], pos[0], name)
		if err != nil {
			return nil, err
		}
		return c.fold(f.At, &expr.Trim{X: x, Chars: " ", Leading: name == "LTRIM", Trailing: name == "RTRIM"}, x)
	case "COALESCE", "IFNULL":
		if name == "IFNULL" {
			if err := arity(f, 2, 2); err != nil {
				return nil, err
			}
		} else if err := arity(f, 1, -1); err != nil {
			return nil, err
		}
		return c.coalesce(f.At, name, args, pos)
	case "NULLIF":
		if err := arity(f, 2, 2); err != nil {
			return nil, err
		}
		// CASE WHEN a = b THEN NULL ELSE a END, a evaluated once
		return c.share(args[0], func(a expr.Expr) (expr.Expr, error) {
			eq, err := c.comparison(f.At, "=", a, args[1], pos[0], pos[1])
			if err != nil {
				return nil, err
			}
			return c.choose(f.At, name, []expr.Expr{eq}, []expr.Expr{expr.NullLiteral(tNull)}, a, pos)
		})
	case "IF":
		if err := arity(f, 3, 3); err != nil {
			return nil, err
		}
		cond, err := c.boolean(args[0], pos[0], "IF")
		if err != nil {
			return nil, err
		}
		return c.choose(f.At, name, []expr.Expr{cond}, args[1:2], args[2], pos[1:])
	case "ABS", "FLOOR", "CEIL", "CEILING":
		if err := arity(f, 1, 1); err != nil {
			return nil, err
		}
		x, err := c.numberArg(args[0], pos[0], name)
		if err != nil {
			return nil, err
		}
		if isDecimal(x.DataType()) {
			return nil, sql.Errorf(sql.ErrUnsupported, f.At, "%s of a DECIMAL is not supported yet; CAST it to DOUBLE", name)
		}
		if name == "CEILING" {
			name = "CEIL"
		}
		return c.fold(f.At, &expr.MathFunc{Name: name, Args: []expr.Expr{x}}, x)
	case "SQRT", "EXP", "LN", "LOG10", "POWER":
		n := 1
		if name == "POWER" {
			n = 2
		}
		if err := arity(f, n, n); err != nil {
			return nil, err
		}
		for i := range args {
			x, err := c.numberArg(args[i], pos[i], name)
			if err != nil {
				return nil, err
			}
			if args[i], err = c.to(x, tDouble, pos[i]); err != nil {
				return nil, err
			}
		}
		return c.fold(f.At, &expr.MathFunc{Name: name, Args: args}, args...)
	case "ROUND":
		return c.round(f, args, pos)
	case "MOD":
		if err := arity(f, 2, 2); err != nil {
			return nil, err
		}
		return c.arith(f.At, '%', args[0], args[1], pos[0], pos[1])
	case "DATE_FORMAT":
		return c.dateFormat(f, args, pos)
	case "TO_TIMESTAMP":
		if err := arity(f, 1, 2); err != nil {
			return nil, err
		}
		x, err := c.stringArg(args[0], pos[0], name)
		if err != nil {
			return nil, err
		}
		format, err := c.formatArg(f, 1, expr.DefaultTimestampFormat)
		if err != nil {
			return nil, err
		}
		tt, err := expr.NewToTimestamp(x, format)
		if err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, f.Args[1].Pos(), "%v", err)
		}
		return c.fold(f.At, tt, x)
	case "TO_TIMESTAMP_LTZ":
		if err := arity(f, 2, 2); err != nil {
			return nil, err
		}
		if !isInteger(args[0].DataType()) && !isNull(args[0].DataType()) {
			return nil, sql.Errorf(sql.ErrInvalid, pos[0], "TO_TIMESTAMP_LTZ expects an integer, got %s", typeName(args[0].DataType()))
		}
		p, ok := args[1].(*expr.Literal)
		if !ok || !isInteger(p.Type) || (p.Int != 0 && p.Int != 3) {
			return nil, sql.Errorf(sql.ErrInvalid, pos[1], "the precision of TO_TIMESTAMP_LTZ must be 0 (epoch seconds) or 3 (epoch milliseconds)")
		}
		x, err := c.to(args[0], tBigint, pos[0])
		if err != nil {
			return nil, err
		}
		if l, ok := x.(*expr.Literal); ok && !l.Null && !expr.EpochInRange(l.Int, int(p.Int)) {
			unit := map[int64]string{0: "seconds", 3: "milliseconds"}[p.Int]
			return nil, sql.Errorf(sql.ErrInvalid, pos[0], "TO_TIMESTAMP_LTZ(%d, %d) is outside the range of TIMESTAMP_LTZ, 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999 UTC; give epoch %s from %d to %d",
				l.Int, p.Int, unit, rowtime.MinEventTime/map[int64]int64{0: 1000, 3: 1}[p.Int], rowtime.MaxEventTime/map[int64]int64{0: 1000, 3: 1}[p.Int])
		}
		return c.fold(f.At, &expr.ToTimestampLTZ{Arg: x, Precision: int(p.Int)}, x)
	case "UNIX_TIMESTAMP":
		if err := arity(f, 0, 2); err != nil {
			return nil, err
		}
		x, err := c.stringArg(args[0], pos[0], name)
		if err != nil {
			return nil, err
		}
		format, err := c.formatArg(f, 1, expr.DefaultTimestampFormat)
		if err != nil {
			return nil, err
		}
		u, err := expr.NewUnixTimestamp(x, format, c.opts.Location)
		if err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, f.Args[1].Pos(), "%v", err)
		}
		return c.fold(f.At, u, x)
	}
	if isScalarFunction(name) || contains(runnableFunctions, name) {
		return nil, sql.Errorf(sql.ErrUnsupported, f.At, "function %s is not supported here yet", name)
	}
	return nil, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", name, catalog.DidYouMean(name, knownFunctions()))
}

// stringCall is UPPER, LOWER, CHAR_LENGTH, CONCAT (and ||), REPLACE: every
// argument a STRING.
func (c *exprCompiler) stringCall(at sql.Pos, fn, written string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	for i, a := range args {
		x, err := c.stringArg(a, pos[i], written)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return c.fold(at, &expr.StringFunc{Name: fn, Args: args}, args...)
}

func (c *exprCompiler) substring(f *sql.FuncCall, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	x, err := c.stringArg(args[0], pos[0], f.Name)
	if err != nil {
		return nil, err
	}
	args[0] = x
	for i := 1; i < len(args); i++ {
		dt := args[i].DataType()
		if !isInteger(dt) && !isNull(dt) {
			return nil, sql.Errorf(sql.ErrInvalid, pos[i], "%s expects an integer %s, got %s", f.Name, []string{"", "start", "length"}[i], typeName(dt))
		}
		if args[i], err = c.to(args[i], tBigint, pos[i]); err != nil {
			return nil, err
		}
	}
	return c.fold(f.At, &expr.StringFunc{Name: "SUBSTRING", Args: args}, args...)
}

// numberArg checks that x is a number (a NULL literal becomes an INT NULL).
func (c *exprCompiler) numberArg(x expr.Expr, pos sql.Pos, fn string) (expr.Expr, error) {
	dt := x.DataType()
	switch {
	case isNumeric(dt):
		return x, nil
	case isNull(dt):
		return expr.NullLiteral(tInt), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, pos, "%s expects a number, got %s", fn, typeName(dt))
}

func (c *exprCompiler) round(f *sql.FuncCall, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	if err := arity(f, 1, 2); err != nil {
		return nil, err
	}
	x, err := c.numberArg(args[0], pos[0], "ROUND")
	if err != nil {
		return nil, err
	}
	digits := 0
	if len(args) == 2 {
		d, ok := args[1].(*expr.Literal)
		if !ok || !isInteger(d.Type) {
			return nil, sql.Errorf(sql.ErrUnsupported, pos[1], "the digits of ROUND must be a constant integer")
		}
		digits = int(d.Int)
	}
	return c.fold(f.At, &expr.Round{X: x, Digits: digits}, x)
}

// formatArg returns the constant string argument i, or def when absent.
func (c *exprCompiler) formatArg(f *sql.FuncCall, i int, def string) (string, error) {
	if len(f.Args) <= i {
		return def, nil
	}
	s, err := c.constString(f.Args[i], "the format of "+f.Name)
	if err != nil {
		return "", err
	}
	if s == nil {
		return "", sql.Errorf(sql.ErrInvalid, f.Args[i].Pos(), "the format of %s cannot be NULL", f.Name)
	}
	return *s, nil
}

func (c *exprCompiler) dateFormat(f *sql.FuncCall, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	if err := arity(f, 2, 2); err != nil {
		return nil, err
	}
	x := args[0]
	switch dt := x.DataType(); {
	case isNull(dt):
		return expr.NullLiteral(tString), nil
	case isString(dt):
		// Flink reads a string argument in the default timestamp format
		tt, err := expr.NewToTimestamp(x, expr.DefaultTimestampFormat)
		if err != nil {
			return nil, err
		}
		x = tt
	case !isTemporal(dt):
		return nil, sql.Errorf(sql.ErrInvalid, pos[0], "DATE_FORMAT expects a TIMESTAMP, got %s", typeName(dt))
	}
	format, err := c.formatArg(f, 1, "")
	if err != nil {
		return nil, err
	}
	df, err := expr.NewDateFormat(x, format, c.opts.Location)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, pos[1], "%v", err)
	}
	return c.fold(f.At, df, args[0])
}
