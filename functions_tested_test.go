package wsql

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wsql/wsql/function"
)

// TestEveryRunnableFunctionIsCalledByATest pins the issue's "each of
// Flink's documented functions has a test": every name (and alias) of a
// built-in function wsql runs is called by some query a test runs, a
// testdata/**/*.sql script or a string in a *_test.go file. Comments do
// not count. What the test should hold, this cannot check: the message
// says it.
func TestEveryRunnableFunctionIsCalledByATest(t *testing.T) {
	corpus := strings.ToLower(testQueries(t)) // SQL names are case-insensitive
	words, calls := map[string]bool{}, map[string]bool{}
	for _, m := range identifier.FindAllStringSubmatch(corpus, -1) {
		words[m[1]] = true
		if m[2] != "" {
			calls[m[1]+m[2]] = true
		}
	}
	called := func(f *function.Function, name string) bool {
		name = strings.ToLower(name)
		switch {
		case strings.Contains(name, " "): // IS JSON, IS NOT JSON
			w := strings.Fields(name)
			return regexp.MustCompile(`\b` + w[0] + `\s+(not\s+)?` + w[1] + `\b`).MatchString(corpus)
		case f.Bare: // CURRENT_DATE, with or without parentheses
			return words[name]
		}
		for _, s := range f.Signatures { // ARRAY[...]
			if strings.HasPrefix(strings.ToLower(s.Written), name+"[") {
				return calls[name+"["]
			}
		}
		return calls[name+"("]
	}
	var missing []string
	for _, f := range function.Builtins().Functions() {
		if !f.Runs() {
			continue // its refusal is pinned with the registry's errors
		}
		for _, name := range f.Names() {
			if !called(f, name) {
				missing = append(missing, name)
			}
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		t.Errorf("function %s runs, but no test calls it: add a query calling it with the example and result Flink documents for it "+
			"(apache/flink docs/data/sql_functions.yml) and with a NULL argument, citing the example in a comment, "+
			"to the e2e golden of its family, testdata/e2e/<family>_functions.sql (then go test . -run 'TestEndToEnd$/<family>_functions' -rewrite "+
			"and read the .out), or as a case of a table-driven *_test.go", name)
	}
}

// identifier is a word of a query, and the parenthesis (or the bracket of
// ARRAY[...] and MAP[...]) when it is called.
var identifier = regexp.MustCompile(`([a-z_][a-z0-9_]*)\s*([(\[])?`)

// testQueries is the text of every query the tests run: the .sql files
// under testdata (without their -- comments) and the string literals of
// the *_test.go files, one per line.
func testQueries(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	sqlComment := regexp.MustCompile(`(?m)--.*$`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "fuzz") {
				return filepath.SkipDir // fuzz corpora are generated
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".sql"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b.WriteString(sqlComment.ReplaceAllString(string(src), ""))
			b.WriteByte('\n')
		case strings.HasSuffix(path, "_test.go"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var s scanner.Scanner
			fset := token.NewFileSet()
			s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0) // comments skipped
			for {
				_, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok == token.STRING {
					if v, err := strconv.Unquote(lit); err == nil {
						b.WriteString(v)
						b.WriteByte('\n')
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
