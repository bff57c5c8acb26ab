package driver

import (
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// bindArgs replaces the ? placeholders of query with args written as SQL
// literals. A ? inside a 'string', a `quoted name` or a comment is text,
// not a placeholder: the scan follows the rules of wsql's lexer (doubled
// quotes, no backslash escapes), so a string argument cannot end its
// literal early. Without args the text is left as it is.
func bindArgs(query string, args []sqldriver.NamedValue) (string, error) {
	if len(args) == 0 {
		return query, nil
	}
	for _, a := range args {
		if a.Name != "" {
			return "", fmt.Errorf("wsql: named argument %q: wsql takes positional ? arguments only", a.Name)
		}
	}
	var b strings.Builder
	b.Grow(len(query) + 16*len(args))
	n, last := 0, 0
	for i := 0; i < len(query); {
		c := query[i]
		switch {
		case c == '\'' || c == '`':
			i = skipQuotedArg(query, i)
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			if nl := strings.IndexByte(query[i:], '\n'); nl >= 0 {
				i += nl + 1
			} else {
				i = len(query)
			}
		case c == '/' && strings.HasPrefix(query[i:], "/*"):
			if end := strings.Index(query[i+2:], "*/"); end >= 0 {
				i += 2 + end + 2
			} else {
				i = len(query) // the lexer reports the open comment
			}
		case c == '?':
			if n == len(args) {
				return "", fmt.Errorf("wsql: the text has more ? placeholders than the %d arguments given", len(args))
			}
			lit, err := argLiteral(args[n].Value)
			if err != nil {
				return "", fmt.Errorf("wsql: argument %d: %w", n+1, err)
			}
			b.WriteString(query[last:i])
			// Spaces keep the literal from joining a neighbour into
			// another token: x-? with -1 must not become the comment x--1.
			if i > 0 && !argSeparates(query[i-1]) {
				b.WriteByte(' ')
			}
			b.WriteString(lit)
			if i+1 < len(query) && !argSeparates(query[i+1]) {
				b.WriteByte(' ')
			}
			n++
			i++
			last = i
		default:
			i++
		}
	}
	if n < len(args) {
		return "", fmt.Errorf("wsql: %d arguments given for %d ? placeholders", len(args), n)
	}
	b.WriteString(query[last:])
	return b.String(), nil
}

// skipQuotedArg returns the offset after the quoted text starting at i, or
// the end of query if it is not closed (the lexer then reports it).
func skipQuotedArg(query string, i int) int {
	q := query[i]
	for j := i + 1; j < len(query); j++ {
		if query[j] != q {
			continue
		}
		if j+1 < len(query) && query[j+1] == q {
			j++ // a doubled quote is a quote inside
			continue
		}
		return j + 1
	}
	return len(query)
}

// argSeparates tells whether c can stand next to a literal without joining it.
func argSeparates(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '(', ')', ',', ';':
		return true
	}
	return false
}

// literal writes one argument, as database/sql converted it, as a SQL
// literal wsql types the way Go does: int64 → BIGINT-range integer,
// float64 → DOUBLE (an exponent makes it approximate, not DECIMAL), bool,
// string, time.Time → TIMESTAMP (its UTC wall clock), nil → NULL.
func argLiteral(v sqldriver.Value) (string, error) {
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case int64:
		if v == math.MinInt64 {
			// its magnitude is no BIGINT literal
			return "(-9223372036854775807 - 1)", nil
		}
		return strconv.FormatInt(v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "", fmt.Errorf("%v has no SQL literal", v)
		}
		return strconv.FormatFloat(v, 'E', -1, 64), nil
	case bool:
		if v {
			return "TRUE", nil
		}
		return "FALSE", nil
	case string:
		return quote(v), nil
	case time.Time:
		t := v.UTC()
		if t.Nanosecond()%int(time.Millisecond) != 0 {
			return "", errors.New("wsql keeps timestamps in milliseconds; truncate the time.Time to milliseconds")
		}
		if t.Year() < 0 || t.Year() > 9999 {
			return "", fmt.Errorf("year %d is out of TIMESTAMP's range", t.Year())
		}
		return "TIMESTAMP '" + t.Format("2006-01-02 15:04:05.000") + "'", nil
	case []byte:
		return "", errors.New("[]byte: wsql has no binary type; pass a string")
	}
	return "", fmt.Errorf("type %T is not supported", v)
}
