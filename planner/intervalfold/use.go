package intervalfold

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/intervalfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/intervaltext"
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
		return Use{Value: Value(iv)}, nil
	}
	return Use{}, nil
}

// Value is an interval constant as a column value: a day-time interval
// is Arrow duration[ms], a year-month interval Arrow month_interval.
func Value(iv *sql.IntervalLiteral) *expr.Literal {
	if iv.YearMonth {
		return &expr.Literal{Type: intervaltext.YearMonth, Int: iv.Months}
	}
	return &expr.Literal{Type: intervaltext.DayTime, Int: iv.Millis}
}

// Arith types l op r when an operand is an interval value (a column or a
// product the fold could not take): an interval times or divided by a
// number, as Flink computes it (intervalfn.Scale), the sum or difference
// of two intervals of one kind (intervalfn.Sum), and a TIMESTAMP,
// TIMESTAMP_LTZ, DATE or TIME plus or minus an interval (intervalfn.Shift;
// loc is the session zone). ok is false when neither operand is an
// interval.
func Arith(at sql.Pos, op byte, l, r expr.Expr, loc *time.Location) (x expr.Expr, ok bool, err error) {
	li, ri := intervaltext.IsInterval(l.DataType()), intervaltext.IsInterval(r.DataType())
	if !li && !ri {
		return nil, false, nil
	}
	iv, n := l, r
	if ri {
		iv, n = r, l
	}
	nt := n.DataType()
	switch {
	case (op == '*' || op == '/' && li) && !(li && ri) && (isNumber(nt) || nt.ID() == arrow.NULL):
		to := arrow.DataType(arrow.PrimitiveTypes.Int64)
		if !arrow.IsInteger(nt.ID()) && nt.ID() != arrow.NULL {
			to = arrow.PrimitiveTypes.Float64
		}
		return &intervalfn.Scale{Interval: iv, N: &expr.Cast{X: n, To: to}, Divide: op == '/'}, true, nil
	case (op == '+' || op == '-') && li && ri:
		if l.DataType().ID() != r.DataType().ID() {
			return nil, true, sql.Errorf(sql.ErrInvalid, at, "cannot apply %c to a year-month and a day-time interval (%s %c %s): a month has no fixed length",
				op, format.SQLTypeName(l.DataType()), op, format.SQLTypeName(r.DataType()))
		}
		return &intervalfn.Sum{L: l, R: r, Minus: op == '-'}, true, nil
	case (op == '+' || op == '-' && ri) && isTime(nt):
		return &intervalfn.Shift{X: finerThanSeconds(n), Interval: iv, Minus: op == '-', Loc: loc}, true, nil
	case (op == '+' || op == '-') && nt.ID() == arrow.NULL:
		return expr.NullLiteral(iv.DataType()), true, nil
	}
	return nil, true, sql.Errorf(sql.ErrInvalid, at, "cannot apply %c to %s and %s; an interval can be multiplied by a number or divided by one",
		op, format.SQLTypeName(l.DataType()), format.SQLTypeName(r.DataType()))
}

// Negate is -x of an interval computed per row, nil when x is no
// interval.
func Negate(x expr.Expr) expr.Expr {
	if !intervaltext.IsInterval(x.DataType()) {
		return nil
	}
	return &intervalfn.Scale{Interval: x, N: &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: -1}}
}

// ShiftTime is a TIME, or a DATE moved by part of a day, plus or minus an
// interval constant, computed as for an interval per row; nil for any
// other x.
func ShiftTime(e *sql.Binary, x expr.Expr, iv *sql.IntervalLiteral) expr.Expr {
	if id := x.DataType().ID(); id != arrow.TIME32 && (id != arrow.DATE32 || iv.YearMonth || iv.Millis%msPerDay == 0) {
		return nil
	}
	return &intervalfn.Shift{X: x, Interval: Value(iv), Minus: e.Op == "-"}
}

const msPerDay = 86_400_000

// IsInterval says whether dt is an interval value's type.
func IsInterval(dt arrow.DataType) bool { return intervaltext.IsInterval(dt) }

func isTime(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.TIMESTAMP, arrow.DATE32, arrow.TIME32:
		return true
	}
	return false
}

// finerThanSeconds gives a TIMESTAMP(0) as TIMESTAMP(3), so that
// milliseconds can be added, as the planner does for constants.
func finerThanSeconds(x expr.Expr) expr.Expr {
	if tt, ok := x.DataType().(*arrow.TimestampType); ok && tt.Unit == arrow.Second {
		return &expr.Cast{X: x, To: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: tt.TimeZone}}
	}
	return x
}

func isNumber(dt arrow.DataType) bool {
	return arrow.IsInteger(dt.ID()) || arrow.IsFloating(dt.ID()) || dt.ID() == arrow.DECIMAL128
}

// Cast is CAST(interval AS STRING) of an interval constant, a string
// constant in Flink's text; nil, nil when e.X is no interval constant.
// No other target is allowed, as in Flink.
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
