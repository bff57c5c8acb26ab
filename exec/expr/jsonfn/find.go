package jsonfn

// The common path, definite with names and indexes from the start, is
// read in the same single pass that validates the document: the scanner
// carries the steps still to match down the branch that matches them.

// simple reports a path find reads: definite, no index from the end.
func (p *Path) simple() bool {
	if !p.definite || p.invalid != "" {
		return false
	}
	for _, st := range p.steps {
		if st.kind == stepIndex && st.index < 0 {
			return false
		}
	}
	return true
}

// find validates doc and finds the value of the simple path steps: ok is
// false for a document that is not JSON; found is false when the path
// finds nothing (r.value holds the value otherwise).
func (r *reader) find(doc string, steps []step) (ok, found bool) {
	r.found, r.failed = false, false
	i := skipWS(doc, 0)
	if i == len(doc) {
		return false, false
	}
	end, ok := r.findValue(doc, i, 0, steps, true)
	if !ok || skipWS(doc, end) != len(doc) {
		return false, false
	}
	return true, r.found && !r.failed
}

// findValue validates the value at doc[i] like validValue; on says it is
// on the path, with steps still to match.
func (r *reader) findValue(doc string, i, depth int, steps []step, on bool) (int, bool) {
	if on && len(steps) == 0 {
		end, ok := validValue(doc, i, depth)
		r.value, r.found, r.failed = span{i, end}, true, false
		return end, ok
	}
	if i >= len(doc) {
		return i, false
	}
	switch doc[i] {
	case '{':
		if depth >= maxDepth {
			return i, false
		}
		want := on && steps[0].kind == stepName
		if on && !want {
			r.failed = true // an index of an object
		}
		matched := false
		i = skipWS(doc, i+1)
		if i < len(doc) && doc[i] == '}' {
			if want && len(steps) > 1 {
				r.failed = true
			}
			return i + 1, true
		}
		for {
			if i >= len(doc) || doc[i] != '"' {
				return i, false
			}
			k := i
			var ok bool
			if i, ok = validString(doc, i); !ok {
				return i, false
			}
			hit := want && r.keyIs(doc[k+1:i-1], steps[0].name)
			i = skipWS(doc, i)
			if i >= len(doc) || doc[i] != ':' {
				return i, false
			}
			if hit {
				// A later duplicate key replaces what an earlier one found.
				matched, r.found, r.failed = true, false, false
				i, ok = r.findValue(doc, skipWS(doc, i+1), depth+1, steps[1:], true)
			} else {
				i, ok = validValue(doc, skipWS(doc, i+1), depth+1)
			}
			if !ok {
				return i, false
			}
			i = skipWS(doc, i)
			if i >= len(doc) {
				return i, false
			}
			if doc[i] == '}' {
				if want && !matched && len(steps) > 1 {
					r.failed = true // a missing name on the way
				}
				return i + 1, true
			}
			if doc[i] != ',' {
				return i, false
			}
			i = skipWS(doc, i+1)
		}
	case '[':
		if depth >= maxDepth {
			return i, false
		}
		want := on && steps[0].kind == stepIndex
		if on && !want {
			r.failed = true // a name of an array
		}
		i = skipWS(doc, i+1)
		if i < len(doc) && doc[i] == ']' {
			return i + 1, true
		}
		for n := 0; ; n++ {
			var ok bool
			if want && n == steps[0].index {
				i, ok = r.findValue(doc, i, depth+1, steps[1:], true)
			} else {
				i, ok = validValue(doc, i, depth+1)
			}
			if !ok {
				return i, false
			}
			i = skipWS(doc, i)
			if i >= len(doc) {
				return i, false
			}
			if doc[i] == ']' {
				return i + 1, true
			}
			if doc[i] != ',' {
				return i, false
			}
			i = skipWS(doc, i+1)
		}
	}
	if on {
		r.failed = true // a step into a scalar
	}
	return validValue(doc, i, depth)
}

// findNames is find for a path of names only ($.b, $.user.id), the
// most common paths: each object on the way is read by one loop over its
// members, the value at the last name kept (the last one of duplicate
// names, as find). What it does not settle, a document that is not an
// object or a name written with escapes, goes to find.
func (r *reader) findNames(doc string, steps []step) (ok, found bool) {
	i := skipWS(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return r.find(doc, steps)
	}
	end, res := r.namesIn(doc, i, 0, steps)
	switch res {
	case namesInvalid:
		return false, false
	case namesFallback:
		r.shape = shapeOther
		return r.find(doc, steps)
	}
	return skipWS(doc, end) == len(doc), res == namesFound
}

// namesResult is what namesIn found in an object.
type namesResult byte

const (
	namesInvalid  namesResult = iota // the document is not JSON
	namesMissing                     // valid, and the path finds nothing
	namesFound                       // valid, the value in r.value
	namesFallback                    // a name with escapes: find reads the document
)

// namesIn reads the object at doc[i] ('{'), at depth, for steps; it
// returns the offset after the object.
func (r *reader) namesIn(doc string, i, depth int, steps []step) (int, namesResult) {
	if depth >= maxDepth {
		return i, namesInvalid
	}
	name, last := steps[0].name, len(steps) == 1
	res := namesMissing
	i = skipWS(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return i + 1, res
	}
	for {
		if i >= len(doc) || doc[i] != '"' {
			return i, namesInvalid
		}
		k := i + 1
		j := k
		for j < len(doc) && plainByte[doc[j]] {
			j++
		}
		if j >= len(doc) {
			return j, namesInvalid
		}
		if doc[j] != '"' {
			if doc[j] == '\\' {
				return j, namesFallback
			}
			return j, namesInvalid // a control character
		}
		// The first byte settles most mismatches without a call.
		hit := j-k == len(name) && (j == k || doc[k] == name[0] && doc[k+1:j] == name[1:])
		i = skipWS(doc, j+1)
		if i >= len(doc) || doc[i] != ':' {
			return i, namesInvalid
		}
		i = skipWS(doc, i+1)
		start := i
		if i >= len(doc) {
			return i, namesInvalid
		}
		var ok bool
		shape := shapeOther
		// The usual scalars are checked here, the rest by validValue.
		switch c := doc[i]; {
		case hit && !last && c == '{':
			var sub namesResult
			if i, sub = r.namesIn(doc, i, depth+1, steps[1:]); sub == namesInvalid || sub == namesFallback {
				return i, sub
			}
			res = sub // a later duplicate name replaces what an earlier one found
			hit = false
		case c == '"':
			for i++; i < len(doc) && plainByte[doc[i]]; i++ {
			}
			if i < len(doc) && doc[i] == '"' {
				i++
				shape = shapePlainString
			} else if i, ok = validString(doc, start); !ok {
				return i, namesInvalid
			}
		case c >= '1' && c <= '9':
			for i++; i < len(doc) && isDigit(doc[i]); i++ {
			}
			if i < len(doc) && !numberEnd[doc[i]] {
				if i, ok = validNumber(doc, start); !ok {
					return i, namesInvalid
				}
			} else if i-start <= 18 {
				shape = shapeSmallInt
			}
		default:
			if i, ok = validValue(doc, i, depth+1); !ok {
				return i, namesInvalid
			}
		}
		if hit {
			if last {
				r.value, r.shape, res = span{start, i}, shape, namesFound
			} else {
				res = namesMissing // a step into a scalar or an array
			}
		}
		i = skipWS(doc, i)
		if i >= len(doc) {
			return i, namesInvalid
		}
		if doc[i] == '}' {
			return i + 1, res
		}
		if doc[i] != ',' {
			return i, namesInvalid
		}
		i = skipWS(doc, i+1)
	}
}

// numberEnd marks the bytes that end an integer as validNumber reads it:
// whitespace and the separators , } ].
var numberEnd = func() (t [256]bool) {
	for _, c := range " \t\r\n,}]" {
		t[c] = true
	}
	return t
}()
