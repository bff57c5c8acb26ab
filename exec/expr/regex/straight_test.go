package regex

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// matches lists every match's group offsets as Java's find loop sees
// them, on the straight program (or field scan) or, with general, on the
// backtracker.
func matches(t testing.TB, re *Regex, s string, general bool) [][]int {
	t.Helper()
	if general {
		cp := *re
		cp.line, cp.fields = nil, nil
		re = &cp
	}
	m := re.NewMatcher()
	m.Reset()
	var out [][]int
	for m.Find(s) {
		out = append(out, append([]int(nil), m.caps...))
	}
	return out
}

// straightPatterns are patterns with a straight program: the
// repetitions cannot give back a rune to what follows them.
var straightPatterns = []string{
	`id=(\d+)`, `id=(\d*)`, `(\d+)`, `\d+`, `[a-z]+@(\w+)\.com`, `^\d{4}-\d{2}`, `(\d{2,3})x`,
	`a+b`, `a*?b`, `a+?b`, `a*?`, `(a{2,}?)`, `x(a*)`, `(é+)x`, `[^a]+a`, `[^a]*`, `\w+$`, `\d+\z`,
	`(?i)id=(\d+)`, `(?m)^\w+$`, `\bfoo\b`, `foo\B`, `.*`, `(.+)`, `[α-ω]+\d`, `\s+\S`, `^$`,
	`(a)(b)(c)`, `(?:ab)(c)`, `()`, `x{0}`, `(a){0}b`, `\p{Alpha}+\d+`, `[^\n]+\n`, `user(\d+) GET`,
	`\d+[a-z]+`, `a?b`, `π=(\d)`, `ab(\w{2,3})`, `x=[a-c]{0,2}`, `id=(é+)`, `id=[^a]+`, `id=\d{3}`, `[^x]{2,3}x`, `(.{2})`, `a{2,3}`, `d=\d=`, `id=id=(\d+)`, `[a-c]+[d-f]+$`, `\Q.*\E`, `é`, `[\x{100}-\x{200}]+a`,
}

// notStraight are patterns with a choice point.
var notStraight = []string{`ab|cd`, `(ab)+`, `\d+1`, `a*a`, `\w+\b`, `(a*)*b`, `a?a`, `.*x`, `\d*[a-z]*`, `(?:a+)+`, `[a-z]+\d*[a-c]`, `[a-c]+[d-f]+[g-i]*$`}

var straightInputs = []string{
	"", "a", "b", "ab", "aab", "aaab", "ba", "user5 GET /item?id=39595 ok", "id=", "id=x id=7", "ID=12",
	"foo@bar.com x@y.com", "2024-01-31", "12x 123x 1234x", "ééx", "xé", "aaa\n", "aaa\r\n", "abc\ndef\n",
	"a foo b foobar", "αβγ1", "  \tx", "\n", "\u2028", "abcdefghi", "dddd", "ab\u0085", "Ā\u01ffa", "é\xffa\xc3",
	strings.Repeat("a", 50) + "b", "π=3.14 id=0 id=42", "d=d=1=", "id=id=id=5", "π=π=7", "x=abcd x=", "abé1 ab12345", "id=123 id=1234", "aéaéx", "éaéa", "aaaaa", "ééx", "aéx",
}

func TestStraightForms(t *testing.T) {
	for _, p := range straightPatterns {
		re, err := Compile(p)
		require.NoError(t, err, p)
		require.NotNil(t, re.line, "%q should be straight", p)
	}
	// A prefix and one repetition of an ASCII class run in the search loop.
	for p, run1 := range map[string]bool{`id=(\d+)`: true, `ab(\w{2,3})`: true, `id=\d{3}`: true, `id=(é+)`: false, `id=[^a]+`: false, `id=(\d+)x`: false, `\d+`: false} {
		re, err := Compile(p)
		require.NoError(t, err, p)
		require.Equal(t, run1, re.line.run1 != nil, p)
	}
	for _, p := range notStraight {
		re, err := Compile(p)
		require.NoError(t, err, p)
		require.Nil(t, re.line, "%q has a choice point", p)
	}
}

// The straight program finds exactly the matches and groups the
// backtracker finds.
func TestStraightAgreesWithBacktracker(t *testing.T) {
	for _, p := range straightPatterns {
		re, err := Compile(p)
		require.NoError(t, err, p)
		for _, s := range straightInputs {
			require.Equal(t, matches(t, re, s, true), matches(t, re, s, false), "%q on %q", p, s)
		}
	}
}

// A straight pattern that scans a long row again from each start goes
// over the step budget and is finished by Go's regexp, with the same
// answer.
func TestStraightStepBudget(t *testing.T) {
	re, err := Compile(`(\d+)x`)
	require.NoError(t, err)
	require.NotNil(t, re.line)
	s := strings.Repeat("1", 3000) + "x"
	got := matches(t, re, s, false)
	require.Equal(t, [][]int{{0, len(s), 0, len(s) - 1}}, got)
	require.Nil(t, matches(t, re, strings.Repeat("1", 3000), false))
}

func FuzzStraight(f *testing.F) {
	for i, p := range straightPatterns {
		f.Add(p, straightInputs[i%len(straightInputs)])
	}
	f.Fuzz(func(t *testing.T, p, s string) {
		re, err := Compile(p)
		if err != nil || re.line == nil || len(s) > 200 {
			return
		}
		require.Equal(t, matches(t, re, s, true), matches(t, re, s, false), "%q on %q", p, s)
	})
}
