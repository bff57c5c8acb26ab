package wsql

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/planner"
)

// TestDocsListEverySetting: sql-reference.md's SET table has a row for
// every session setting of planner's table, with its type and default,
// and no other; database-sql.md's DSN table has a row for every key only a
// data source name takes, and no other.
func TestDocsListEverySetting(t *testing.T) {
	rows := docKeyRows(t, readDoc(t), "These are the keys wsql reads:")
	require.Equal(t, planner.SettingKeys(planner.ScopeSession), sortedKeys(rows), "docs/sql-reference.md: the SET table's keys differ from planner/settings.go")
	for _, s := range planner.Settings() {
		cells, ok := rows[s.Key]
		if !ok {
			continue
		}
		require.Equal(t, string(s.Type), cells[0], "docs/sql-reference.md: the type of '%s'", s.Key)
		if s.Default == "" {
			require.True(t, strings.HasPrefix(cells[1], "none"), "docs/sql-reference.md: '%s' has no default, the docs say %s", s.Key, cells[1])
		} else {
			require.True(t, strings.HasPrefix(cells[1], "`"+s.Default+"`"), "docs/sql-reference.md: the default of '%s' is '%s', the docs say %s", s.Key, s.Default, cells[1])
		}
	}

	b, err := os.ReadFile("docs/database-sql.md")
	require.NoError(t, err)
	var dsnOnly []string
	for _, s := range planner.Settings() {
		if s.Scope&planner.ScopeSession == 0 {
			dsnOnly = append(dsnOnly, s.Key)
		}
	}
	dsn := docKeyRows(t, string(b), "The DSN is empty")
	require.Equal(t, dsnOnly, sortedKeys(dsn), "docs/database-sql.md: the DSN table's keys differ from planner/settings.go")
}

// docKeyRows reads the first table after intro: for each row whose first
// cell is a `key`, its other cells.
func docKeyRows(t *testing.T, doc, intro string) map[string][]string {
	_, rest, ok := strings.Cut(doc, intro)
	require.True(t, ok, "the introduction %q of a table of keys moved", intro)
	rows := map[string][]string{}
	inTable := false
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		k := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var rest []string
		for _, c := range cells[2 : len(cells)-1] {
			rest = append(rest, strings.TrimSpace(c))
		}
		rows[k] = rest
	}
	return rows
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestDocsListEveryOption: the section of each connector in
// sql-reference.md names every WITH option the planner accepts for it. The
// lists are unexported, so they are read from the planner's source.
func TestDocsListEveryOption(t *testing.T) {
	doc := readDoc(t)
	lists := plannerOptionLists(t)
	get := func(name, group string) []string {
		l := lists[name][group]
		require.NotEmpty(t, l, "planner: no list %s[%q]; update this test", name, group)
		return l
	}
	sections := map[string][]string{
		"### filesystem": append(append(append(append([]string(nil),
			get("filesystemOptions", "")...), get("formatOptions", "csv")...), get("formatOptions", "json")...),
			get("parquetSinkOptions", "")...),
		"### datagen":          get("datagenOptions", ""),
		"### nexmark":          get("nexmarkOptions", ""),
		"### print (sink)":     get("allowed", "print"),
		"### blackhole (sink)": get("allowed", "blackhole"),
	}
	for heading, keys := range sections {
		text := docSection(t, doc, heading)
		for _, k := range keys {
			if k == "connector" {
				continue // every table has it; the section is named after it
			}
			require.True(t, strings.Contains(text, "`"+k+"`"), "docs/sql-reference.md: section %q misses option '%s'", heading, k)
		}
	}
	datagen := docSection(t, doc, "### datagen")
	for _, k := range get("datagenFieldOptions", "") {
		if !strings.Contains(datagen, "`fields.<col>."+k+"`") {
			require.True(t, strings.Contains(datagen, "`."+k+"`"), "docs/sql-reference.md: datagen misses fields.<col>.%s", k)
		}
	}
	stdin := docSection(t, doc, "### stdin")
	require.Contains(t, stdin, "`format`")
	require.Contains(t, stdin, "`csv.*`")
	require.Contains(t, stdin, "`json.*`")
}

func readDoc(t *testing.T) string {
	b, err := os.ReadFile("docs/sql-reference.md")
	require.NoError(t, err)
	return string(b)
}

// docSection is the text from heading to the next heading of its level or
// above.
func docSection(t *testing.T, doc, heading string) string {
	i := strings.Index(doc, "\n"+heading+"\n")
	require.GreaterOrEqual(t, i, 0, "docs/sql-reference.md has no section %q", heading)
	rest := doc[i+len(heading)+2:]
	for _, next := range []string{"\n### ", "\n## "} {
		if j := strings.Index(rest, next); j >= 0 {
			rest = rest[:j]
		}
	}
	return rest
}

// plannerOptionLists reads the option lists of planner/*.go: for each
// variable (declared or assigned) holding string lists, its strings, by map
// key ("" for a plain list).
func plannerOptionLists(t *testing.T) map[string]map[string][]string {
	files, err := filepath.Glob("planner/*.go")
	require.NoError(t, err)
	lists := map[string]map[string][]string{}
	add := func(name string, value ast.Expr) {
		if lists[name] == nil {
			lists[name] = map[string][]string{}
		}
		for group, l := range stringLists(value) {
			lists[name][group] = append(lists[name][group], l...)
		}
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						add(name.Name, n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && i < len(n.Rhs) {
						add(id.Name, n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	return lists
}

// stringLists returns the string elements of a []string literal (group
// "") or of a map literal's values (grouped by string key); an index into a
// map literal, as in map[string][]string{...}[k], is the map.
func stringLists(e ast.Expr) map[string][]string {
	out := map[string][]string{}
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return out
	}
	for _, el := range lit.Elts {
		switch el := el.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(el.Value); err == nil && el.Kind == token.STRING {
				out[""] = append(out[""], s)
			}
		case *ast.KeyValueExpr:
			key, ok := el.Key.(*ast.BasicLit)
			if !ok || key.Kind != token.STRING {
				continue
			}
			k, _ := strconv.Unquote(key.Value)
			out[k] = append(out[k], stringLists(el.Value)[""]...)
		}
	}
	return out
}
