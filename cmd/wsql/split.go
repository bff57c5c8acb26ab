package main

import "strings"

// splitStatements cuts src after every ';' that ends a statement — one
// outside 'strings', `quoted names`, -- line comments and /* block
// comments */, read as wsql's lexer reads them (a doubled quote is an
// escaped quote). It returns the complete statements, each trimmed and
// ending in ';', and the unfinished text after the last of them.
func splitStatements(src string) (stmts []string, rest string) {
	start := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\'' || c == '`':
			i = skipQuoted(src, i, c)
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
				i += nl
			} else {
				i = len(src)
			}
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			if n := strings.Index(src[i+2:], "*/"); n >= 0 {
				i += 2 + n + 1
			} else {
				i = len(src)
			}
		case c == ';':
			if s := strings.TrimSpace(src[start : i+1]); !isBlank(s[:len(s)-1]) {
				stmts = append(stmts, s)
			}
			start = i + 1
		}
	}
	return stmts, src[start:]
}

// skipQuoted returns the offset of the quote closing the one at i, or
// len(src) when it is not closed yet.
func skipQuoted(src string, i int, q byte) int {
	for j := i + 1; j < len(src); j++ {
		if src[j] != q {
			continue
		}
		if j+1 < len(src) && src[j+1] == q {
			j++
			continue
		}
		return j
	}
	return len(src)
}

// isBlank reports whether text holds nothing to run: only spaces and
// complete comments.
func isBlank(text string) bool {
	for i := 0; i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], "--"):
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return true
			}
			i += nl + 1
		case strings.HasPrefix(text[i:], "/*"):
			n := strings.Index(text[i+2:], "*/")
			if n < 0 {
				return false // an open comment continues on the next line
			}
			i += 2 + n + 2
		case strings.ContainsRune(" \t\r\n\f", rune(text[i])):
			i++
		default:
			return false
		}
	}
	return true
}

// leadingWords returns the first n words of stmt, upper-cased, skipping
// spaces and comments; fewer when stmt has fewer.
func leadingWords(stmt string, n int) []string {
	var words []string
	for i := 0; i < len(stmt) && len(words) < n; {
		switch c := stmt[i]; {
		case strings.HasPrefix(stmt[i:], "--"):
			nl := strings.IndexByte(stmt[i:], '\n')
			if nl < 0 {
				return words
			}
			i += nl + 1
		case strings.HasPrefix(stmt[i:], "/*"):
			end := strings.Index(stmt[i+2:], "*/")
			if end < 0 {
				return words
			}
			i += 2 + end + 2
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(stmt) && ('a' <= stmt[j] && stmt[j] <= 'z' || 'A' <= stmt[j] && stmt[j] <= 'Z' || stmt[j] == '_') {
				j++
			}
			words = append(words, strings.ToUpper(stmt[i:j]))
			i = j
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
			i++
		default:
			return words
		}
	}
	return words
}

// opensStatementSet reports whether stmt starts a statement set that
// runs to a later END; (EXECUTE STATEMENT SET BEGIN, EXPLAIN [PLAN FOR]
// [EXECUTE] STATEMENT SET BEGIN): the statements up to it are one.
func opensStatementSet(stmt string) bool {
	w := strings.Join(leadingWords(stmt, 6), " ")
	for _, head := range []string{"EXECUTE STATEMENT SET", "EXPLAIN STATEMENT SET", "EXPLAIN EXECUTE STATEMENT SET", "EXPLAIN PLAN FOR STATEMENT SET", "EXPLAIN PLAN FOR EXECUTE"} {
		if strings.HasPrefix(w, head) {
			return true
		}
	}
	return false
}

// isEnd reports whether stmt is END;.
func isEnd(stmt string) bool {
	w := leadingWords(stmt, 2)
	return len(w) == 1 && w[0] == "END"
}

// groupStatementSets joins each statement set of stmts (an opening
// statement up to END;) into one statement; an unended one at the end is
// returned as unfinished text instead.
func groupStatementSets(stmts []string) (out []string, unended string) {
	for i := 0; i < len(stmts); i++ {
		if !opensStatementSet(stmts[i]) {
			out = append(out, stmts[i])
			continue
		}
		j := i
		for j < len(stmts) && !isEnd(stmts[j]) && !(j == i && endsWithEnd(stmts[i])) {
			j++
		}
		if j == len(stmts) {
			return out, strings.Join(stmts[i:], "\n") + "\n"
		}
		out = append(out, strings.Join(stmts[i:j+1], "\n"))
		i = j
	}
	return out, ""
}

// endsWithEnd reports whether a statement set's opening statement is
// also its end: EXECUTE STATEMENT SET BEGIN END;.
func endsWithEnd(stmt string) bool {
	w := leadingWords(stmt, 8)
	return len(w) >= 2 && w[len(w)-1] == "END" && w[len(w)-2] == "BEGIN"
}
