package regex

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLaterStartBytes: skipping the positions past 0 where no match can
// start (a branch of \A or ^ fails there) finds the same matches as
// trying every position.
func TestLaterStartBytes(t *testing.T) {
	inputs := []string{"", "&", "channel_id=1", "a&channel_id=7&x=1", "https://www.nexmark.com/abc/de/item.htm?query=1&channel_id=42",
		"x=1&y=2&channel_id=&z", "é&channel_id=ü", "^&&channel_id=9", "ab\nb", "aaab", "bbbb"}
	for _, pattern := range []string{`(&|^)channel_id=([^&]*)`, `(^|&)x=`, `(a|^b)`, `(^|é)`, `(?:^|[xy])=\d`, `(a|)b`} {
		re, err := Compile(pattern)
		require.NoError(t, err, pattern)
		if re.prog == nil {
			continue
		}
		require.True(t, re.prog.laterKnown, pattern)
		for _, s := range inputs {
			want := func() [][]string {
				p := *re.prog
				p.laterKnown = false
				slow := *re
				slow.prog = &p
				return findAllRe(t, &slow, s)
			}()
			require.Equal(t, want, findAllRe(t, re, s), "%s on %q", pattern, s)
		}
	}
}

func findAllRe(t *testing.T, re *Regex, s string) [][]string {
	t.Helper()
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
