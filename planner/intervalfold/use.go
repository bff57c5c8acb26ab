package intervalfold

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// Use says what the planner does with a binary operator that has an
// interval operand: Value is its folded result (a comparison), or Time
// is the time value that Interval moves; both nil is no interval at all.
type Use struct {
	Value    expr.Expr
	Time     sql.Expr
	Interval *sql.IntervalLiteral
}

// Binary classifies e (operator op, upper case): time ± interval,
// interval comparisons, and interval arithmetic, which is only a value
// inside one of those, so standing alone it is an error.
func Binary(e *sql.Binary, op string) (Use, error) {
	l, lok, err := Fold(e.L)
	if err != nil {
		return Use{}, err
	}
	r, rok, err := Fold(e.R)
	if err != nil {
		return Use{}, err
	}
	switch {
	case lok && rok:
		switch op {
		case "=", "<>", "!=", "<", "<=", ">", ">=":
			v, err := Compare(e, op, l, r)
			n := int64(0)
			if v {
				n = 1
			}
			return Use{Value: &expr.Literal{Type: arrow.FixedWidthTypes.Boolean, Int: n}}, err
		}
	case lok && op == "+":
		return Use{Time: e.R, Interval: l}, nil
	case rok && (op == "+" || op == "-"):
		return Use{Time: e.L, Interval: r}, nil
	}
	if iv, ok, err := Fold(e); ok {
		if err != nil {
			return Use{}, err
		}
		return Use{}, ValueError(iv)
	}
	return Use{}, nil
}

// Cast is CAST(interval AS STRING), a string constant in Flink's text;
// nil, nil when e.X is no interval. No other target is allowed, as
// intervals have no column type in wsql.
func Cast(e *sql.Cast) (expr.Expr, error) {
	iv, ok, err := Fold(e.X)
	if !ok || err != nil {
		return nil, err
	}
	if tn := e.Type; (tn.Name == "STRING" || tn.Name == "VARCHAR") && tn.Elem == nil {
		return &expr.Literal{Type: arrow.BinaryTypes.String, Str: Text(iv)}, nil
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.At, "an INTERVAL can only be CAST to STRING")
}

// ValueError refuses an interval standing alone as a value.
func ValueError(iv *sql.IntervalLiteral) error {
	return sql.Errorf(sql.ErrUnsupported, iv.At, "an INTERVAL is not a column value yet; add it to a TIMESTAMP or DATE, compare it, or CAST it to STRING")
}

// AddMonths is x ± a year-month interval for a DATE, TIMESTAMP or
// TIMESTAMP_LTZ x (in the session zone loc), with Flink's end-of-month
// clamping (see expr.AddMonths); nil for any other x.
func AddMonths(e *sql.Binary, x expr.Expr, iv *sql.IntervalLiteral, loc *time.Location) expr.Expr {
	if id := x.DataType().ID(); !iv.YearMonth || (id != arrow.TIMESTAMP && id != arrow.DATE32) {
		return nil
	}
	months := iv.Months
	if e.Op == "-" {
		months = -months
	}
	return &expr.AddMonths{X: x, Months: months, Loc: loc}
}

// WindowArg checks one size, slide, step or offset of a window: an
// interval literal of days to seconds. Flink refuses months and years.
func WindowArg(a sql.Expr, usage string) error {
	iv, ok := a.(*sql.IntervalLiteral)
	if !ok {
		return sql.Errorf(sql.ErrInvalid, a.Pos(), "window arguments must be interval literals such as INTERVAL '1' MINUTE: %s", usage)
	}
	if iv.YearMonth {
		return sql.Errorf(sql.ErrUnsupported, iv.At, "a window cannot be sized in months or years (%s), as in Flink; use a day-time interval such as INTERVAL '30' DAY", iv.Text)
	}
	return nil
}

// SessionGapUnit checks the interval of a per-row session gap
// (INTERVAL '1' SECOND * col): positive, and of days to seconds.
func SessionGapUnit(iv *sql.IntervalLiteral) error {
	if iv.YearMonth {
		return sql.Errorf(sql.ErrUnsupported, iv.At, "a session gap cannot be in months or years (%s); use a day-time interval", iv.Text)
	}
	if iv.Millis <= 0 {
		return sql.Errorf(sql.ErrInvalid, iv.At, "the session gap unit must be positive, got %s", iv.Text)
	}
	return nil
}
