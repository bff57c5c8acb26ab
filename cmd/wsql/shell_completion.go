package main

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/wsql/wsql"
)

// tableContext are the words after which only a table name fits.
var tableContext = map[string]bool{"FROM": true, "JOIN": true, "TABLE": true, "INTO": true, "DESCRIBE": true, "DESC": true, "VIEW": true, "EXISTS": true}

// settingKeyContext matches a statement typed up to the opening quote of
// a SET or RESET key.
var settingKeyContext = regexp.MustCompile(`(?i)^\s*(SET|RESET)\s+'$`)

// optionKeyContext matches a statement typed up to the opening quote of a
// WITH key; optionValueContext up to that of the value of 'connector' or
// 'format'; connectorOption finds the connector the statement names.
var (
	optionKeyContext   = regexp.MustCompile(`(?is)\bWITH\s*\(\s*(?:'[^']*'\s*=\s*'[^']*'\s*,\s*)*'$`)
	optionValueContext = regexp.MustCompile(`(?is)\bWITH\s*\(.*'(connector|format)'\s*=\s*'$`)
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

	// the quoted key of SET or RESET
	typed := s.getPending() + string(line[:i])
	if settingKeyContext.MatchString(typed) {
		add(wsql.SettingKeys(), false)
		return word, candidates
	}

	// WITH options of CREATE TABLE: keys of the connector, and the names
	// of connectors and formats, from the registries
	if m := optionValueContext.FindStringSubmatch(typed); m != nil {
		if strings.EqualFold(m[1], "connector") {
			add(wsql.ConnectorNames(), false)
		} else {
			add(wsql.FormatNames(), false)
		}
		return word, candidates
	}
	if optionKeyContext.MatchString(typed) {
		conn := ""
		if m := connectorOption.FindStringSubmatch(typed); m != nil {
			conn = m[1]
		}
		add(wsql.OptionKeys(conn), false)
		return word, candidates
	}

	// table.column
	if dot := strings.LastIndexByte(word, '.'); dot >= 0 {
		table := word[:dot]
		for _, c := range s.engine.ColumnNames(table) {
			if strings.HasPrefix(c, word[dot+1:]) {
				candidates = append(candidates, table+"."+c)
			}
		}
		return word, candidates
	}

	stmt := s.getPending() + string(line[:i])
	words := strings.FieldsFunc(stmt, func(r rune) bool { return !isWordRune(r) })
	tables := s.engine.TableNames()
	if len(words) > 0 && tableContext[strings.ToUpper(words[len(words)-1])] {
		add(tables, false)
		return word, candidates
	}
	if word == "" {
		return word, nil // everything would be too much
	}
	add(wsql.Keywords(), true)
	add(wsql.FunctionNames(), true)
	add(tables, false)
	// columns of the tables the statement names, or of every table
	var named []string
	for _, t := range tables {
		for _, w := range words {
			if w == t {
				named = append(named, t)
				break
			}
		}
	}
	if len(named) == 0 {
		named = tables
	}
	seen := map[string]bool{}
	for _, c := range candidates {
		seen[c] = true
	}
	for _, t := range named {
		for _, c := range s.engine.ColumnNames(t) {
			if strings.HasPrefix(c, word) && !seen[c] {
				seen[c] = true
				candidates = append(candidates, c)
			}
		}
	}
	return word, candidates
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
