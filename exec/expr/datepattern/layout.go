package datepattern

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/rowtime"
)

// Layout is a compiled Java date pattern, the format language of
// Flink's DATE_FORMAT, TO_TIMESTAMP and UNIX_TIMESTAMP (DateTimeFormatter's
// letters, which are SimpleDateFormat's for the common ones): a plan of
// segments, each a field of a letter repeated width times or literal text
// (punctuation, 'quoted', ” for a quote). DATE_FORMAT writes every letter
// a zone-less date-time has (formatLetters); text is read in the numeric
// ones (parseLetters). Parsing and formatting are by hand, without
// time.Parse, on the CSV decoder's calendar.
type Layout struct {
	parts []layoutPart
	// lenientFraction accepts an optional .fraction after the seconds, as
	// Flink's default format does.
	lenientFraction bool
	// offsets reads an ISO offset for X, x or Z (+08, +0800, +08:00, Z);
	// trailing ignores text after the pattern, as SimpleDateFormat.parse
	// does: UNIX_TIMESTAMP's layout (CompileOffsets).
	offsets, trailing bool
}

type layoutPart struct {
	field byte // the pattern letter, or 0 for literal text
	width int
	lit   string
	exact bool // digits must fill the width: yyyy, or a field next to another field
}

// AcceptFraction makes Parse accept an optional .fraction after the
// seconds, as CAST reads timestamps; the layout must end in seconds.
func (l *Layout) AcceptFraction() { l.lenientFraction = true }

// Default is TO_TIMESTAMP's format when none is given.
const Default = "yyyy-MM-dd HH:mm:ss"

const (
	// formatLetters are the letters DATE_FORMAT writes: era, years, month,
	// quarter, days, weeks (en-US: weeks start on Sunday), day names,
	// AM/PM, the four hour forms, minutes, seconds, fractions and the
	// milli/nano counts.
	formatLetters = "GyuYMLQqDdwWFEecaHkKhmsSnNA"
	// parseLetters are the letters text is read in: numbers, month and
	// day names, AM/PM and the hours of a half day.
	parseLetters = "yMdHmsSEahKk"
	// zoneLetters name a zone or offset, which a wall-clock time has not.
	zoneLetters = "VvzOXxZ"
)

// maxWidths are DateTimeFormatter's limits: more letters is an error there.
var maxWidths = map[byte]int{'d': 2, 'H': 2, 'h': 2, 'K': 2, 'k': 2, 'm': 2, 's': 2, 'D': 3, 'a': 1,
	'W': 1, 'F': 1, 'w': 2, 'M': 5, 'L': 5, 'E': 5, 'e': 5, 'c': 5, 'G': 5, 'Q': 5, 'q': 5, 'S': 9, 'n': 9}

// Compile compiles a pattern that text is read in.
func Compile(format string) (*Layout, error) {
	l, err := compileLayout(format, false)
	if err != nil {
		return nil, err
	}
	for _, p := range l.parts {
		if p.field != 0 && strings.IndexByte(parseLetters, p.field) < 0 {
			return nil, fmt.Errorf("timestamp format %q: pattern letter %q is not supported when text is read (use yyyy MM MMM dd HH hh a mm ss SSS EEE)", format, p.field)
		}
		if p.width == 5 && (p.field == 'M' || p.field == 'E') {
			return nil, fmt.Errorf("timestamp format %q: a one-letter name (%s) cannot be read; use %s", format, strings.Repeat(string(p.field), 5), strings.Repeat(string(p.field), 3))
		}
	}
	return l, nil
}

// CompileFormat compiles DATE_FORMAT's pattern.
func CompileFormat(format string) (*Layout, error) {
	return compileLayout(format, true)
}

// compileLayout compiles format; forFormat: the pattern is written, where
// [ and ] mark an optional section, which a date-time always fills.
func compileLayout(format string, forFormat bool) (*Layout, error) {
	return compileLayoutOffsets(format, forFormat, false)
}

// CompileOffsets compiles UNIX_TIMESTAMP's pattern: an offset in the text
// (X, x, Z) gives the instant (ParseOffset), and text after the pattern is
// ignored, as Flink documents.
func CompileOffsets(format string) (*Layout, error) {
	l, err := compileLayoutOffsets(format, false, true)
	if err != nil {
		return nil, err
	}
	for _, p := range l.parts {
		if p.field != 0 && strings.IndexByte(parseLetters+offsetLetters, p.field) < 0 {
			return nil, fmt.Errorf("timestamp format %q: pattern letter %q is not supported when text is read (use yyyy MM MMM dd HH hh a mm ss SSS EEE X)", format, p.field)
		}
		if p.width == 5 && (p.field == 'M' || p.field == 'E') {
			return nil, fmt.Errorf("timestamp format %q: a one-letter name (%s) cannot be read; use %s", format, strings.Repeat(string(p.field), 5), strings.Repeat(string(p.field), 3))
		}
	}
	l.offsets, l.trailing = true, true
	return l, nil
}

// offsetLetters are the zone letters UNIX_TIMESTAMP reads as an offset.
const offsetLetters = "XxZ"

func compileLayoutOffsets(format string, forFormat, offsets bool) (*Layout, error) {
	l := &Layout{lenientFraction: format == Default}
	var lit strings.Builder // literal text pending
	flush := func() {
		if lit.Len() > 0 {
			l.parts = append(l.parts, layoutPart{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case c == '\'':
			if i+1 < len(format) && format[i+1] == '\'' { // '' is a quote
				lit.WriteByte('\'')
				i += 2
				continue
			}
			// quoted text, in which '' is a quote
			j := i + 1
			for {
				k := strings.IndexByte(format[j:], '\'')
				if k < 0 {
					return nil, fmt.Errorf("unterminated quote in timestamp format %q", format)
				}
				lit.WriteString(format[j : j+k])
				j += k + 1
				if j < len(format) && format[j] == '\'' {
					lit.WriteByte('\'')
					j++
					continue
				}
				break
			}
			i = j
		case c == 'T':
			return nil, bareTError(format)
		case offsets && strings.IndexByte(offsetLetters, c) >= 0:
			j := i
			for j < len(format) && format[j] == c {
				j++
			}
			flush()
			l.parts = append(l.parts, layoutPart{field: c, width: j - i})
			i = j
		case strings.IndexByte(zoneLetters, c) >= 0:
			return nil, fmt.Errorf("timestamp format %q: pattern letter %q is not supported: it names a time zone, and the value is a wall-clock time without one (in Flink too)", format, c)
		case strings.IndexByte(formatLetters, c) >= 0:
			j := i
			for j < len(format) && format[j] == c {
				j++
			}
			if w, ok := maxWidths[c]; ok && j-i > w {
				return nil, fmt.Errorf("timestamp format %q: too many pattern letters %q (at most %d)", format, format[i:j], w)
			}
			flush()
			l.parts = append(l.parts, layoutPart{field: c, width: j - i})
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return nil, fmt.Errorf("timestamp format %q: pattern letter %q is not supported (use yyyy MM dd HH mm ss SSS)", format, c)
		case forFormat && (c == '[' || c == ']'):
			i++
		case c == '#' || c == '{' || c == '}':
			return nil, fmt.Errorf("timestamp format %q: %q is reserved; quote it as '%c'", format, c, c)
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
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
func (l *Layout) Parse(s string) (int64, bool) {
	ms, _, _, ok := l.ParseOffset(s)
	return ms, ok
}

// ParseOffset reads s as wall-clock milliseconds and, for a pattern with
// an offset letter, the offset in milliseconds east of UTC.
func (l *Layout) ParseOffset(s string) (ms, offset int64, zoned, ok bool) {
	var year, month, day, hour, minute, sec, millis int64 = 1970, 1, 1, 0, 0, 0, 0
	dow, pm, halfDay := int64(-1), int64(0), false // day name read, PM, an h or K hour
	p := 0
	for _, part := range l.parts {
		switch {
		case part.field == 0:
			if !strings.HasPrefix(s[p:], part.lit) {
				return 0, 0, false, false
			}
			p += len(part.lit)
			continue
		case part.field == 'M' && part.width >= 3:
			k, n := readName(s[p:], monthNames[:], part.width)
			if n == 0 {
				return 0, 0, false, false
			}
			month, p = int64(k+1), p+n
			continue
		case part.field == 'E':
			k, n := readName(s[p:], dayNames[:], max(part.width, 3))
			if n == 0 {
				return 0, 0, false, false
			}
			dow, p = int64(k), p+n
			continue
		case strings.IndexByte(offsetLetters, part.field) >= 0:
			off, n := readOffset(s[p:])
			if n == 0 {
				return 0, 0, false, false
			}
			offset, zoned, p = off, true, p+n
			continue
		case part.field == 'a':
			switch {
			case strings.HasPrefix(s[p:], "AM"):
			case strings.HasPrefix(s[p:], "PM"):
				pm = 12
			default:
				return 0, 0, false, false
			}
			p += 2
			continue
		}
		// a field of width 1 or 2 takes 1 or 2 digits; yyyy takes 4
		maxDigits := max(part.width, 2)
		if part.field == 'S' {
			maxDigits = part.width
		}
		v, n := leadingDigits(s[p:], maxDigits)
		if n == 0 || (part.exact && n != part.width) {
			return 0, 0, false, false
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
		case 'k': // 1 to 24, 24 being midnight
			if v < 1 || v > 24 {
				return 0, 0, false, false
			}
			hour = v % 24
		case 'h': // 1 to 12, 12 being the first hour of the half day
			if v < 1 || v > 12 {
				return 0, 0, false, false
			}
			hour, halfDay = v%12, true
		case 'K': // 0 to 11
			if v > 11 {
				return 0, 0, false, false
			}
			hour, halfDay = v, true
		case 'm':
			minute = v
		case 's':
			sec = v
		case 'S':
			millis = fractionMillis(v, n)
		}
	}
	if halfDay {
		hour += pm
	}
	if l.lenientFraction && p < len(s) && s[p] == '.' {
		v, n := leadingDigits(s[p+1:], 9)
		if n == 0 {
			return 0, 0, false, false
		}
		millis = fractionMillis(v, n)
		p += 1 + n
	}
	if (p != len(s) && !l.trailing) || month < 1 || month > 12 || day < 1 || day > int64(rowtime.DaysInMonth(int(year), int(month))) ||
		hour > 23 || minute > 59 || sec > 59 {
		return 0, 0, false, false
	}
	days := rowtime.DaysFromCivil(year, month, day)
	if dow >= 0 && rowtime.FloorMod(days+4, 7) != dow {
		return 0, 0, false, false // a day name that is not the date's, which Java refuses too
	}
	return ((days*24+hour)*60+minute)*60_000 + sec*1000 + millis, offset, zoned, true
}

// readOffset reads an ISO offset at the start of s: Z, +hh, +hhmm or
// +hh:mm; it returns the offset in milliseconds and the bytes read.
func readOffset(s string) (int64, int) {
	if strings.HasPrefix(s, "Z") {
		return 0, 1
	}
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return 0, 0
	}
	h, n := leadingDigits(s[1:], 2)
	if n != 2 || h > 18 {
		return 0, 0
	}
	read, m := 3, int64(0)
	rest := s[3:]
	if strings.HasPrefix(rest, ":") {
		rest, read = rest[1:], read+1
	}
	if v, k := leadingDigits(rest, 2); k == 2 && v < 60 {
		m, read = v, read+2
	} else if read == 4 {
		return 0, 0 // +hh: needs minutes
	}
	off := (h*60 + m) * 60_000
	if s[0] == '-' {
		off = -off
	}
	return off, read
}

// readName reads one of names at the start of s, abbreviated (its first
// three letters) for a width of 3 or less, whole for 4, as Java's English
// names are matched; it returns the name's index and length, 0 if none.
func readName(s string, names []string, width int) (int, int) {
	for k, name := range names {
		if width <= 3 {
			name = name[:3]
		}
		if strings.HasPrefix(s, name) {
			return k, len(name)
		}
	}
	return 0, 0
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
