package sql

import (
	"strings"

	"github.com/wsql/wsql/sql/interval"
)

// Flink's day-time interval literals (year-month ones are in
// interval_yearmonth.go): INTERVAL '5' SECOND, INTERVAL '1.5'
// SECOND(3), INTERVAL '-2' MINUTES, INTERVAL '1 02:30' DAY TO MINUTE. MySQL
// has no such literal as an expression, so the rewriter reads it from tokens
// here and hands TiDB a placeholder call instead.

// intervalUnit returns the index of a unit word in interval.Units, accepting
// plural forms, or -1.
func intervalUnit(t token) int {
	if t.kind != tokIdent {
		return -1
	}
	w := strings.ToUpper(t.text)
	for i, u := range interval.Units {
		if w == u.Name || w == u.Name+"S" {
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
		if _, ym := yearMonthUnit(at(j)); ym {
			return parseYearMonth(src, toks, start, val, j, neg)
		}
		if u := at(j); u.kind == tokIdent {
			return nil, 0, Errorf(ErrSyntax, u.pos, "unknown interval unit %s; use YEAR, MONTH, DAY, HOUR, MINUTE or SECOND%s", u.text, DidYouMean(u.text, append([]string{"YEAR", "MONTH"}, interval.Names(0)...)))
		}
		return nil, 0, Errorf(ErrSyntax, at(j).pos, "expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND) after %s", val.text)
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
			if from == len(interval.Units)-1 {
				return nil, 0, Errorf(ErrSyntax, at(j).pos, "SECOND cannot start a range; write INTERVAL '5' SECOND")
			}
			smaller := interval.Names(from + 1)
			return nil, 0, Errorf(ErrSyntax, at(j+1).pos, "expected %s after %s TO%s", orList(smaller), interval.Units[from].Name, found(at(j+1)))
		}
		if j, err = skipPrecision(toks, j+2); err != nil {
			return nil, 0, err
		}
	}
	text := val.value()
	ms, ok := interval.Millis(strings.TrimSpace(text), from, to)
	if !ok {
		return nil, 0, Errorf(ErrSyntax, val.pos, "invalid interval value %s for %s; expected %s", val.text, interval.Range(from, to), interval.Layout(from, to))
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
