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
