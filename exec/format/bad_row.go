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
	Hint   string // what to change, for a common mistake (see parse_hints.go); may be empty
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
	if e.Hint != "" {
		b.WriteString(". ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrBadRow) true for every parse error.
func (e *ParseError) Unwrap() error { return ErrBadRow }

// badRows is the rule for bad rows that the CSV and JSON decoders share,
// and the count the parallel decoder keeps: without ignore-parse-errors a
// bad row stops the read (the rows before it are handed out first, and
// the read stands at the row's start); with it the row is skipped,
// counted and reported to onBad.
type badRows struct {
	ignore  bool
	onBad   func(*ParseError, []byte)
	skipped int64
	// stopAt is where a read stopped by a bad row stands: at that row's
	// start, so resuming there fails the same way (see Position).
	stopAt *SplitPosition
}

// row handles the bad row perr, whose text raw starts at byte at of the
// input on line line: it returns perr when the row stops the read, or nil
// when the row was skipped.
func (b *badRows) row(perr *ParseError, raw []byte, at int64, line int) error {
	if !b.ignore {
		b.stopAt = &SplitPosition{Offset: at, Line: line - 1, Skipped: b.skipped, Started: at > 0}
		return perr
	}
	b.skip(perr, raw)
	return nil
}

// skip counts a skipped bad row and reports it.
func (b *badRows) skip(perr *ParseError, raw []byte) {
	b.skipped++
	if b.onBad != nil {
		b.onBad(perr, raw)
	}
}
