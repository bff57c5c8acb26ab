package jsonfn

// A document is read as Jackson reads it into Flink's tree: one JSON value
// (RFC 8259: no comments, single quotes, NaN or leading zeros), with
// whitespace around it. Unlike Jackson, text after the value makes the
// document invalid: '{} x' is not JSON.

// maxDepth is how deep arrays and objects may nest, Jackson's default
// limit (StreamReadConstraints).
const maxDepth = 1000

// Kinds of JSON values.
const (
	kindNone byte = iota
	kindObject
	kindArray
	kindString
	kindNumber
	kindTrue
	kindFalse
	kindNull
)

// validDoc reports whether s is one JSON value, and its kind.
func validDoc(s string) (byte, bool) {
	i := skipWS(s, 0)
	if i == len(s) {
		return kindNone, false
	}
	kind := kindOf(s[i])
	end, ok := validValue(s, i, 0)
	if !ok || skipWS(s, end) != len(s) {
		return kindNone, false
	}
	return kind, true
}

func kindOf(c byte) byte {
	switch c {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't':
		return kindTrue
	case 'f':
		return kindFalse
	case 'n':
		return kindNull
	}
	return kindNumber
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(s string, i int) int {
	// Every token byte is above ' ': one compare settles most calls.
	for i < len(s) && s[i] <= ' ' && isWS(s[i]) {
		i++
	}
	return i
}

// validValue checks the value starting at s[i] (no whitespace before it)
// and returns the offset after it.
func validValue(s string, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		return validString(s, i)
	case c == '{':
		if depth >= maxDepth {
			return i, false
		}
		i = skipWS(s, i+1)
		if i < len(s) && s[i] == '}' {
			return i + 1, true
		}
		for {
			if i >= len(s) || s[i] != '"' {
				return i, false
			}
			var ok bool
			if i, ok = validString(s, i); !ok {
				return i, false
			}
			i = skipWS(s, i)
			if i >= len(s) || s[i] != ':' {
				return i, false
			}
			if i, ok = validValue(s, skipWS(s, i+1), depth+1); !ok {
				return i, false
			}
			i = skipWS(s, i)
			if i >= len(s) {
				return i, false
			}
			if s[i] == '}' {
				return i + 1, true
			}
			if s[i] != ',' {
				return i, false
			}
			i = skipWS(s, i+1)
		}
	case c == '[':
		if depth >= maxDepth {
			return i, false
		}
		i = skipWS(s, i+1)
		if i < len(s) && s[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = validValue(s, i, depth+1); !ok {
				return i, false
			}
			i = skipWS(s, i)
			if i >= len(s) {
				return i, false
			}
			if s[i] == ']' {
				return i + 1, true
			}
			if s[i] != ',' {
				return i, false
			}
			i = skipWS(s, i+1)
		}
	case c == 't':
		return literal(s, i, "true")
	case c == 'f':
		return literal(s, i, "false")
	case c == 'n':
		return literal(s, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return validNumber(s, i)
	}
	return i, false
}

func literal(s string, i int, word string) (int, bool) {
	if len(s)-i >= len(word) && s[i:i+len(word)] == word {
		return i + len(word), true
	}
	return i, false
}

// plainByte marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// validString checks the string starting at the quote s[i].
func validString(s string, i int) (int, bool) {
	i++
	for i < len(s) {
		for i < len(s) && plainByte[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 >= len(s) {
				return i, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		default:
			return i, false // control characters must be escaped
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// validNumber checks a number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
func validNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && isDigit(s[i]):
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	// Jackson needs a separator after a number: 01 and 1x are errors.
	if i < len(s) && (isDigit(s[i]) || s[i] == '.' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) {
		return i, false
	}
	return i, true
}

// skipValue returns the end of the value at s[i] of a valid document.
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(s) && s[i] != ',' && s[i] != '}' && s[i] != ']' && !isWS(s[i]) {
		i++
	}
	return i
}

// skipString returns the end of the string at the quote s[i] of a valid
// document.
func skipString(s string, i int) int {
	i++
	for i < len(s) {
		switch s[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return i
}
