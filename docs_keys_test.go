package wsql

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
)

// TestDocsListEverySetting: sql-reference.md lists every SET key wsql
// reads, and no key it does not.
func TestDocsListEverySetting(t *testing.T) {
	doc := readDoc(t)
	var keys []string
	for k := range settingsInEffect {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		require.True(t, strings.Contains(doc, "| `"+k+"` |"), "docs/sql-reference.md: the SET table misses '%s'", k)
	}
	// the table's own rows: each must be a key wsql reads
	_, table, ok := strings.Cut(doc, "These are the keys wsql reads:")
	require.True(t, ok, "the SET table's introduction moved")
	for _, line := range strings.Split(table, "\n")[1:] {
		if strings.TrimSpace(line) == "" {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		k := strings.Trim(strings.TrimSpace(cells[1]), "`")
		_, known := settingsInEffect[k]
		require.True(t, known, "docs/sql-reference.md lists '%s', which wsql does not read", k)
	}
}

// TestDocsListEveryOption: the section of each connector in
// sql-reference.md names every WITH option the connector registry declares
// for it, and the filesystem section those of every format.
func TestDocsListEveryOption(t *testing.T) {
	doc := readDoc(t)
	for _, name := range connector.Names() {
		c, _ := connector.Lookup(name)
		if c.Rank >= connector.AttachedRank {
			continue // tables registered from Go: docs/go-api.md
		}
		heading := "### " + name
		switch {
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
