package regex

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldPatterns are patterns that run as field scans.
var fieldPatterns = []string{
	`(&|^)channel_id=([^&]*)`, `(^|&)channel_id=([^&]*)`, `(?:&|^)k=([^&]*)`, `(&|^)k=(?:[^&]*)`, `(?:^|&)k=[^&;]+`,
	`(&|^)([^&]*)`, `(;|^)a;([^;=]*)`, `(&&|^)k=([^&]*)`, `(&|^)é=([^&]*)`, `(\n|^)k:([^\n]*)`, `(&|^)\Qa.b\E=([^&]*)`,
}

// notFieldPatterns look alike but have another meaning.
var notFieldPatterns = []string{
	`(&|^)channel_id=([^&]*?)`, `(?i)(&|^)k=([^&]*)`, `(&|$)k=([^&]*)`, `(é|^)k=([^&]*)`, `(&|^)k=([^é]*)`,
	`(&|^)k=([a-z]*)`, `(&|^|;)k=([^&]*)`, `(?m)(&|^)k=([^&]*)`, `(&|^)k=([^&]*)x`, `(&|^)k=([^&]{2})`,
	`((&|^))k=([^&]*)`, `(&|^)k=(([^&]*))`, `(&|^)k=([^&]*)*`, `(&|^)[kK]=([^&]*)`, `(&|\A)k=([^&]*)$`,
}

var fieldInputs = []string{
	"", "&", "k=", "&k=", "k=v", "&k=v", "k=&k=v", "a&k=1&k=2", "x&k=&k=2", "https://www.nexmark.com/abc/def/item.htm?query=1&channel_id=1234",
	"https://www.nexmark.com/Google/item.htm?query=1&channel_id=0", "channel_id=7&x=1", "&channel_id=7&channel_id=8", "&&k=1", "&&&k=2&",
	"k=é&k=ü", "é&k=1", "\xff&k=\xfe\xff&", "k=a;b", "a;b;a;c=", ";a;x=1", "x\nk:1\nk:2", "\nk:", "a.b=1&a.b=2", "&axb=1", "&&k=", "&k=;x",
	"&é=1", "é=2", "x&&k=", "k=1\n&k=2", strings.Repeat("&", 40) + "k=1", "&channel_id=" + strings.Repeat("z", 100),
}

func TestFieldScanForms(t *testing.T) {
	for _, p := range fieldPatterns {
		re, err := Compile(p)
		require.NoError(t, err, p)
		require.NotNil(t, re.fields, "%q should be a field scan", p)
	}
	for _, p := range notFieldPatterns {
		re, err := Compile(p)
		require.NoError(t, err, p)
		require.Nil(t, re.fields, "%q is not a field scan", p)
	}
}

// The field scan finds exactly the matches and groups the backtracker
// finds, and its first match is Go's regexp's (leftmost-first, as Java's).
func TestFieldScanAgrees(t *testing.T) {
	for _, p := range fieldPatterns {
		re, err := Compile(p)
		require.NoError(t, err, p)
		for _, s := range fieldInputs {
			requireFieldScanAgrees(t, re, s)
		}
	}
}

func requireFieldScanAgrees(t *testing.T, re *Regex, s string) {
	t.Helper()
	got := matches(t, re, s, false)
	require.Equal(t, matches(t, re, s, true), got, "%q on %q", re, s)
	want := regexp.MustCompile(translateJava(re.pattern)).FindStringSubmatchIndex(s)
	if want == nil {
		require.Empty(t, got, "%q on %q", re, s)
		return
	}
	require.Equal(t, want, got[0], "%q on %q", re, s)
}

func FuzzFieldScan(f *testing.F) {
	for i, p := range fieldPatterns {
		f.Add(p, fieldInputs[i%len(fieldInputs)])
	}
	for i, s := range fieldInputs {
		f.Add(fieldPatterns[i%len(fieldPatterns)], s)
	}
	f.Fuzz(func(t *testing.T, p, s string) {
		re, err := Compile(p)
		if err != nil || re.fields == nil || len(s) > 300 {
			return
		}
		requireFieldScanAgrees(t, re, s)
	})
}
