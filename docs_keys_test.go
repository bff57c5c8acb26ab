package wsql

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner/setting"
)

// TestDocsListEverySetting: sql-reference.md's SET table has a row for
// every session setting of planner's table, with its type and default,
// and no other; database-sql.md's DSN table has a row for every key only a
// data source name takes, and no other.
func TestDocsListEverySetting(t *testing.T) {
	rows := docKeyRows(t, readDoc(t), "These are the keys wsql reads:")
	require.Equal(t, setting.Keys(setting.ScopeSession), sortedKeys(rows), "docs/sql-reference.md: the SET table's keys differ from planner/settings.go")
	for _, s := range setting.All() {
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
	for _, s := range setting.All() {
		if s.Scope&setting.ScopeSession == 0 {
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
// sql-reference.md names every WITH option the connector registry declares
// for it and a row for each of its metadata keys with its type, and the filesystem section those of every format.
func TestDocsListEveryOption(t *testing.T) {
	doc := readDoc(t)
	for _, name := range connector.Names() {
		c, _ := connector.Lookup(name)
		if c.Rank >= connector.AttachedRank {
			continue // tables registered from Go: docs/go-api.md
		}
		heading := "### " + name
		switch {
		case c.NewSource == nil && c.NewLookup != nil:
			heading += " (sink, lookup)"
		case c.NewSource == nil:
			heading += " (sink)"
		}
		text := docSection(t, doc, heading)
		for _, o := range c.Options {
			if o.Key == connector.KeyConnector {
				continue // every table has it; the section is named after it
			}
			if field, ok := strings.CutPrefix(o.Key, "fields.<col>."); ok && !strings.Contains(text, "`"+o.Key+"`") {
				require.True(t, strings.Contains(text, "`."+field+"`"), "docs/sql-reference.md: %s misses %s", heading, o.Key)
				continue
			}
			require.True(t, strings.Contains(text, "`"+o.Key+"`"), "docs/sql-reference.md: section %q misses option '%s'", heading, o.Key)
		}
		for _, k := range c.Metadata {
			row := "| `" + k.Key + "` | `" + k.SQLType + "` |"
			require.True(t, strings.Contains(text, row), "docs/sql-reference.md: section %q misses the metadata row %s", heading, row)
		}
	}
	filesystem := docSection(t, doc, "### filesystem")
	for _, f := range connector.Formats() {
		for _, o := range f.Options {
			require.True(t, strings.Contains(filesystem, "`"+o.Key+"`"), "docs/sql-reference.md: section filesystem misses option '%s' of format %s", o.Key, f.Name)
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
