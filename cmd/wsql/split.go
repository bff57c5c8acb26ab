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
