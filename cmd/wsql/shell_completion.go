package main

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/wsql/wsql"
)

// tableContext are the words after which only a table name fits.
var tableContext = map[string]bool{"FROM": true, "JOIN": true, "TABLE": true, "INTO": true, "DESCRIBE": true, "DESC": true, "VIEW": true, "EXISTS": true}

// columnContext are the words after which a column fits, and clauses the
// clause words (the nearest one before the cursor says whether a ',' is
// followed by a column or, in FROM, a table).
var (
	columnContext = map[string]bool{"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "BY": true, "HAVING": true, "ON": true, "DISTINCT": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true}
	clauses       = map[string]bool{"SELECT": true, "FROM": true, "JOIN": true, "WHERE": true, "BY": true, "HAVING": true, "ON": true}
)

// notAliases are the words that may follow a table's name without being
// its alias.
var notAliases = map[string]bool{"AS": true, "WHERE": true, "GROUP": true, "ORDER": true, "HAVING": true, "JOIN": true, "LEFT": true, "RIGHT": true, "INNER": true, "FULL": true, "CROSS": true, "ON": true, "LIMIT": true, "UNION": true, "WINDOW": true, "DESCRIPTOR": true, "FOR": true, "WITH": true, "SELECT": true, "FROM": true, "TABLE": true}

// settingKeyContext matches a statement typed up to the opening quote of
// a SET or RESET key.
var settingKeyContext = regexp.MustCompile(`(?i)^\s*(SET|RESET)\s+'$`)

// optionKeyContext matches a statement typed up to the opening quote of a
// WITH key; optionValueContext up to that of a value, naming its key;
// connectorOption finds the connector the statement names.
var (
	optionKeyContext   = regexp.MustCompile(`(?is)\bWITH\s*\(\s*(?:'[^']*'\s*=\s*'[^']*'\s*,\s*)*'$`)
	optionValueContext = regexp.MustCompile(`(?is)\bWITH\s*\((?:\s*'[^']*'\s*=\s*'[^']*'\s*,)*\s*'([^']*)'\s*=\s*'$`)
	connectorOption    = regexp.MustCompile(`(?is)'connector'\s*=\s*'([^']*)'`)
)

// complete lists the completions of the word that ends at pos in line
// (the statement typed so far is the pending lines and line). Every
// candidate starts with word, so the caller may append the rest.
func (s *shell) complete(line []rune, pos int) (word string, candidates []string) {
	if pos > len(line) {
		pos = len(line)
	}
	i := pos
	for i > 0 && isWordRune(line[i-1]) {
		i--
	}
	word = string(line[i:pos])
	head := strings.TrimSpace(string(line[:i]))
	add := func(names []string, fold bool) {
		for _, n := range names {
			if fold && len(n) >= len(word) && strings.EqualFold(n[:len(word)], word) {
				candidates = append(candidates, word+matchCase(n[len(word):], word))
			} else if !fold && strings.HasPrefix(n, word) {
				candidates = append(candidates, n)
			}
		}
	}

	// backslash commands and their arguments
	if head == "" && strings.HasPrefix(word, `\`) {
		add(metaCommands, false)
		return word, candidates
	}
	if strings.HasPrefix(head, `\`) {
		switch strings.Fields(head)[0] {
		case `\d`:
			add(s.engine.TableNames(), false)
		case `\format`:
			add(shellFormats, false)
		case `\timing`:
			add([]string{"on", "off"}, false)
		}
		return word, candidates
	}

	// in quotes: SET keys and WITH options, where the word is all that
	// follows the quote ('-' included); in other strings, nothing
	text := s.getPending() + string(line[:pos])
	if q := openQuote(text); q >= 0 {
		if quoted := text[q+1:]; text[q] == '\'' && !strings.Contains(quoted, "\n") {
			word = quoted
			add(s.quotedCandidates(text[:q+1]), false)
		}
		return word, candidates
	}

	typed := s.getPending() + string(line[:i])
	tables := s.engine.TableNames()
	named, aliases := namedTables(statementWords(s.getPending()+string(line)), tables)

	// table.column, or alias.column
	if dot := strings.LastIndexByte(word, '.'); dot >= 0 {
		table := word[:dot]
		if t, ok := aliases[table]; ok {
			table = t
		}
		for _, c := range s.engine.ColumnNames(table) {
			if strings.HasPrefix(c, word[dot+1:]) {
				candidates = append(candidates, word[:dot+1]+c)
			}
		}
		return word, candidates
	}

	before := statementWords(typed)
	last, clause := "", ""
	if len(before) > 0 {
		last = strings.ToUpper(before[len(before)-1])
	}
	for j := len(before) - 1; j >= 0 && clause == ""; j-- {
		if w := strings.ToUpper(before[j]); clauses[w] {
			clause = w
		}
	}
	afterComma := strings.HasSuffix(strings.TrimSpace(typed), ",")
	if tableContext[last] || afterComma && clause == "FROM" {
		add(tables, false)
		return word, candidates
	}
	if word == "" {
		// nothing typed: only the columns of the tables the statement
		// names, where a column fits (everything would be too much)
		if columnContext[last] || endsInOperator(typed) {
			candidates = s.columns(named, "")
		}
		return word, candidates
	}
	add(wsql.Keywords(), true)
	add(s.engine.FunctionNames(), true)
	add(tables, false)
	// columns of the tables the statement names, or of every table
	if len(named) == 0 {
		named = tables
	}
	seen := map[string]bool{}
	for _, c := range candidates {
		seen[c] = true
	}
	for _, c := range s.columns(named, word) {
		if !seen[c] {
			candidates = append(candidates, c)
		}
	}
	return word, candidates
}

// quotedCandidates lists what fits in the quotes opened at the end of
// typed: SET keys, WITH keys (of the connector the statement names), WITH
// values (of the key before them); nil for a free value or another string.
func (s *shell) quotedCandidates(typed string) []string {
	if settingKeyContext.MatchString(typed) {
		return wsql.SettingKeys()
	}
	conn := ""
	if m := connectorOption.FindStringSubmatch(typed); m != nil {
		conn = m[1]
	}
	if m := optionValueContext.FindStringSubmatch(typed); m != nil {
		return wsql.OptionValues(conn, m[1])
	}
	if optionKeyContext.MatchString(typed) {
		return wsql.OptionKeys(conn)
	}
	return nil
}

// columns lists the columns of tables that start with prefix, each once.
func (s *shell) columns(tables []string, prefix string) []string {
	var cols []string
	seen := map[string]bool{}
	for _, t := range tables {
		for _, c := range s.engine.ColumnNames(t) {
			if strings.HasPrefix(c, prefix) && !seen[c] {
				seen[c] = true
				cols = append(cols, c)
			}
		}
	}
	return cols
}

// namedTables finds the tables a statement's words name, and the aliases
// given them (FROM clicks c, FROM clicks AS c).
func namedTables(words, tables []string) (named []string, aliases map[string]string) {
	aliases = map[string]string{}
	for j, w := range words {
		if !contains(tables, w) {
			continue
		}
		if !contains(named, w) {
			named = append(named, w)
		}
		k := j + 1
		if k < len(words) && strings.EqualFold(words[k], "AS") {
			k++
		}
		if k < len(words) && !notAliases[strings.ToUpper(words[k])] && !contains(tables, words[k]) {
			aliases[words[k]] = w
		}
	}
	return named, aliases
}

// statementWords cuts a statement into its words (names, keywords,
// numbers).
func statementWords(stmt string) []string {
	return strings.FieldsFunc(stmt, func(r rune) bool { return !isWordRune(r) })
}

// endsInOperator reports whether typed ends where an operand comes next:
// after a comma, an opening parenthesis or a comparison or arithmetic
// operator.
func endsInOperator(typed string) bool {
	t := strings.TrimSpace(typed)
	return t != "" && strings.ContainsRune(",(=<>+-/%", rune(t[len(t)-1]))
}

// openQuote is the offset of the quote of the 'string' or `name` that
// text ends in, -1 when text ends outside quotes (comments read as
// splitStatements reads them).
func openQuote(text string) int {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\'' || c == '`':
			end := skipQuoted(text, i, c)
			if end == len(text) {
				return i
			}
			i = end
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			if nl := strings.IndexByte(text[i:], '\n'); nl >= 0 {
				i += nl
			} else {
				return -1
			}
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			if n := strings.Index(text[i+2:], "*/"); n >= 0 {
				i += 2 + n + 1
			} else {
				return -1
			}
		}
	}
	return -1
}

func isWordRune(r rune) bool {
	return r == '_' || r == '.' || r == '\\' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// matchCase writes a keyword's rest in lower case when the user typed the
// word in lower case.
func matchCase(rest, typed string) string {
	for i := len(typed) - 1; i >= 0; i-- {
		c := typed[i]
		switch {
		case 'a' <= c && c <= 'z':
			return strings.ToLower(rest)
		case 'A' <= c && c <= 'Z':
			return strings.ToUpper(rest)
		}
	}
	return rest
}
