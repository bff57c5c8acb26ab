package sql

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer reads the user's original text once. Its tokens drive statement
// splitting, the Flink rewrites and, after TiDB has parsed, the recovery of
// node positions; comments and string contents are never rewritten, so a
// `TUMBLE(` inside a string or a comment stays text.

type tokenKind int

const (
	tokIdent       tokenKind = iota + 1 // unquoted identifier or keyword
	tokQuotedIdent                      // `name`
	tokNumber
	tokString    // 'text'
	tokOp        // operator or punctuation
	tokHintStart // /*+, which opens a hint (hints.go)
	tokHintEnd   // the */ that closes a hint
)

// token is one lexeme: its exact original text and byte span.
type token struct {
	kind  tokenKind
	text  string
	off   int // byte offset of the first byte
	end   int // byte offset after the last byte
	pos   Pos // of the first character
	endAt Pos // right after the last character
}

// is reports whether t is the unquoted word w (case-insensitive), so a
// back-quoted `select` is never mistaken for the keyword.
func (t token) is(w string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, w) }

// isOp reports whether t is the operator or punctuation op.
func (t token) isOp(op string) bool { return t.kind == tokOp && t.text == op }

// isName reports whether t can name a column or table.
func (t token) isName() bool { return t.kind == tokIdent || t.kind == tokQuotedIdent }

// value returns the token's meaning: the content of a string or a quoted
// name with the doubled quotes undone, and the text otherwise.
func (t token) value() string {
	switch t.kind {
	case tokString:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "''", "'")
	case tokQuotedIdent:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "``", "`")
	}
	return t.text
}

// source is the user's text with an index of line starts and of runes
// before every 64-byte block, so any byte offset converts to a Pos in
// time independent of the line's length (a plan asks for thousands of
// positions on one long line).
type source struct {
	text       string
	lineStarts []int
	blockRunes []int // runes in text[:64*i]
	// hints are the table hints of the statement being parsed, by the
	// offset of the table reference they follow (hints.go).
	hints map[int]*pendingHint
	// hintsEnd is where the statement's last hint comment ends.
	hintsEnd int
}

// runeBlock is the byte stride of source.blockRunes.
const runeBlock = 64

func newSource(text string) *source {
	s := &source{text: text, lineStarts: []int{0}, blockRunes: make([]int, 0, len(text)/runeBlock+1)}
	runes := 0
	for i := 0; i < len(text); i++ {
		if i%runeBlock == 0 {
			s.blockRunes = append(s.blockRunes, runes)
		}
		c := text[i]
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
		if !utf8.RuneStart(c) {
			continue
		}
		runes++
	}
	return s
}

// runesBefore counts the runes (bytes that start one) in text[:off].
func (s *source) runesBefore(off int) int {
	b := off / runeBlock
	if b >= len(s.blockRunes) {
		b = len(s.blockRunes) - 1
	}
	if b < 0 {
		return 0
	}
	n := s.blockRunes[b]
	for i := b * runeBlock; i < off; i++ {
		if utf8.RuneStart(s.text[i]) {
			n++
		}
	}
	return n
}

// pos converts a byte offset to a position; columns count runes.
func (s *source) pos(off int) Pos {
	off = max(0, min(off, len(s.text)))
	line := sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > off }) - 1
	col := s.runesBefore(off) - s.runesBefore(s.lineStarts[line]) + 1
	return Pos{Offset: off, Line: line + 1, Col: col}
}

// advance moves position p forward to offset off, counting lines and
// runes on the way; the lexer tracks positions with it in linear time.
func (s *source) advance(p Pos, off int) Pos {
	for _, r := range s.text[p.Offset:off] {
		if r == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	p.Offset = off
	return p
}

// lex splits the whole source into tokens, skipping white space and
// comments. It stops at the first malformed lexeme.
func lex(src *source) ([]token, *Error) {
	text := src.text
	if !utf8.ValidString(text) {
		// TiDB turns invalid bytes in names into '?', so they would not
		// survive; Flink's Java strings cannot hold them either.
		i := 0
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return nil, Errorf(ErrSyntax, src.pos(i), "the text is not valid UTF-8")
	}
	var toks []token
	at := Pos{Offset: 0, Line: 1, Col: 1}
	i := 0
	hintAt := -1 // the offset of the open hint's /*+, or -1
	for i < len(text) {
		c := text[i]
		start := i
		switch {
		case hintAt >= 0 && strings.HasPrefix(text[i:], "*/"):
			i += 2
			hintAt = -1
			toks = append(toks, token{kind: tokHintEnd, off: start, end: i})
		case hintAt < 0 && strings.HasPrefix(text[i:], "/*+"):
			// A hint's content is SQL, read into tokens as any other.
			i += 3
			hintAt = start
			toks = append(toks, token{kind: tokHintStart, off: start, end: i})
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			if nl := strings.IndexByte(text[i:], '\n'); nl >= 0 {
				i += nl + 1
			} else {
				i = len(text)
			}
			continue
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			n := strings.Index(text[i+2:], "*/")
			if n < 0 {
				return nil, Errorf(ErrSyntax, src.pos(i), "comment is not closed: missing */")
			}
			i += 2 + n + 2
			continue
		case c == '\'':
			end, ok := closeQuote(text, i, '\'')
			if !ok {
				return nil, Errorf(ErrSyntax, src.pos(i), "string is not closed: missing '")
			}
			i = end
			toks = append(toks, token{kind: tokString, off: start, end: i})
		case c == '`':
			end, ok := closeQuote(text, i, '`')
			if !ok {
				return nil, Errorf(ErrSyntax, src.pos(i), "quoted name is not closed: missing `")
			}
			if end == i+2 {
				return nil, Errorf(ErrSyntax, src.pos(i), "empty quoted name")
			}
			i = end
			toks = append(toks, token{kind: tokQuotedIdent, off: start, end: i})
		case c == '"':
			return nil, Errorf(ErrSyntax, src.pos(i), "double quotes are not allowed: write strings in 'single quotes' and names in `back-quotes`")
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			i = scanNumber(text, i)
			if i < len(text) && isIdentPart(text, i) {
				// MySQL reads 0x1F as hex and 1a as a name; Flink reads neither.
				r, _ := utf8.DecodeRuneInString(text[i:])
				return nil, Errorf(ErrSyntax, src.pos(i), "unexpected %q right after the number %s; put a space between them", r, text[start:i])
			}
			toks = append(toks, token{kind: tokNumber, off: start, end: i})
		case isIdentStart(text, i):
			for i < len(text) && isIdentPart(text, i) {
				_, n := utf8.DecodeRuneInString(text[i:])
				i += n
			}
			toks = append(toks, token{kind: tokIdent, off: start, end: i})
		default:
			op := scanOp(text[i:])
			if op == "" {
				r, _ := utf8.DecodeRuneInString(text[i:])
				return nil, Errorf(ErrSyntax, src.pos(i), "unexpected character %q", r)
			}
			i += len(op)
			toks = append(toks, token{kind: tokOp, off: start, end: i})
		}
		t := &toks[len(toks)-1]
		t.text = text[t.off:t.end]
		t.pos = src.advance(at, t.off)
		t.endAt = src.advance(t.pos, t.end)
		at = t.endAt
	}
	if hintAt >= 0 {
		return nil, Errorf(ErrSyntax, src.pos(hintAt), "hint is not closed: missing */")
	}
	return toks, nil
}

// closeQuote returns the offset after the quote closing the one at i; a
// doubled quote inside is an escaped quote, as in SQL.
func closeQuote(text string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(text); j++ {
		if text[j] != q {
			continue
		}
		if j+1 < len(text) && text[j+1] == q {
			j++
			continue
		}
		return j + 1, true
	}
	return 0, false
}

func scanNumber(text string, i int) int {
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	if i < len(text) && text[i] == '.' {
		i++
		for i < len(text) && isDigit(text[i]) {
			i++
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		j := i + 1
		if j < len(text) && (text[j] == '+' || text[j] == '-') {
			j++
		}
		if j < len(text) && isDigit(text[j]) {
			for j < len(text) && isDigit(text[j]) {
				j++
			}
			i = j
		}
	}
	return i
}

// ops lists the operators Flink SQL uses, longest first. Characters outside
// this list (#, @, ", \ ...) are rejected here because MySQL gives some of
// them a meaning (# starts a comment) that Flink does not. => names an
// argument of a window table-valued function (SIZE => ...).
var ops = []string{"<>", "<=", ">=", "!=", "||", "=>", "(", ")", ",", ".", ";", "+", "-", "*", "/", "%", "=", "<", ">", "?", "[", "]", ":"}

func scanOp(s string) string {
	for _, op := range ops {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r == '_' || unicode.IsLetter(r)
}

func isIdentPart(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
