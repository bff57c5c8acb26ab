package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Like is X LIKE 'pattern' [ESCAPE 'c'] with a constant pattern compiled
// once: % matches any run of characters, _ exactly one character (a code
// point), the escape character makes the next %, _ or itself literal.
// Matching is case-sensitive, as in Flink. NOT LIKE is Not over it.
type Like struct {
	X       Expr
	Pattern string
	Escape  rune // -1 when there is none

	kind  likeKind
	lit   string     // prefix, suffix, contains and exact forms
	items []likeItem // the general form
}

type likeKind int

const (
	likeExact likeKind = iota
	likePrefix
	likeSuffix
	likeContains
	likeAny // "%": every non-NULL string
	likeGeneral
)

type likeItem struct {
	kind byte // 'c' a character, '_' one character, '%' any run
	r    rune
}

// NewLike compiles the pattern. An escape character followed by anything
// but %, _ or itself is an error, as in Flink.
func NewLike(x Expr, pattern string, escape rune) (*Like, error) {
	e := &Like{X: x, Pattern: pattern, Escape: escape}
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		i += size
		switch {
		case escape >= 0 && r == escape:
			if i >= len(pattern) {
				return nil, fmt.Errorf("invalid escape sequence in LIKE pattern %q: it ends with the escape character", pattern)
			}
			next, size := utf8.DecodeRuneInString(pattern[i:])
			if next != '%' && next != '_' && next != escape {
				return nil, fmt.Errorf("invalid escape sequence in LIKE pattern %q: %c%c", pattern, r, next)
			}
			i += size
			e.items = append(e.items, likeItem{kind: 'c', r: next})
		case r == '%':
			if k := len(e.items); k == 0 || e.items[k-1].kind != '%' {
				e.items = append(e.items, likeItem{kind: '%'})
			}
		case r == '_':
			e.items = append(e.items, likeItem{kind: '_'})
		default:
			e.items = append(e.items, likeItem{kind: 'c', r: r})
		}
	}
	e.classify()
	return e, nil
}

// classify finds the forms that need no general matcher: 'abc', 'abc%',
// '%abc', '%abc%' and '%'.
func (e *Like) classify() {
	e.kind = likeGeneral
	items := e.items
	lead := len(items) > 0 && items[0].kind == '%'
	if lead {
		items = items[1:]
	}
	trail := len(items) > 0 && items[len(items)-1].kind == '%'
	if trail {
		items = items[:len(items)-1]
	}
	var b strings.Builder
	for _, it := range items {
		if it.kind != 'c' {
			return
		}
		b.WriteRune(it.r)
	}
	e.lit = b.String()
	switch {
	case lead && e.lit == "":
		e.kind = likeAny
	case lead && trail:
		e.kind = likeContains
	case lead:
		e.kind = likeSuffix
	case trail:
		e.kind = likePrefix
	default:
		e.kind = likeExact
	}
}

func (e *Like) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *Like) children() []Expr         { return []Expr{e.X} }

func (e *Like) String() string {
	if e.Escape >= 0 {
		return fmt.Sprintf("%s LIKE '%s' ESCAPE '%c'", e.X, e.Pattern, e.Escape)
	}
	return fmt.Sprintf("%s LIKE '%s'", e.X, e.Pattern)
}

func (e *Like) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	s, ok := x.(*array.String)
	if !ok {
		return nil, fmt.Errorf("LIKE over %s is not supported", x.DataType())
	}
	n := s.Len()
	vals := make([]byte, (n+7)/8)
	for i := range n {
		if e.match(s.Value(i)) {
			vals[i>>3] |= 1 << (i & 7)
		}
	}
	valid := make([]byte, len(vals))
	copyValidity(valid, x)
	return newBool(mem, n, vals, valid), nil
}

func (e *Like) match(s string) bool {
	switch e.kind {
	case likeExact:
		return s == e.lit
	case likePrefix:
		return strings.HasPrefix(s, e.lit)
	case likeSuffix:
		return strings.HasSuffix(s, e.lit)
	case likeContains:
		return strings.Contains(s, e.lit)
	case likeAny:
		return true
	}
	return matchLike(e.items, s)
}

// matchLike is the greedy wildcard match with one backtrack point (the last
// %), linear in practice and O(len(s)·len(items)) at worst.
func matchLike(items []likeItem, s string) bool {
	p, i := 0, 0
	star, starI := -1, 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case p < len(items) && (items[p].kind == '_' || items[p].kind == 'c' && items[p].r == r):
			p++
			i += size
		case p < len(items) && items[p].kind == '%':
			star, starI = p, i
			p++
		case star >= 0:
			_, size := utf8.DecodeRuneInString(s[starI:])
			starI += size
			p, i = star+1, starI
		default:
			return false
		}
	}
	for p < len(items) && items[p].kind == '%' {
		p++
	}
	return p == len(items)
}
