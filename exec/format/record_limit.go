package format

import (
	"errors"
	"fmt"
	"io"
)

// DefaultMaxRecordBytes is the default of 'wsql.max-record-bytes': the
// longest record (CSV) or line (JSON) a decoder reads, its line end
// included. A longer one is a bad row, so input without line ends (a
// binary file, an unclosed quote) cannot make a decoder buffer it all.
const DefaultMaxRecordBytes = 64 << 20

// recordLimit is the limit a decoder applies for a MaxRecordBytes option.
func recordLimit(n int) int {
	if n <= 0 {
		return DefaultMaxRecordBytes
	}
	return n
}

// errRecordTooLong is what readBuffer.fill returns when the record it was
// asked to complete is already longer than the limit.
var errRecordTooLong = errors.New("record too long")

// recordTooLong is the message of the bad row an over-long record is;
// what is "record" (CSV) or "line" (JSON).
func recordTooLong(limit int, what string) string {
	return fmt.Sprintf("%s longer than %d bytes ('wsql.max-record-bytes'): look for a missing line end or an unclosed quote, or raise the setting", what, limit)
}

// recordSkip finds the end of a record without holding it: fed the record
// a piece at a time, it follows the CSV grammar parseRecord applies
// (quoted fields hold line ends; "" is an escaped quote; text after a
// closing quote runs to the next delimiter or line end), or just looks for
// the '\n' of a JSON line or the line end of a CSV comment.
type recordSkip struct {
	state skipState
	delim byte
	quote byte
	cr    bool  // the last byte was a '\r' (one line end with a '\n' after it)
	lines int   // line ends passed, the record's own included
	n     int64 // bytes passed
	ended bool  // the record ended with a line end (not at the end of input)
}

type skipState uint8

const (
	skipField    skipState = iota // at the start of a CSV field
	skipUnquoted                  // in an unquoted field
	skipQuoted                    // in a quoted field
	skipQuote                     // just after a quote inside a quoted field
	skipTrailing                  // in text after a closing quote
	skipLine                      // in a CSV comment line: to its line end
	skipLF                        // in a JSON line: to its '\n'
	skipEnd                       // after a '\r' that ended the record
)

// scan passes b's bytes up to the record's end and reports how many it
// took and whether the record ended (also at the end of input).
func (s *recordSkip) scan(b []byte, atEOF bool) (int, bool) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if s.cr {
			s.cr = false
			if c == '\n' {
				if s.state == skipEnd {
					s.n += int64(i + 1)
					s.ended = true
					return i + 1, true
				}
				continue // "\r\n" in a quoted field: counted at the '\r'
			}
		}
		if s.state == skipEnd {
			s.n += int64(i)
			s.ended = true
			return i, true
		}
		switch {
		case c == '\n':
			s.lines++
			if s.state != skipQuoted {
				s.n += int64(i + 1)
				s.ended = true
				return i + 1, true
			}
			continue
		case c == '\r' && s.state != skipLF:
			s.lines++
			s.cr = true
			if s.state != skipQuoted {
				s.state = skipEnd
			}
			continue
		}
		switch s.state {
		case skipField:
			switch c {
			case s.quote:
				s.state = skipQuoted
			case s.delim:
			default:
				s.state = skipUnquoted
			}
		case skipUnquoted, skipTrailing:
			if c == s.delim {
				s.state = skipField
			}
		case skipQuoted:
			if c == s.quote {
				s.state = skipQuote
			}
		case skipQuote:
			switch c {
			case s.quote:
				s.state = skipQuoted
			case s.delim:
				s.state = skipField
			default:
				s.state = skipTrailing
			}
		}
	}
	s.n += int64(len(b))
	if atEOF {
		s.ended = s.state == skipEnd
		return len(b), true
	}
	return len(b), false
}

// skipRecord passes the record at buf[pos:] to its end as s finds it,
// reading on into the buffer without growing it. It returns ErrNoData
// when a followed file has nothing more yet: call it again to go on.
func (b *readBuffer) skipRecord(s *recordSkip) error {
	zero := 0
	for {
		k, done := s.scan(b.buf[b.pos:b.end], b.eof)
		b.pos += k
		if done {
			b.line += s.lines
			b.partial = b.partial || !s.ended
			return nil
		}
		b.base += int64(b.end) // all of the buffer is behind
		b.pos, b.end = 0, 0
		n, err := b.r.Read(b.buf)
		b.end = n
		switch {
		case err == io.EOF:
			b.eof = true
		case err == ErrNoData:
			return err
		case err != nil:
			return fmt.Errorf("%s: %w", b.source, err)
		case n == 0:
			if zero++; zero > 100 {
				return fmt.Errorf("%s: %w", b.source, io.ErrNoProgress)
			}
		}
	}
}
