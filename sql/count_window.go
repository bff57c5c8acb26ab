package sql

import (
	"strconv"
)

// COUNT_WINDOW(n [, slide]) is wsql's group window over row counts (docs/semantics.md,
// "Count windows"), Flink's KeyedStream.countWindow(size [, slide]) in SQL form:
//
//	GROUP BY usr, COUNT_WINDOW(100)     -- every 100 rows of a key
//	GROUP BY usr, COUNT_WINDOW(100, 10) -- every 10 rows, the last 100
//
// Both arguments are positive integer literals, and the slide may not
// exceed the size: Flink's DataStream API accepts a larger slide, but its
// windows then skip the rows between them, which a SQL user would not
// expect. Count windows have no time bounds, so there are no
// COUNT_WINDOW_START/END/ROWTIME/PROCTIME functions.

const countWindowUsage = "COUNT_WINDOW(n [, slide])"

// checkCountWindow checks the arguments of a COUNT_WINDOW call in GROUP BY.
func checkCountWindow(w *WindowCall) *Error {
	if len(w.Args) == 0 {
		return Errorf(ErrInvalid, w.At, "COUNT_WINDOW needs a row count: %s", countWindowUsage)
	}
	if len(w.Args) > 2 {
		return Errorf(ErrInvalid, w.Args[2].Pos(), "too many arguments for COUNT_WINDOW; it takes a row count and an optional slide: %s", countWindowUsage)
	}
	var vals [2]int64
	for i, a := range w.Args {
		what := [2]string{"row count", "slide"}[i]
		v, err := countWindowArg(a, what)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	if len(w.Args) == 2 && vals[1] > vals[0] {
		return Errorf(ErrInvalid, w.Args[1].Pos(),
			"COUNT_WINDOW slide %d is larger than its size %d: the rows between two windows would be in no window; use a slide of at most %d",
			vals[1], vals[0], vals[0])
	}
	return nil
}

// countWindowArg reads one argument: a positive integer literal.
func countWindowArg(a Expr, what string) (int64, *Error) {
	switch e := a.(type) {
	case *Literal:
		switch e.Kind {
		case LitInt:
		case LitDecimal, LitFloat:
			return 0, Errorf(ErrInvalid, e.At, "the %s of COUNT_WINDOW must be a whole number of rows, found %s: %s", what, literalText(e), countWindowUsage)
		default:
			return 0, Errorf(ErrInvalid, e.At, "the %s of COUNT_WINDOW must be an integer literal, found %s: %s", what, literalText(e), countWindowUsage)
		}
		v, err := strconv.ParseInt(e.Text, 10, 64)
		if err != nil {
			return 0, Errorf(ErrInvalid, e.At, "the %s of COUNT_WINDOW is too large: %s", what, e.Text)
		}
		if v <= 0 {
			return 0, Errorf(ErrInvalid, e.At, "the %s of COUNT_WINDOW must be positive, got %s", what, e.Text)
		}
		return v, nil
	case *Unary:
		if x, ok := e.X.(*Literal); ok && e.Op == "-" && (x.Kind == LitInt || x.Kind == LitDecimal || x.Kind == LitFloat) {
			return 0, Errorf(ErrInvalid, e.At, "the %s of COUNT_WINDOW must be positive, got -%s", what, x.Text)
		}
	case *ColumnRef:
		return 0, Errorf(ErrInvalid, e.At, "COUNT_WINDOW counts rows and takes no time attribute or column, found %s: %s", quoteName(e.Name), countWindowUsage)
	case *IntervalLiteral:
		return 0, Errorf(ErrInvalid, e.At, "COUNT_WINDOW counts rows, not time: its %s must be an integer literal, found %s; use TUMBLE or HOP for windows of time", what, e.Text)
	}
	return 0, Errorf(ErrInvalid, a.Pos(), "the %s of COUNT_WINDOW must be an integer literal: %s", what, countWindowUsage)
}

// countWindowMisuse is the error for COUNT_WINDOW outside GROUP BY and for
// the auxiliary functions it does not have (prop != 0).
func countWindowMisuse(prop WindowProp, at Pos) *Error {
	if prop == 0 {
		return Errorf(ErrInvalid, at, "COUNT_WINDOW can only be used as an item of GROUP BY; COUNT(*) gives the number of rows of each window")
	}
	return Errorf(ErrInvalid, at, "COUNT_WINDOW_%s does not exist: count windows have no time bounds (no start, end or rowtime)", prop)
}

// CountSizes returns the size and slide of a COUNT_WINDOW call as Parse
// checked them; slide equals size for the tumbling COUNT_WINDOW(n). ok is
// false for other windows and for calls Parse did not produce.
func (w *WindowCall) CountSizes() (size, slide int64, ok bool) {
	if w.Kind != CountWindow || len(w.Args) == 0 || len(w.Args) > 2 {
		return 0, 0, false
	}
	var vals [2]int64
	for i, a := range w.Args {
		lit, isLit := a.(*Literal)
		if !isLit || lit.Kind != LitInt {
			return 0, 0, false
		}
		v, err := strconv.ParseInt(lit.Text, 10, 64)
		if err != nil || v <= 0 {
			return 0, 0, false
		}
		vals[i] = v
	}
	size, slide = vals[0], vals[0]
	if len(w.Args) == 2 {
		slide = vals[1]
	}
	if slide > size {
		return 0, 0, false
	}
	return size, slide, true
}

// literalText is a literal as written: a string quoted.
func literalText(l *Literal) string {
	if l.Kind == LitString {
		return quoteString(l.Text)
	}
	return l.Text
}
