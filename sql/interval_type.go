package sql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Interval is the qualifier of an INTERVAL type, as Flink's type summary
// prints it with its default precisions filled in: YEAR(2) TO MONTH,
// MONTH, DAY(2) TO SECOND(6), HOUR TO MINUTE, SECOND(3). Flink keeps a
// year-month interval in months and a day-time one in milliseconds, so
// the precisions only show.
type Interval struct {
	Qualifier string
	YearMonth bool
}

// intervalEnds are the ends an interval qualifier may go to from each
// start, in order.
var intervalEnds = map[string][]string{
	"YEAR": {"MONTH"}, "MONTH": nil,
	"DAY": {"HOUR", "MINUTE", "SECOND"}, "HOUR": {"MINUTE", "SECOND"}, "MINUTE": {"SECOND"}, "SECOND": nil,
}

// parseIntervalType reads INTERVAL <start>[(p)] [TO <end>[(p)]] at toks[i],
// the word INTERVAL.
func parseIntervalType(toks []token, i int) (TypeName, int, *Error) {
	tn := TypeName{Name: "INTERVAL", Precision: -1, Scale: -1, At: toks[i].pos, Interval: &Interval{}}
	start, p1, j, err := qualifierUnit(toks, i+1, "")
	if err != nil {
		return TypeName{}, i, err
	}
	end, p2 := "", -1
	if j < len(toks) && toks[j].is("TO") {
		if end, p2, j, err = qualifierUnit(toks, j+1, start); err != nil {
			return TypeName{}, i, err
		}
	}
	iv := tn.Interval
	iv.YearMonth = start == "YEAR" || start == "MONTH"
	switch {
	case start == "YEAR" || start == "DAY":
		iv.Qualifier = fmt.Sprintf("%s(%d)", start, defaultPrecision(p1, 2))
	case start == "SECOND":
		iv.Qualifier = fmt.Sprintf("SECOND(%d)", defaultPrecision(p1, 6))
	default:
		iv.Qualifier = start
	}
	switch end {
	case "":
	case "SECOND":
		iv.Qualifier += fmt.Sprintf(" TO SECOND(%d)", defaultPrecision(p2, 6))
	default:
		iv.Qualifier += " TO " + end
	}
	return tn, j, nil
}

// qualifierUnit reads one unit of an interval qualifier and its optional
// precision; after is the start unit when reading the end ("" for the
// start).
func qualifierUnit(toks []token, j int, after string) (unit string, p, next int, err *Error) {
	if j >= len(toks) {
		return "", -1, j, Errorf(ErrSyntax, endPos(toks), "expected an interval unit such as DAY or YEAR TO MONTH after INTERVAL")
	}
	t := toks[j]
	unit = strings.ToUpper(t.text)
	_, known := intervalEnds[unit]
	switch {
	case after == "" && !known:
		return "", -1, j, Errorf(ErrSyntax, t.pos, "expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND), found %s", t.text)
	case after != "" && !slices.Contains(intervalEnds[after], unit):
		return "", -1, j, Errorf(ErrInvalid, t.pos, "INTERVAL %s TO %s is not an interval type: %s goes to %s", after, t.text, after, orNothing(intervalEnds[after]))
	}
	p, next = -1, j+1
	if next < len(toks) && toks[next].isOp("(") {
		if unit != "YEAR" && unit != "DAY" && unit != "SECOND" {
			return "", -1, j, Errorf(ErrSyntax, toks[next].pos, "INTERVAL %s takes no precision", unit)
		}
		if next+2 >= len(toks) || toks[next+1].kind != tokNumber || !toks[next+2].isOp(")") {
			return "", -1, j, Errorf(ErrSyntax, toks[next].pos, "expected a whole number in parentheses as the precision of %s", unit)
		}
		n, convErr := strconv.Atoi(toks[next+1].text)
		if maxP := map[string]int{"YEAR": 4, "DAY": 6, "SECOND": 9}[unit]; convErr != nil || n < 0 || n > maxP || (unit != "SECOND" && n < 1) {
			return "", -1, j, Errorf(ErrInvalid, toks[next+1].pos, "the precision of INTERVAL %s must be %d to %d", unit, map[string]int{"YEAR": 1, "DAY": 1, "SECOND": 0}[unit], maxP)
		}
		p, next = n, next+3
	}
	return unit, p, next, nil
}

func defaultPrecision(p, def int) int {
	if p < 0 {
		return def
	}
	return p
}

// orNothing lists the ends of a start: "HOUR, MINUTE or SECOND", or
// "no other unit".
func orNothing(ends []string) string {
	switch len(ends) {
	case 0:
		return "no other unit"
	case 1:
		return ends[0]
	}
	return strings.Join(ends[:len(ends)-1], ", ") + " or " + ends[len(ends)-1]
}
