package main

import "strings"

// historySaver is a LineSource that keeps a history. The shell, not the
// source, decides what an entry is: a statement typed over several lines
// is one entry, recalled whole, as in psql and DuckDB.
type historySaver interface {
	SaveHistory(entry string)
}

// remember adds what line completes to the history, before the line runs
// (as handleLine reads it): a meta command or a shell word on its own, a
// statement's lines as one entry once a line ends it. Lines that leave a
// statement open wait in s.typed.
func (s *shell) remember(line string) {
	if _, ok := s.in.(historySaver); !ok {
		return
	}
	trimmed := strings.TrimSpace(line)
	pending := s.getPending()
	switch {
	case strings.HasPrefix(trimmed, `\`):
		s.saveHistory(trimmed) // a meta command leaves the statement open
		return
	case pending == "" && isShellWord(trimmed):
		s.saveHistory(trimmed)
		return
	case pending == "" && isBlank(line):
		if trimmed != "" {
			s.saveHistory(trimmed) // a comment alone
		}
		return
	}
	s.typed = append(s.typed, line)
	// a statement set typed over lines is one entry, saved at its END
	if stmts, rest := splitStatements(pending + line + "\n"); isBlank(rest) {
		if _, unended := groupStatementSets(stmts); unended == "" {
			s.saveTyped()
		}
	}
}

// saveTyped saves the lines of the statement being typed as one entry; it
// is also called when Ctrl-C or Ctrl-D drops the statement, so a long one
// can be recalled and fixed.
func (s *shell) saveTyped() {
	lines := s.typed
	s.typed = nil
	if len(lines) == 0 {
		return
	}
	entry, ok := historyEntry(lines)
	if !ok {
		// a line break inside a quoted string is part of its value: the
		// lines go in one by one rather than with the value changed
		for _, l := range lines {
			s.saveHistory(strings.TrimSpace(l))
		}
		return
	}
	s.saveHistory(entry)
}

func (s *shell) saveHistory(entry string) {
	if h, ok := s.in.(historySaver); ok && entry != "" {
		h.SaveHistory(entry)
	}
}

// isShellWord reports whether a line is one of the words the shell takes
// at an empty prompt (help, quit, exit), as handleLine reads them.
func isShellWord(trimmed string) bool {
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(trimmed, ";"))) {
	case "help", "quit", "exit":
		return true
	}
	return false
}

// historyEntry joins a statement's lines into one line that runs as the
// lines did: line breaks become single spaces, and a -- comment, which
// would swallow the rest of the joined line, becomes a /* comment */ (or
// is dropped when it holds a */). A history file keeps an entry per line,
// so an entry must not hold a line break; ok is false when one is inside
// a 'string' or `name`, where joining would change the statement.
func historyEntry(lines []string) (entry string, ok bool) {
	if len(lines) == 1 {
		return strings.TrimSpace(lines[0]), true
	}
	src := strings.Join(lines, "\n")
	var b strings.Builder
	lineBreak := func() {
		// one space for the break and the indentation around it
		trimmed := strings.TrimRight(b.String(), " \t\r")
		b.Reset()
		b.WriteString(trimmed)
		if trimmed != "" {
			b.WriteByte(' ')
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\'' || c == '`':
			end := skipQuoted(src, i, c)
			if end < len(src) {
				end++ // the closing quote
			}
			if strings.Contains(src[i:end], "\n") {
				return "", false
			}
			b.WriteString(src[i:end])
			i = end - 1
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				b.WriteString(src[i:]) // the last line's comment ends the entry
				i = len(src)
				continue
			}
			text := strings.TrimSpace(src[i+2 : i+end])
			if text != "" && !strings.Contains(text, "*/") {
				b.WriteString("/* " + text + " */")
			}
			i += end - 1 // the break is read next
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src)
			} else {
				end += i + 4
			}
			b.WriteString(strings.Join(strings.Fields(src[i:end]), " "))
			i = end - 1
		case c == '\n':
			lineBreak()
			for i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t') {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String()), true
}
