package format

import (
	"errors"
	"strconv"
	"strings"
)

// ErrBadRow is what every ParseError unwraps to, so callers can tell bad
// input apart from I/O failures with errors.Is.
var ErrBadRow = errors.New("bad input row")

// ParseError describes a malformed input row: where it is and what is wrong.
type ParseError struct {
	Source string // file name or other label of the input
	Line   int    // 1-based physical line where the record starts
	Column int    // 1-based field number; 0 when the error is not about one field
	Field  string // column name, when the field maps to a column
	Value  string // the offending field text (capped), if any
	Type   string // SQL type the value was parsed as; empty if not a conversion error
	Msg    string // what is wrong
}

func (e *ParseError) Error() string {
	var b strings.Builder
	src := e.Source
	if src == "" {
		src = "input"
	}
	b.WriteString(src)
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Line))
	if e.Column > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Column))
	}
	if e.Field != "" {
		b.WriteString(" (column ")
		b.WriteString(e.Field)
		b.WriteByte(')')
	}
	b.WriteString(": ")
	if e.Type != "" {
		b.WriteString("cannot parse ")
		b.WriteString(strconv.Quote(e.Value))
		b.WriteString(" as ")
		b.WriteString(e.Type)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrBadRow) true for every parse error.
func (e *ParseError) Unwrap() error { return ErrBadRow }
