package sql

import (
	"strconv"
	"strings"
)

// Flink's year-month interval literals: INTERVAL '1' YEAR, INTERVAL '2'
// MONTH, INTERVAL '1-2' YEAR TO MONTH. They count calendar months, not
// milliseconds, so they are kept apart from day-time intervals (Months
// and YearMonth on IntervalLiteral).

// maxMonths keeps year-month intervals far from overflow: Flink's
// largest leading precision (4 digits of years) is 120000 months.
const maxMonths = 12 * 1_000_000

// yearMonthUnit says whether t is YEAR(S) or MONTH(S), and which.
func yearMonthUnit(t token) (year, ok bool) {
	if t.kind != tokIdent {
		return false, false
	}
	switch strings.ToUpper(t.text) {
	case "YEAR", "YEARS":
		return true, true
	case "MONTH", "MONTHS":
		return false, true
	}
	return false, false
}

// parseYearMonth reads the rest of a year-month interval literal; toks[j]
// is its unit, val its quoted value and neg the sign written before it.
func parseYearMonth(src *source, toks []token, start, val token, j int, neg bool) (*IntervalLiteral, int, *Error) {
	at := func(k int) token {
		if k < len(toks) {
			return toks[k]
		}
		return token{pos: endPos(toks)}
	}
	year, _ := yearMonthUnit(at(j))
	j, err := skipPrecision(toks, j+1)
	if err != nil {
		return nil, 0, err
	}
	rangeTo := false
	if at(j).is("TO") {
		toYear, ok := yearMonthUnit(at(j + 1))
		if !year || !ok || toYear {
			if !year {
				return nil, 0, Errorf(ErrSyntax, at(j).pos, "MONTH cannot start a range; write INTERVAL '5' MONTH")
			}
			return nil, 0, Errorf(ErrSyntax, at(j+1).pos, "expected MONTH after YEAR TO%s", found(at(j+1)))
		}
		rangeTo = true
		if j, err = skipPrecision(toks, j+2); err != nil {
			return nil, 0, err
		}
	}
	months, ok := yearMonthValue(strings.TrimSpace(val.value()), year, rangeTo)
	if !ok {
		unit, layout := "MONTH", "a whole number such as '5'"
		if year && rangeTo {
			unit, layout = "YEAR TO MONTH", "'y-m' such as '1-2'"
		} else if year {
			unit = "YEAR"
		}
		return nil, 0, Errorf(ErrSyntax, val.pos, "invalid interval value %s for %s; expected %s", val.text, unit, layout)
	}
	if neg {
		months = -months
	}
	end := toks[j-1].end
	return &IntervalLiteral{At: start.pos, Months: months, YearMonth: true, Text: src.text[start.off:end]}, j, nil
}

// yearMonthValue reads '5' (years or months) or '1-2' (YEAR TO MONTH,
// months below 12) as a number of months.
func yearMonthValue(s string, year, rangeTo bool) (int64, bool) {
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg, s = s[0] == '-', s[1:]
	}
	whole := func(f string) (int64, bool) {
		n, err := strconv.ParseInt(f, 10, 64)
		return n, err == nil && f != "" && f[0] != '+' && f[0] != '-' && n <= maxMonths
	}
	var months int64
	if rangeTo {
		y, m, ok := strings.Cut(s, "-")
		yn, ok1 := whole(y)
		mn, ok2 := whole(m)
		if !ok || !ok1 || !ok2 || mn >= 12 {
			return 0, false
		}
		months = yn*12 + mn
	} else {
		n, ok := whole(s)
		if !ok {
			return 0, false
		}
		months = n
		if year {
			months *= 12
		}
	}
	if months > maxMonths {
		return 0, false
	}
	if neg {
		months = -months
	}
	return months, true
}
