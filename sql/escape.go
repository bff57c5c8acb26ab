package sql

import (
	"strings"
	"unicode/utf8"
)

// TiDB keeps only the byte of a LIKE's ESCAPE literal, not the literal or
// where it was. The rewriter therefore replaces the k-th ESCAPE literal of
// a statement with the one-byte string escapeMarkers[k] and keeps the
// user's literal in rewritten.escapes; the lifter maps TiDB's byte back.

const escapeMarkers = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// isEscapeClause reports whether toks[i] is the ESCAPE of a LIKE: followed
// by a string and after the end of a pattern, so `SELECT escape 'x'` (a
// column with a string alias) is left alone.
func isEscapeClause(toks []token, i int) bool {
	if !toks[i].is("ESCAPE") || i == 0 || i+1 >= len(toks) || toks[i+1].kind != tokString {
		return false
	}
	prev := toks[i-1]
	switch {
	case prev.kind == tokOp:
		return prev.isOp(")")
	case prev.is("SELECT"), prev.is("DISTINCT"), prev.is("ALL"):
		return false
	}
	return true
}

// escapeMarker records the ESCAPE literal lit and returns the marker
// string that stands for it in the rewritten text.
func (rw *rewritten) escapeMarker(lit token) (string, *Error) {
	if utf8.RuneCountInString(lit.value()) != 1 {
		// Flink fails at run time on any other escape; say it here.
		return "", Errorf(ErrInvalid, lit.pos, "ESCAPE takes a single character, found %s", lit.text)
	}
	k := len(rw.escapes)
	if k == len(escapeMarkers) {
		return "", Errorf(ErrUnsupported, lit.pos, "a statement can have at most %d ESCAPE clauses", len(escapeMarkers))
	}
	rw.escapes = append(rw.escapes, &Literal{At: lit.pos, Kind: LitString, Text: lit.value()})
	return "'" + escapeMarkers[k:k+1] + "'", nil
}

// escape returns the user's literal for TiDB's escape byte b.
func (l *lifter) escape(b byte) Expr {
	k := strings.IndexByte(escapeMarkers, b)
	if k < 0 || k >= len(l.rw.escapes) {
		panic(bug("bad ESCAPE marker"))
	}
	return l.rw.escapes[k]
}
