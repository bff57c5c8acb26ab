package intervalfold

import (
	"math"
	"strconv"

	"github.com/wsql/wsql/exec/format/intervaltext"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/interval"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// Fold folds e when it is interval-valued; ok is false when it
// is not an interval expression at all.
func Fold(e sql.Expr) (iv *sql.IntervalLiteral, ok bool, err error) {
	switch x := e.(type) {
	case *sql.IntervalLiteral:
		return x, true, nil
	case *sql.Unary:
		in, ok, err := Fold(x.X)
		if !ok || err != nil || x.Op == "+" {
			return in, ok, err
		}
		if x.Op != "-" {
			return nil, false, nil
		}
		return &sql.IntervalLiteral{At: x.At, Millis: -in.Millis, Months: -in.Months, YearMonth: in.YearMonth}, true, nil
	case *sql.Binary:
		l, lok, err := Fold(x.L)
		if err != nil {
			return nil, true, err
		}
		r, rok, err := Fold(x.R)
		if err != nil {
			return nil, true, err
		}
		switch {
		case lok && rok && (x.Op == "+" || x.Op == "-"):
			if err := Mixed(x, l, r); err != nil {
				return nil, true, err
			}
			sign := int64(1)
			if x.Op == "-" {
				sign = -1
			}
			return checked(x, &sql.IntervalLiteral{At: x.At, Millis: l.Millis + sign*r.Millis, Months: l.Months + sign*r.Months, YearMonth: l.YearMonth})
		case x.Op == "*" && lok != rok:
			iv, n := l, x.R
			if rok {
				iv, n = r, x.L
			}
			k, isInt := intLiteral(n)
			if !isInt {
				return nil, false, nil // an interval times a column: a dynamic session gap
			}
			if iv.Millis != 0 && (k > interval.MaxMillis || k < -interval.MaxMillis) {
				return nil, true, sql.Errorf(sql.ErrInvalid, x.At, "interval %s is too long", sqlfmt.Expr(x))
			}
			return checked(x, &sql.IntervalLiteral{At: x.At, Millis: iv.Millis * k, Months: iv.Months * k, YearMonth: iv.YearMonth})
		}
	}
	return nil, false, nil
}

// checked bounds a folded interval, which keeps time arithmetic on it
// far from int64 overflow.
func checked(e sql.Expr, iv *sql.IntervalLiteral) (*sql.IntervalLiteral, bool, error) {
	if iv.Millis > interval.MaxMillis || iv.Millis < -interval.MaxMillis || iv.Months > math.MaxInt32 || iv.Months < math.MinInt32 {
		return nil, true, sql.Errorf(sql.ErrInvalid, e.Pos(), "interval %s is too long", sqlfmt.Expr(e))
	}
	iv.Text = sqlfmt.Expr(e)
	return iv, true, nil
}

// intLiteral reads an integer literal, signed or not.
func intLiteral(e sql.Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*sql.Unary); ok && (u.Op == "-" || u.Op == "+") {
		neg, e = u.Op == "-", u.X
	}
	l, ok := e.(*sql.Literal)
	if !ok || l.Kind != sql.LitInt {
		return 0, false
	}
	n, err := strconv.ParseInt(l.Text, 10, 64)
	if err != nil || n > interval.MaxMillis {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// Text is an interval as Flink's CAST(... AS STRING) and print
// sink write it: +1-02 for 14 months, +2 00:00:00.000 for two days.
func Text(iv *sql.IntervalLiteral) string {
	if iv.YearMonth {
		return string(intervaltext.AppendYearMonth(nil, iv.Months))
	}
	return string(intervaltext.AppendDayTime(nil, iv.Millis))
}

// Compare compares two interval constants of the same kind.
func Compare(e *sql.Binary, op string, l, r *sql.IntervalLiteral) (bool, error) {
	if l.YearMonth != r.YearMonth {
		return false, sql.Errorf(sql.ErrInvalid, e.At, "cannot compare a year-month and a day-time interval (%s %s %s)", l.Text, e.Op, r.Text)
	}
	a, b := l.Millis+l.Months, r.Millis+r.Months
	return map[string]bool{"=": a == b, "<>": a != b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op], nil
}

// Mixed refuses a year-month interval added to a day-time one, as Flink
// does ("Cannot apply '+' to arguments of type '<INTERVAL MONTH> +
// <INTERVAL DAY>'"): a month has no fixed length.
func Mixed(e *sql.Binary, l, r *sql.IntervalLiteral) error {
	if l.YearMonth == r.YearMonth {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, e.At, "cannot apply %s to a year-month and a day-time interval (%s %s %s): a month has no fixed length", e.Op, l.Text, e.Op, r.Text)
}
