package regex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// findAll lists every match's groups as text ("" for a group not taking
// part), as Java's Matcher.find loop sees them.
func findAll(t *testing.T, pattern, s string) [][]string {
	t.Helper()
	re, err := Compile(pattern)
	require.NoError(t, err, pattern)
	m := re.NewMatcher()
	m.Reset()
	var out [][]string
	for m.Find(s) {
		var gs []string
		for g := 0; g <= re.Groups(); g++ {
			if a, b, ok := m.Group(g); ok {
				gs = append(gs, s[a:b])
			} else {
				gs = append(gs, "<null>")
			}
		}
		out = append(out, gs)
	}
	return out
}

func TestJavaSemantics(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       [][]string
	}{
		// Flink's REGEXP_EXTRACT example: REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2) is "bar".
		{"foo(.*?)(bar)", "foothebar", [][]string{{"foothebar", "the", "bar"}}},
		{"oo|ar", "foobar", [][]string{{"oo"}, {"ar"}}},
		{`(\d+)-(\d+)`, "a12-345b6-7", [][]string{{"12-345", "12", "345"}, {"6-7", "6", "7"}}},
		// empty matches advance by one character, as Java's find
		{"x*", "ab", [][]string{{""}, {""}, {""}}},
		{"a*", "baa", [][]string{{""}, {"aa"}, {""}}},
		// leftmost-first alternation, not leftmost-longest
		{"a|ab", "ab", [][]string{{"a"}}},
		{"(a|ab)(c|bcd)", "abcd", [][]string{{"abcd", "a", "bcd"}}},
		// Java's `.` stops at \r as well as \n; `$` matches before a final line terminator
		{"a.", "a\rb", nil},
		{"b$", "ab\n", [][]string{{"b"}}},
		{`b\z`, "ab\n", nil},
		{"(?m)^b", "a\nb", [][]string{{"b"}}},
		// \s includes \x0B in Java
		{`\s`, "a\x0Bb", [][]string{{"\x0B"}}},
		{`\p{Alpha}+`, "12ab3", [][]string{{"ab"}}},
		{`\Q.*\E`, "a.*b", [][]string{{".*"}}},
		// (?i) folds ASCII only
		{"(?i)abc", "xAbC", [][]string{{"AbC"}}},
		// a group that does not take part is null
		{"(a)|(b)", "b", [][]string{{"b", "<null>", "b"}}},
		// the last iteration's capture
		{"(?:(a)|b)+", "ab", [][]string{{"ab", "a"}}},
		{"(ab)*c", "ababc", [][]string{{"ababc", "ab"}}},
		{"(a*)*b", "aab", [][]string{{"aab", ""}}},
		{"x{2,3}", "xxxxx", [][]string{{"xxx"}, {"xx"}}},
		{"(?:ab){2}", "abababab", [][]string{{"abab"}, {"abab"}}},
		{`\bfoo\b`, "a foo b foobar", [][]string{{"foo"}}},
		{"é+", "aééb", [][]string{{"éé"}}},
		{"[^a]+", "aébca", [][]string{{"ébc"}}},
		// Java-only syntax runs on the backtracking engine of .NET's family
		{`(\w)\1`, "abccd", [][]string{{"cc", "c"}}},
		{`foo(?=bar)`, "foobaz foobar", [][]string{{"foo"}}},
		{`(?<!a)b`, "ab cb", [][]string{{"b"}}},
	} {
		require.Equal(t, c.want, findAll(t, c.pattern, c.s), "%q on %q", c.pattern, c.s)
	}
}

func TestInvalidPattern(t *testing.T) {
	for _, p := range []string{"(", "[a", "a**+", `\`} {
		_, err := Compile(p)
		require.Error(t, err, p)
	}
}

// A pattern with exponential backtracking finishes through Go's regexp.
func TestStepBudget(t *testing.T) {
	s := strings.Repeat("a", 40)
	require.Nil(t, findAll(t, "(a*)*b", s))
	require.Nil(t, findAll(t, "(a|aa)*b", s+"c"))
	require.Equal(t, [][]string{{s + "b", "a"}}, findAll(t, "(a|aa)*b", s+"b"))
}
