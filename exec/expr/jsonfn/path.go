package jsonfn

import (
	"fmt"
	"strconv"
	"strings"
)

// Path is a compiled JSON path: Flink's 'lax' or 'strict' mode prefix
// (none is strict) and Jayway JsonPath's steps: $, .name, ['name'],
// ["name"], [n] (n < 0 counts from the end), .* and [*], and ..name.
type Path struct {
	text  string
	lax   bool
	steps []step
	// definite: no wildcard or scan, so the path reads at most one value.
	definite bool
	// invalid is why the path is not a JSON path. As in Flink it is an
	// error of every row (ON ERROR), not of the query.
	invalid string
	// isSimple: read in the pass that validates the document (find.go).
	isSimple bool
	// names: a path of names only, read by findNames.
	names bool
	// The messages of rows the path finds nothing or no scalar in, made
	// once rather than per row.
	msgNoValue, msgNotScalar string
}

type stepKind byte

const (
	stepName stepKind = iota
	stepIndex
	stepWildcard
	stepScan // ..name
)

type step struct {
	kind  stepKind
	name  string
	index int
}

// String is the path as written.
func (p *Path) String() string { return p.text }

// Lax reports the lax mode.
func (p *Path) Lax() bool { return p.lax }

// CompilePath reads a path. Its error is a path form Jayway reads but
// wsql does not run (filters, slices, functions, several names or indexes
// in one bracket); a path that is not valid at all compiles to a Path
// every row fails on, as in Flink.
func CompilePath(spec string) (*Path, error) {
	p := &Path{text: spec, definite: true,
		msgNoValue: "no value at path " + quote(spec), msgNotScalar: "strict mode requires a scalar value at path " + quote(spec)}
	rest := spec
	if mode, tail, ok := splitMode(spec); ok {
		p.lax = mode == "lax"
		rest = tail
	}
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "":
		p.invalid = "the path is empty"
		return p, nil
	case rest[0] == '$' || rest[0] == '@':
		rest = rest[1:]
	default:
		rest = "." + rest // Jayway reads a path without $ from the root
	}
	for len(rest) > 0 {
		var err error
		var bad string
		rest, bad, err = p.readStep(rest)
		if err != nil {
			return nil, fmt.Errorf("JSON path %q: %w", spec, err)
		}
		if bad != "" {
			p.invalid = bad
			p.steps = nil
			return p, nil
		}
	}
	p.isSimple = p.simple()
	p.names = p.isSimple && len(p.steps) > 0
	for _, st := range p.steps {
		p.names = p.names && st.kind == stepName
	}
	return p, nil
}

// splitMode splits Flink's mode prefix: ^\s*(strict|lax)\s+(.+)$, any case.
func splitMode(spec string) (mode, rest string, ok bool) {
	t := strings.TrimLeft(spec, " \t\n\r\f\v")
	for _, m := range []string{"strict", "lax"} {
		if len(t) > len(m) && strings.EqualFold(t[:len(m)], m) && isSpace(t[len(m)]) {
			r := strings.TrimLeft(t[len(m):], " \t\n\r\f\v")
			if r != "" {
				return m, r, true
			}
		}
	}
	return "", "", false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

var errUnsupportedFilter = fmt.Errorf("filters [?(...)] are not supported yet")

// readStep reads one step off the front of rest.
func (p *Path) readStep(rest string) (string, string, error) {
	switch {
	case strings.HasPrefix(rest, ".."):
		rest = rest[2:]
		name, tail := readName(rest)
		switch {
		case name == "" && (rest == "" || rest[0] == '*' || rest[0] == '['):
			if rest == "" {
				return "", "the path must not end with '..'", nil
			}
			return "", "", fmt.Errorf("..%c is not supported yet; use ..name", rest[0])
		case name == "":
			return "", "the path has an empty name after '..'", nil
		case strings.HasPrefix(tail, "("):
			return "", "", fmt.Errorf("path functions such as %s() are not supported yet", name)
		}
		p.steps = append(p.steps, step{kind: stepScan, name: name})
		p.definite = false
		return tail, "", nil
	case rest[0] == '.':
		rest = rest[1:]
		switch {
		case rest == "":
			return "", "the path must not end with '.'", nil
		case rest[0] == '[':
			return p.readStep(rest)
		case rest[0] == '*':
			p.steps = append(p.steps, step{kind: stepWildcard})
			p.definite = false
			return rest[1:], "", nil
		}
		name, tail := readName(rest)
		switch {
		case name == "":
			return "", fmt.Sprintf("unexpected %q in the path", rest[0]), nil
		case strings.HasPrefix(tail, "("):
			return "", "", fmt.Errorf("path functions such as %s() are not supported yet", name)
		}
		p.steps = append(p.steps, step{kind: stepName, name: name})
		return tail, "", nil
	case rest[0] == '[':
		return p.readBracket(rest[1:])
	}
	return "", fmt.Sprintf("unexpected %q in the path", rest[0]), nil
}

// readName reads a dot-notation name: up to '.', '[', '(' or a blank.
func readName(s string) (string, string) {
	i := 0
	for i < len(s) && s[i] != '.' && s[i] != '[' && s[i] != '(' && !isSpace(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// readBracket reads what follows '[': 'name', "name", *, or an index.
func (p *Path) readBracket(s string) (string, string, error) {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return "", "the path has an unclosed '['", nil
	}
	var st step
	switch c := s[0]; {
	case c == '\'' || c == '"':
		var b strings.Builder
		i := 1
		for ; i < len(s) && s[i] != c; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		if i >= len(s) {
			return "", "the path has an unclosed quote", nil
		}
		st = step{kind: stepName, name: b.String()}
		s = s[i+1:]
	case c == '*':
		st = step{kind: stepWildcard}
		p.definite = false
		s = s[1:]
	case c == '?':
		return "", "", errUnsupportedFilter
	case c == '-' || isDigit(c) || c == ':':
		i := 0
		if c == '-' {
			i++
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if t := strings.TrimLeft(s[i:], " "); t != "" && (t[0] == ':' || t[0] == ',') {
			return "", "", fmt.Errorf("array slices and several indexes in one [] are not supported yet")
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			return "", fmt.Sprintf("bad array index %q in the path", s[:i]), nil
		}
		st = step{kind: stepIndex, index: n}
		s = s[i:]
	default:
		return "", fmt.Sprintf("unexpected %q in the path", c), nil
	}
	s = strings.TrimLeft(s, " ")
	switch {
	case s != "" && s[0] == ',':
		return "", "", fmt.Errorf("several names in one [] are not supported yet")
	case s == "" || s[0] != ']':
		return "", "the path has an unclosed '['", nil
	}
	p.steps = append(p.steps, st)
	return s[1:], "", nil
}
