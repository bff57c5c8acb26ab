package sql

import (
	"math"
	"strconv"
	"strings"
)

// Flink's day-time interval literals: INTERVAL '5' SECOND, INTERVAL '1.5'
// SECOND(3), INTERVAL '-2' MINUTES, INTERVAL '1 02:30' DAY TO MINUTE. MySQL
// has no such literal as an expression, so the rewriter reads it from tokens
// here and hands TiDB a placeholder call instead.

// intervalUnits are the day-time units in order, with their length in ms.
var intervalUnits = []struct {
	name   string
	millis int64
}{{"DAY", 86_400_000}, {"HOUR", 3_600_000}, {"MINUTE", 60_000}, {"SECOND", 1000}}

// maxIntervalMillis keeps every interval far from int64 overflow when the
// planner adds it to a timestamp.
const maxIntervalMillis = int64(1) << 52

// intervalUnit returns the index of a unit word in intervalUnits, accepting
// plural forms, or -1.
func intervalUnit(t token) int {
	if t.kind != tokIdent {
		return -1
	}
	w := strings.ToUpper(t.text)
	for i, u := range intervalUnits {
		if w == u.name || w == u.name+"S" {
			return i
		}
	}
	return -1
}

// parseInterval reads an interval literal starting at toks[i] (the word
// INTERVAL) and returns it with the index of the first token after it.
func parseInterval(src *source, toks []token, i int) (*IntervalLiteral, int, *Error) {
	start := toks[i]
	j := i + 1
	at := func(k int) token {
		if k < len(toks) {
			return toks[k]
		}
		return token{pos: endPos(toks)} // past the end: errors point after the last token
	}
	neg := false
	if t := at(j); t.isOp("-") || t.isOp("+") {
		neg = t.text == "-"
		j++
	}
	val := at(j)
	if val.kind != tokString && val.kind != tokNumber {
		return nil, 0, Errorf(ErrSyntax, start.pos, "expected a quoted value after INTERVAL, as in INTERVAL '5' SECOND")
	}
	j++
	from := intervalUnit(at(j))
	if from < 0 {
		if w := strings.ToUpper(at(j).text); at(j).kind == tokIdent && (strings.HasPrefix(w, "YEAR") || strings.HasPrefix(w, "MONTH")) {
			return nil, 0, Errorf(ErrUnsupported, at(j).pos, "year-month intervals are not supported; use DAY, HOUR, MINUTE or SECOND")
		}
		if u := at(j); u.kind == tokIdent {
			return nil, 0, Errorf(ErrSyntax, u.pos, "unknown interval unit %s; use DAY, HOUR, MINUTE or SECOND%s", u.text, DidYouMean(u.text, unitNames(0)))
		}
		return nil, 0, Errorf(ErrSyntax, at(j).pos, "expected an interval unit (DAY, HOUR, MINUTE or SECOND) after %s", val.text)
	}
	j++
	j, err := skipPrecision(toks, j)
	if err != nil {
		return nil, 0, err
	}
	to := from
	if at(j).is("TO") {
		to = intervalUnit(at(j + 1))
		if to <= from {
			if from == len(intervalUnits)-1 {
				return nil, 0, Errorf(ErrSyntax, at(j).pos, "SECOND cannot start a range; write INTERVAL '5' SECOND")
			}
			smaller := unitNames(from + 1)
			return nil, 0, Errorf(ErrSyntax, at(j+1).pos, "expected %s after %s TO%s", orList(smaller), intervalUnits[from].name, found(at(j+1)))
		}
		if j, err = skipPrecision(toks, j+2); err != nil {
			return nil, 0, err
		}
	}
	text := val.value()
	ms, ok := intervalMillis(strings.TrimSpace(text), from, to)
	if !ok {
		return nil, 0, Errorf(ErrSyntax, val.pos, "invalid interval value %s for %s; expected %s", val.text, unitRange(from, to), unitLayout(from, to))
	}
	if neg {
		ms = -ms
	}
	end := toks[j-1].end
	return &IntervalLiteral{At: start.pos, Millis: ms, Text: src.text[start.off:end]}, j, nil
}

// skipPrecision skips an optional "(p)" or "(p, q)" after an interval unit.
func skipPrecision(toks []token, j int) (int, *Error) {
	if j >= len(toks) || !toks[j].isOp("(") {
		return j, nil
	}
	k := j + 1
	for n := 0; n < 2; n++ {
		if k >= len(toks) || toks[k].kind != tokNumber {
			break
		}
		k++
		if k < len(toks) && toks[k].isOp(")") {
			return k + 1, nil
		}
		if k < len(toks) && toks[k].isOp(",") {
			k++
		}
	}
	p := toks[j].pos
	if k < len(toks) {
		p = toks[k].pos
	}
	return 0, Errorf(ErrSyntax, p, "expected a precision such as (3) after the interval unit")
}

// unitNames lists the unit names from intervalUnits[from] on.
func unitNames(from int) []string {
	var out []string
	for _, u := range intervalUnits[from:] {
		out = append(out, u.name)
	}
	return out
}

// orList joins words as "A, B or C".
func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// found says what token t is, for "expected X, found Y" messages.
func found(t token) string {
	if t.text == "" {
		return " at end of input"
	}
	return ", found " + t.text
}

// unitLayout says how the value of an interval of units from..to is
// written: 'd hh:mm:ss[.fff]' for DAY TO SECOND.
func unitLayout(from, to int) string {
	switch {
	case from == to && to == len(intervalUnits)-1:
		return "a number such as '1.5'"
	case from == to:
		return "a whole number such as '5'"
	}
	parts := []string{"d", "hh", "mm", "ss"}[from : to+1]
	s := parts[0]
	for k, p := range parts[1:] {
		if from+k == 0 {
			s += " " + p
		} else {
			s += ":" + p
		}
	}
	if to == len(intervalUnits)-1 {
		s += "[.fff]"
	}
	return "'" + s + "'"
}

func unitRange(from, to int) string {
	if from == to {
		return intervalUnits[from].name
	}
	return intervalUnits[from].name + " TO " + intervalUnits[to].name
}

// intervalMillis converts the quoted value of an interval of units from..to
// to milliseconds: '5' SECOND, '1.5' SECOND, '1 02:30' DAY TO MINUTE,
// '-10:30' MINUTE TO SECOND. Only the last field may have a fraction, and
// only when it is SECOND.
func intervalMillis(s string, from, to int) (int64, bool) {
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = s[0] == '-'
		s = s[1:]
	}
	var fields []string
	if from == 0 && to > 0 {
		day, rest, ok := strings.Cut(s, " ")
		if !ok {
			return 0, false
		}
		fields = append([]string{day}, strings.Split(strings.TrimSpace(rest), ":")...)
	} else {
		fields = strings.Split(s, ":")
	}
	if len(fields) != to-from+1 {
		return 0, false
	}
	var total int64
	for k, f := range fields {
		unit := intervalUnits[from+k]
		whole, frac, hasFrac := strings.Cut(f, ".")
		if hasFrac && (k != len(fields)-1 || unit.name != "SECOND") {
			return 0, false
		}
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || n < 0 || whole[0] == '+' || n > maxIntervalMillis/unit.millis {
			return 0, false
		}
		total += n * unit.millis
		if hasFrac {
			ms, ok := fractionMillis(frac)
			if !ok {
				return 0, false
			}
			total += ms
		}
		if total > maxIntervalMillis {
			return 0, false
		}
	}
	if neg {
		total = -total
	}
	return total, true
}

// fractionMillis reads the digits after a seconds point as milliseconds,
// dropping digits below a millisecond (wsql's time resolution).
func fractionMillis(frac string) (int64, bool) {
	if frac == "" || len(frac) > 9 {
		return 0, false
	}
	for i := 0; i < len(frac); i++ {
		if !isDigit(frac[i]) {
			return 0, false
		}
	}
	frac = (frac + "00")[:3]
	n, err := strconv.ParseInt(frac, 10, 64)
	return n, err == nil && n < math.MaxInt32
}
