package interval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Units are the day-time units in order, with their length in ms.
var Units = []struct {
	Name   string
	Millis int64
}{{"DAY", 86_400_000}, {"HOUR", 3_600_000}, {"MINUTE", 60_000}, {"SECOND", 1000}}

// MaxMillis keeps every interval far from int64 overflow when the
// planner adds it to a timestamp.
const MaxMillis = int64(1) << 52

// Names lists the unit names from Units[from] on.
func Names(from int) []string {
	var out []string
	for _, u := range Units[from:] {
		out = append(out, u.Name)
	}
	return out
}

// Layout says how the value of an interval of units from..to is
// written: 'd hh:mm:ss[.fff]' for DAY TO SECOND.
func Layout(from, to int) string {
	switch {
	case from == to && to == len(Units)-1:
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
	if to == len(Units)-1 {
		s += "[.fff]"
	}
	return "'" + s + "'"
}

// Range names the units from..to: DAY TO MINUTE.
func Range(from, to int) string {
	if from == to {
		return Units[from].Name
	}
	return Units[from].Name + " TO " + Units[to].Name
}

// Millis converts the quoted value of an interval of units from..to
// to milliseconds: '5' SECOND, '1.5' SECOND, '1 02:30' DAY TO MINUTE,
// '-10:30' MINUTE TO SECOND. Only the last field may have a fraction, and
// only when it is SECOND.
func Millis(s string, from, to int) (int64, bool) {
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
		unit := Units[from+k]
		whole, frac, hasFrac := strings.Cut(f, ".")
		if hasFrac && (k != len(fields)-1 || unit.Name != "SECOND") {
			return 0, false
		}
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || n < 0 || whole[0] == '+' || n > MaxMillis/unit.Millis {
			return 0, false
		}
		total += n * unit.Millis
		if hasFrac {
			ms, ok := fractionMillis(frac)
			if !ok {
				return 0, false
			}
			total += ms
		}
		if total > MaxMillis {
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
		if frac[i] < '0' || frac[i] > '9' {
			return 0, false
		}
	}
	frac = (frac + "00")[:3]
	n, err := strconv.ParseInt(frac, 10, 64)
	return n, err == nil && n < math.MaxInt32
}

// Format prints ms in the largest unit that holds it exactly,
// with fractional seconds when no unit does. Flink's default leading
// precision is 2 digits, so longer values carry theirs: '120' SECOND(3).
// Values too long for a leading precision of 9 use DAY TO SECOND.
func Format(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	frac := ""
	if ms%1000 != 0 {
		frac = "." + strings.TrimRight(fmt.Sprintf("%03d", ms%1000), "0")
	}
	for _, u := range Units {
		n := strconv.FormatInt(ms/u.Millis, 10)
		if len(n) > 9 {
			continue
		}
		if ms%u.Millis == 0 {
			return "INTERVAL '" + sign + n + "' " + u.Name + leadingPrecision(n)
		}
		if u.Name == "SECOND" {
			return "INTERVAL '" + sign + n + frac + "' SECOND" + leadingPrecision(n)
		}
	}
	days := strconv.FormatInt(ms/86_400_000, 10)
	return fmt.Sprintf("INTERVAL '%s%s %02d:%02d:%02d%s' DAY%s TO SECOND(3)", sign, days,
		ms/3_600_000%24, ms/60_000%60, ms/1000%60, frac, leadingPrecision(days))
}

func leadingPrecision(digits string) string {
	if len(digits) <= 2 {
		return ""
	}
	return "(" + strconv.Itoa(len(digits)) + ")"
}
