package wsql

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/internal/golden"
)

// functionTableMarker introduces sql-reference.md's scalar function table,
// which is generated from the planner's registry.
const functionTableMarker = "<!-- generated from the function registry (function/*.go): go test . -run TestDocsFunctions -rewrite -->"

// TestDocsFunctions: sql-reference.md's function tables and lists agree
// with the registry SHOW FUNCTIONS and the compiler read. The scalar table
// is generated (-rewrite); the aggregate and window tables and the lists
// of functions that do not run yet are checked by name.
func TestDocsFunctions(t *testing.T) {
	doc := readDoc(t)
	before, rest, ok := strings.Cut(doc, functionTableMarker+"\n")
	require.True(t, ok, "docs/sql-reference.md: the scalar function table's marker moved")
	table, after, _ := strings.Cut(rest, "\n\n")
	want := scalarFunctionTable()
	if golden.Rewrite() && table != want {
		require.NoError(t, os.WriteFile("docs/sql-reference.md", []byte(before+functionTableMarker+"\n"+want+"\n\n"+after), 0o644))
		doc = readDoc(t)
		table = want
	}
	require.Equal(t, want, table, "docs/sql-reference.md: the scalar function table differs from the registry; run go test . -run TestDocsFunctions -rewrite")

	runs := map[function.FunctionKind][]string{}
	idle := map[function.FunctionKind][]string{}
	for _, f := range function.Builtins().Functions() {
		k := f.Kind
		if k == function.WindowPropertyFunction {
			k = function.WindowFunction // one table
		}
		if f.Runs() {
			runs[k] = append(runs[k], f.Names()...)
		} else {
			idle[k] = append(idle[k], f.Names()...)
		}
	}
	aggregates := docSection(t, doc, "## Aggregates")
	requireSameNames(t, runs[function.AggregateFunction], codeNames(firstColumn(aggregates)), "the aggregate table")
	requireSameNames(t, idle[function.AggregateFunction], codeNames(sentenceWith(aggregates, "not supported yet")), "the aggregates not supported yet")
	windows := docSection(t, doc, "## Group windows")
	requireSameNames(t, runs[function.WindowFunction], codeNames(tableOf(windows)), "the group window table")
	scalars := docSection(t, doc, "### Scalar functions")
	requireSameNames(t, idle[function.ScalarFunction], codeNames(sentenceWith(scalars, "not supported yet")), "the scalar functions not supported yet")
}

// scalarFunctionTable is the table of the scalar functions wsql runs, in
// the registry's order (by family).
func scalarFunctionTable() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	lines := []string{"| function | signature | description |", "|---|---|---|"}
	for _, f := range function.Builtins().Functions() {
		if f.Kind != function.ScalarFunction || !f.Runs() {
			continue
		}
		var names, sigs []string
		for _, n := range f.Names() {
			names = append(names, "`"+n+"`")
		}
		for _, s := range f.Signatures {
			sigs = append(sigs, "`"+cell(s.Format(f.Name))+"`")
		}
		lines = append(lines, "| "+strings.Join(names, " / ")+" | "+strings.Join(sigs, "<br>")+" | "+cell(f.Description)+" |")
	}
	return strings.Join(lines, "\n")
}

// tableOf is the first markdown table of text.
func tableOf(text string) string {
	var rows []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "|") {
			rows = append(rows, line)
		} else if len(rows) > 0 {
			break
		}
	}
	return strings.Join(rows, "\n")
}

// firstColumn is the first cell of each row of the first table of text.
func firstColumn(text string) string {
	var cells []string
	for _, row := range strings.Split(tableOf(text), "\n") {
		if c := strings.Split(row, "|"); len(c) > 2 {
			cells = append(cells, c[1])
		}
	}
	return strings.Join(cells, "\n")
}

// sentenceWith is the sentence of text's prose that contains phrase.
func sentenceWith(text, phrase string) string {
	for _, p := range strings.Split(text, "\n\n") {
		if strings.HasPrefix(p, "|") {
			continue // a table
		}
		for _, s := range strings.Split(p, ". ") {
			if strings.Contains(s, phrase) {
				return s
			}
		}
	}
	return ""
}

var codeName = regexp.MustCompile("`([A-Z][A-Z0-9_]*)[(`]")

// codeNames are the upper-case names that start a code span in text.
func codeNames(text string) []string {
	var out []string
	for _, m := range codeName.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

func requireSameNames(t *testing.T, want, got []string, what string) {
	t.Helper()
	want, got = slices.Clone(want), slices.Clone(got)
	slices.Sort(want)
	slices.Sort(got)
	require.Equal(t, slices.Compact(want), slices.Compact(got), "docs/sql-reference.md: %s and the function registry disagree", what)
}
