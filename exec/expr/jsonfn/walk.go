package jsonfn

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Reading a path follows Flink's SqlJsonUtils over Jayway JsonPath:
//
//   - A document that is not JSON is an error in strict mode and nothing
//     (empty) in lax mode; a path that is not valid is an error in both.
//   - A definite path that finds nothing is an error in strict mode
//     (Jayway's PathNotFoundException) and empty in lax mode; one that
//     finds a JSON null found "no value" (empty) in both.
//   - An indefinite path (*, ..name) gives a list of what it finds, with
//     the steps that find nothing skipped; a step that fails before any
//     indefinite one fails the whole path, like a definite one (a list
//     that is empty in lax mode).

// outcome is what a path read from one document.
type outcome byte

const (
	outError outcome = iota // an error: the ON ERROR behaviour applies
	outEmpty                // no value: ON EMPTY
	outValue                // one value: reader.value
	outList                 // the list of an indefinite path: reader.list
)

type span struct{ start, end int }

// reader reads paths from documents; its buffers are reused from row to
// row so reading allocates nothing once they have grown.
type reader struct {
	list    []span
	value   span
	found   bool
	failed  bool
	scratch []byte
	// shape is what findNames knows of the value found.
	shape valueShape
	// err says why the last read failed (outError), for ERROR ON ERROR.
	err string
}

// valueShape is what the names reader saw of a value while checking
// it, so the kernel converts the usual ones without looking again.
type valueShape byte

const (
	shapeOther       valueShape = iota
	shapePlainString            // a string without escapes
	shapeSmallInt               // 1 to 18 digits, no sign, fraction or exponent
)

// read reads p from doc.
func (r *reader) read(p *Path, doc string) outcome {
	r.shape = shapeOther
	if p.isSimple {
		var ok, found bool
		if p.names {
			ok, found = r.findNames(doc, p.steps)
		} else {
			ok, found = r.find(doc, p.steps)
		}
		switch {
		case !ok && p.lax:
			return outEmpty
		case !ok:
			r.err = "the input is not JSON"
			return outError
		case !found && p.lax:
			return outEmpty
		case !found:
			r.err = p.msgNoValue
			return outError
		case doc[r.value.start] == 'n':
			return outEmpty // a JSON null is no value
		}
		return outValue
	}
	if _, ok := validDoc(doc); !ok {
		if p.lax {
			return outEmpty
		}
		r.err = "the input is not JSON"
		return outError
	}
	if p.invalid != "" {
		r.err = "invalid JSON path " + quote(p.text) + ": " + p.invalid
		return outError
	}
	r.list, r.failed = r.list[:0], false
	r.walk(doc, skipWS(doc, 0), p.steps, true)
	if p.definite {
		if r.failed || len(r.list) == 0 {
			if p.lax {
				return outEmpty
			}
			r.err = p.msgNoValue
			return outError
		}
		r.value = r.list[0]
		if doc[r.value.start] == 'n' {
			return outEmpty // a JSON null is no value
		}
		return outValue
	}
	if r.failed {
		if p.lax {
			r.list = r.list[:0]
			return outList
		}
		r.err = p.msgNoValue
		return outError
	}
	return outList
}

func quote(s string) string { return "'" + s + "'" }

// walk applies steps to the value at doc[i]; definite says every step
// before was definite, so a failure fails the path.
func (r *reader) walk(doc string, i int, steps []step, definite bool) {
	if len(steps) == 0 {
		r.list = append(r.list, span{i, skipValue(doc, i)})
		return
	}
	st, rest := steps[0], steps[1:]
	switch st.kind {
	case stepName:
		if doc[i] != '{' {
			r.failed = r.failed || definite
			return
		}
		v := r.member(doc, i, st.name)
		if v < 0 {
			// A missing last name finds nothing; a missing name on
			// the way fails a definite path.
			r.failed = r.failed || (definite && len(rest) > 0)
			return
		}
		r.walk(doc, v, rest, definite)
	case stepIndex:
		if doc[i] != '[' {
			r.failed = r.failed || definite
			return
		}
		idx := st.index
		if idx < 0 {
			idx += r.length(doc, i)
		}
		if v := element(doc, i, idx); v >= 0 {
			r.walk(doc, v, rest, definite)
		}
	case stepWildcard:
		if doc[i] == '{' || doc[i] == '[' {
			forEach(doc, i, func(_ span, v int) { r.walk(doc, v, rest, false) })
		}
	case stepScan:
		r.scan(doc, i, st.name, rest)
	}
}

// scan is ..name: every value of name in the tree at doc[i], an object's
// own before its members' (Jayway's order).
func (r *reader) scan(doc string, i int, name string, rest []step) {
	switch doc[i] {
	case '{':
		if v := r.member(doc, i, name); v >= 0 {
			r.walk(doc, v, rest, false)
		}
	case '[':
	default:
		return
	}
	forEach(doc, i, func(_ span, v int) { r.scan(doc, v, name, rest) })
}

// member finds the value of key name in the object at doc[i] (-1: none).
// The last of duplicate keys wins, as in Jackson's map.
func (r *reader) member(doc string, i int, name string) int {
	found := -1
	forEach(doc, i, func(k span, v int) {
		if r.keyIs(doc[k.start+1:k.end-1], name) {
			found = v
		}
	})
	return found
}

// keyIs compares a key as written (escapes and all) with a name. An
// escape decodes to fewer bytes than it takes, so a key no longer than
// the name matches only as written.
func (r *reader) keyIs(raw, name string) bool {
	if len(raw) <= len(name) {
		// The first bytes settle most mismatches without a call.
		return len(raw) == len(name) && (len(raw) == 0 || raw[0] == name[0]) && raw == name
	}
	if strings.IndexByte(raw, '\\') < 0 {
		return false
	}
	r.scratch = appendUnescaped(r.scratch[:0], raw)
	return string(r.scratch) == name
}

// length is the number of elements of the array at doc[i].
func (r *reader) length(doc string, i int) int {
	n := 0
	forEach(doc, i, func(span, int) { n++ })
	return n
}

// element is the offset of element idx of the array at doc[i] (-1: none).
func element(doc string, i, idx int) int {
	if idx < 0 {
		return -1
	}
	found, n := -1, 0
	forEach(doc, i, func(_ span, v int) {
		if n == idx {
			found = v
		}
		n++
	})
	return found
}

// forEach calls f with each member of the object (its key's span, quotes
// included) or each element of the array (an empty key) at doc[i] of a
// valid document.
func forEach(doc string, i int, f func(key span, v int)) {
	obj := doc[i] == '{'
	i = skipWS(doc, i+1)
	if doc[i] == '}' || doc[i] == ']' {
		return
	}
	for {
		var k span
		if obj {
			k = span{i, skipString(doc, i)}
			i = skipWS(doc, k.end) + 1 // past ':'
			i = skipWS(doc, i)
		}
		end := skipValue(doc, i)
		f(k, i)
		i = skipWS(doc, end)
		if doc[i] != ',' {
			return
		}
		i = skipWS(doc, i+1)
	}
}

// appendUnescaped appends the JSON string body raw (no quotes) decoded.
func appendUnescaped(dst []byte, raw string) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := rune(hex4(raw[i+1 : i+5]))
			i += 4
			if utf16.IsSurrogate(r) && i+7 <= len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2 := rune(hex4(raw[i+3 : i+7])); utf16.DecodeRune(r, r2) != utf8.RuneError {
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // " \ /
			dst = append(dst, raw[i])
		}
	}
	return dst
}

func hex4(s string) int {
	n := 0
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		n = n<<4 | int(c)
	}
	return n
}
