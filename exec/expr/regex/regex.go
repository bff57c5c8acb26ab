package regex

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Regex is a compiled Java regular expression. It is immutable; each
// goroutine searches with its own Matcher.
type Regex struct {
	pattern string
	groups  int
	prog    *program       // the backtracking matcher's program, or nil
	line    *straight      // prog without choice points, or nil
	fields  *fieldScan     // the pattern as a field scan, or nil
	std     *regexp.Regexp // Go's regexp of the same pattern, for searches over budget
	net     *regexp2.Regexp
}

// Compile compiles a Java regular expression; the error says why the
// pattern is invalid.
func Compile(pattern string) (*Regex, error) {
	translated := translateJava(pattern)
	if re, err := syntax.Parse(translated, syntax.Perl); err == nil {
		std, err := regexp.Compile(translated)
		if err != nil {
			return nil, err
		}
		prog := compileProgram(re)
		return &Regex{pattern: pattern, groups: re.MaxCap(), prog: prog, line: straighten(prog), fields: scanFields(re), std: std}, nil
	}
	// Java's forms RE2 lacks: backreferences, lookaround, atomic groups.
	net, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		return nil, err
	}
	groups := 0
	for _, g := range net.GetGroupNumbers() {
		groups = max(groups, g)
	}
	return &Regex{pattern: pattern, groups: groups, net: net}, nil
}

// String is the pattern as written.
func (re *Regex) String() string { return re.pattern }

// Groups is the number of capturing groups.
func (re *Regex) Groups() int { return re.groups }

// Matcher searches one string at a time for a Regex, as Java's Matcher:
// Find finds the next match after the previous one.
type Matcher struct {
	re     *Regex
	bt     *backtracker
	next   int // where the next search starts
	caps   []int
	done   bool
	line   *straight  // re's, read here without going through re
	fields *fieldScan // re's
	// the regexp2 engine's current match
	netMatch *regexp2.Match
}

// NewMatcher returns a Matcher of re; it allocates once and is reused
// for every string.
func (re *Regex) NewMatcher() *Matcher {
	m := &Matcher{re: re, caps: make([]int, 2*(re.groups+1)), line: re.line, fields: re.fields}
	for i := range m.caps {
		m.caps[i] = -1
	}
	if re.prog != nil {
		m.bt = newBacktracker(re.prog)
	}
	return m
}

// Reset starts the searches of a new string. (The string is passed to
// each Find rather than kept, so a row costs no pointer store.)
func (m *Matcher) Reset() {
	m.next, m.done = 0, false
	if m.netMatch != nil {
		m.netMatch = nil
	}
}

// Find finds the next match in s, the same s since Reset; after an empty
// match the search moves on by one character, as Java's Matcher.find.
func (m *Matcher) Find(s string) bool {
	if m.done {
		return false
	}
	from := m.next
	var ok bool
	if m.fields != nil && from <= len(s) {
		ok = m.fields.find(s, from, m.caps)
	} else if m.line != nil && from <= len(s) {
		var aborted bool
		if ok, aborted = m.line.find(s, from, m.caps); aborted {
			ok = m.findStd(s, from)
		}
	} else if m.re.prog == nil {
		return m.findNet(s)
	} else if from > len(s) {
		m.done = true
		return false
	} else if ok = m.bt.find(s, from); m.bt.aborted {
		ok = m.findStd(s, from)
	} else if ok {
		copy(m.caps, m.bt.caps)
	}
	if !ok {
		m.done = true
		return false
	}
	m.next = m.caps[1]
	if m.caps[1] == m.caps[0] {
		if m.next >= len(s) {
			m.next = len(s) + 1
		} else {
			_, size := utf8.DecodeRuneInString(s[m.next:])
			m.next += size
		}
	}
	return true
}

// findStd is a search the backtracker gave up on, done by Go's regexp.
func (m *Matcher) findStd(s string, from int) bool {
	loc := m.re.std.FindStringSubmatchIndex(s[from:])
	if loc == nil {
		return false
	}
	for i := range m.caps {
		m.caps[i] = -1
		if i < len(loc) && loc[i] >= 0 {
			m.caps[i] = loc[i] + from
		}
	}
	return true
}

func (m *Matcher) findNet(s string) bool {
	var match *regexp2.Match
	var err error
	if m.netMatch == nil {
		match, err = m.re.net.FindStringMatch(s)
	} else {
		match, err = m.re.net.FindNextMatch(m.netMatch)
	}
	if err != nil || match == nil {
		m.done = true
		return false
	}
	m.netMatch = match
	for g := 0; g <= m.re.groups; g++ {
		m.caps[2*g], m.caps[2*g+1] = -1, -1
		grp := match.GroupByNumber(g)
		if grp == nil || len(grp.Captures) == 0 {
			continue
		}
		start, length := grp.ByteRange()
		m.caps[2*g], m.caps[2*g+1] = start, start+length
	}
	return true
}

// Group is the byte range of group g of the last match (0: the whole
// match); ok is false when the group did not take part in it.
func (m *Matcher) Group(g int) (start, end int, ok bool) {
	start, end = m.caps[2*g], m.caps[2*g+1]
	return start, end, start >= 0 && end >= 0
}

// translateJava rewrites the few escapes whose meaning differs between
// Java and Go's syntax into Go's spelling of Java's meaning: \s also
// matches \x0B in Java, \v and \h are Java's vertical and horizontal
// white space, and Java's POSIX classes \p{Lower}... are [[:lower:]]....
func translateJava(p string) string {
	if !strings.Contains(p, `\`) {
		return p
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		}
		if c != '\\' || i+1 == len(p) {
			b.WriteByte(c)
			continue
		}
		e := p[i+1]
		repl := ""
		switch e {
		case 's':
			repl = `\s\x0B`
		case 'S':
			if !inClass {
				repl = `^\s\x0B`
			}
		case 'v':
			repl = `\n\x0B\f\r\x{85}\x{2028}\x{2029}`
		case 'h':
			repl = ` \t\x{A0}\x{1680}\x{180E}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}`
		case 'p', 'P':
			if cls, n := posixClass(p[i+2:]); cls != "" {
				neg := ""
				if e == 'P' {
					neg = "^"
				}
				if inClass {
					b.WriteString("[:" + neg + cls + ":]")
				} else {
					b.WriteString("[[:" + neg + cls + ":]]")
				}
				i += 1 + n
				continue
			}
		case 'Q': // quoted text is copied as is, up to \E
			end := strings.Index(p[i+2:], `\E`)
			if end < 0 {
				end = len(p) - i - 2
			}
			b.WriteString(regexp.QuoteMeta(p[i+2 : i+2+end]))
			i += 1 + end + 2
			continue
		}
		switch {
		case repl == "":
			b.WriteByte(c)
			b.WriteByte(e)
		case inClass:
			b.WriteString(repl)
		default:
			b.WriteString("[" + repl + "]")
		}
		i++
	}
	return b.String()
}

// posixClass reads {Name} of Java's POSIX class \p{Name}: the Go class
// name and the bytes read.
func posixClass(s string) (string, int) {
	if !strings.HasPrefix(s, "{") {
		return "", 0
	}
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return "", 0
	}
	switch name := s[1:end]; name {
	case "Lower", "Upper", "ASCII", "Alpha", "Digit", "Alnum", "Punct", "Graph", "Print", "Blank", "Cntrl", "XDigit", "Space":
		return strings.ToLower(name), end + 1 // Go's [:name:] is the same class
	}
	return "", 0
}

// Groups is the number of capturing groups of the matcher's pattern.
func (m *Matcher) Groups() int { return m.re.groups }
