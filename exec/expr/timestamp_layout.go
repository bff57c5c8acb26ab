package expr

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/rowtime"
)

// timestampLayout is a compiled Java SimpleDateFormat-style pattern, the
// format language of Flink's TO_TIMESTAMP: yyyy, MM, dd, HH, mm, ss, SSS
// (1 to 9 S), and literal text (other punctuation, or 'quoted'). Parsing is
// by hand, without time.Parse, and reuses the CSV decoder's calendar.
type timestampLayout struct {
	parts []layoutPart
	// lenientFraction accepts an optional .fraction after the seconds, as
	// Flink's default format does.
	lenientFraction bool
}

type layoutPart struct {
	field byte // 'y', 'M', 'd', 'H', 'm', 's', 'S', or 0 for literal
	width int
	lit   string
	exact bool // digits must fill the width: yyyy, or a field next to another field
}

// DefaultTimestampFormat is TO_TIMESTAMP's format when none is given.
const DefaultTimestampFormat = "yyyy-MM-dd HH:mm:ss"

func compileTimestampLayout(format string) (*timestampLayout, error) {
	l := &timestampLayout{lenientFraction: format == DefaultTimestampFormat}
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case strings.IndexByte("yMdHmsS", c) >= 0:
			j := i
			for j < len(format) && format[j] == c {
				j++
			}
			l.parts = append(l.parts, layoutPart{field: c, width: j - i})
			i = j
		case c == '\'':
			j := strings.IndexByte(format[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote in timestamp format %q", format)
			}
			l.parts = append(l.parts, layoutPart{lit: format[i+1 : i+1+j]})
			i += j + 2
		case c == 'T':
			return nil, bareTError(format)
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return nil, fmt.Errorf("timestamp format %q: pattern letter %q is not supported (use yyyy MM dd HH mm ss SSS)", format, c)
		default:
			l.parts = append(l.parts, layoutPart{lit: string(c)})
			i++
		}
	}
	for i := range l.parts {
		p := &l.parts[i]
		abuts := i+1 < len(l.parts) && l.parts[i+1].field != 0 || i > 0 && l.parts[i-1].field != 0
		p.exact = p.field != 0 && (p.width > 2 || abuts)
	}
	return l, nil
}

// bareTError is the error of a format with an unquoted T, as in
// 'yyyy-MM-ddTHH:mm:ss': it shows the format with the T quoted, written as
// a SQL string literal (each quote doubled).
func bareTError(format string) error {
	var quoted strings.Builder
	inQuote := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\'':
			inQuote = !inQuote
			quoted.WriteByte(c)
		case c == 'T' && !inQuote:
			quoted.WriteString("'T'")
		default:
			quoted.WriteByte(c)
		}
	}
	literal := "'" + strings.ReplaceAll(quoted.String(), "'", "''") + "'"
	return fmt.Errorf("timestamp format %q: pattern letter 'T' is not supported; to match a literal T, quote it as ''T'' in the SQL string: %s", format, literal)
}

// parse reads s as epoch milliseconds (wall time taken as UTC).
func (l *timestampLayout) parse(s string) (int64, bool) {
	var year, month, day, hour, minute, sec, millis int64 = 1970, 1, 1, 0, 0, 0, 0
	p := 0
	for _, part := range l.parts {
		if part.field == 0 {
			if !strings.HasPrefix(s[p:], part.lit) {
				return 0, false
			}
			p += len(part.lit)
			continue
		}
		// a field of width 1 or 2 takes 1 or 2 digits; yyyy takes 4
		maxDigits := max(part.width, 2)
		if part.field == 'S' {
			maxDigits = part.width
		}
		v, n := leadingDigits(s[p:], maxDigits)
		if n == 0 || (part.exact && n != part.width) {
			return 0, false
		}
		p += n
		switch part.field {
		case 'y':
			year = v
		case 'M':
			month = v
		case 'd':
			day = v
		case 'H':
			hour = v
		case 'm':
			minute = v
		case 's':
			sec = v
		case 'S':
			millis = fractionMillis(v, n)
		}
	}
	if l.lenientFraction && p < len(s) && s[p] == '.' {
		v, n := leadingDigits(s[p+1:], 9)
		if n == 0 {
			return 0, false
		}
		millis = fractionMillis(v, n)
		p += 1 + n
	}
	if p != len(s) || month < 1 || month > 12 || day < 1 || day > int64(rowtime.DaysInMonth(int(year), int(month))) ||
		hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	days := rowtime.DaysFromCivil(year, month, day)
	return ((days*24+hour)*60+minute)*60_000 + sec*1000 + millis, true
}

// leadingDigits reads up to max decimal digits.
func leadingDigits(s string, max int) (v int64, n int) {
	for n < len(s) && n < max && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	return v, n
}

// fractionMillis turns n fraction digits with value v into milliseconds,
// truncating below a millisecond.
func fractionMillis(v int64, n int) int64 {
	for ; n > 3; n-- {
		v /= 10
	}
	for ; n < 3; n++ {
		v *= 10
	}
	return v
}
