package diag

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// A short line is shown whole with the caret under the position; tabs are
// copied into the pad so the caret keeps to the line's tab stops.
func TestCaretShortLineWhole(t *testing.T) {
	src := "SELECT a\nFROM t\tWHERE b = 1"
	require.Equal(t, "FROM t\tWHERE b = 1\n      \t^", Caret(src, 2, 8))
	require.Equal(t, "SELECT a\n^", Caret(src, 1, 1))
	require.Equal(t, "SELECT a\n        ^", Caret(src, 1, 9)) // just past the end
	require.Equal(t, "", Caret(src, 0, 0))
	require.Equal(t, "", Caret(src, 3, 1))

	line := strings.Repeat("x", caretWholeLine) // the longest line shown whole
	require.Equal(t, line+"\n"+strings.Repeat(" ", 99)+"^", Caret(line, 1, 100))
}

// A long line is cut to a window around the position, "..." on each cut
// side, and the caret stays under the character the position names:
// at the start, in the middle, at the end and just past it, after tabs
// and multi-byte characters (columns count characters).
func TestCaretLongLineWindow(t *testing.T) {
	// 300 characters: a digit per position, with tabs and multi-byte text
	// at the start and in the middle
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < 300; i++ {
		switch i {
		case 3, 150:
			b.WriteString("\t")
		case 5, 140:
			b.WriteString("é")
		case 145:
			b.WriteString("日本")
		default:
			b.WriteByte(byte('0' + i%10))
		}
	}
	line := []rune(b.String())
	src := "SELECT 1;\n" + string(line) + "\nSELECT 2;"

	for _, c := range []struct {
		name       string
		col        int // 1-based, in characters
		cutBefore  bool
		cutAfter   bool
		wantBefore string // the text shown left of the caret, if asserted
	}{
		{name: "start", col: 1, cutAfter: true},
		{name: "after a tab and é near the start", col: 8, cutAfter: true},
		{name: "middle, after é, 日本 and a tab", col: 152, cutBefore: true, cutAfter: true},
		{name: "last character", col: 300, cutBefore: true},
		{name: "past the end", col: 301, cutBefore: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Caret(src, 2, c.col)
			shown, pad, ok := strings.Cut(got, "\n")
			require.True(t, ok)
			require.False(t, strings.Contains(pad, "\n"))
			require.Equal(t, c.cutBefore, strings.HasPrefix(shown, "..."), "%q", shown)
			require.Equal(t, c.cutAfter, strings.HasSuffix(shown, "..."), "%q", shown)
			require.LessOrEqual(t, utf8.RuneCountInString(shown), caretWindow+6)

			// the caret is the pad's last character; each character of the
			// pad stands for one of the line shown, a tab for a tab
			require.True(t, strings.HasSuffix(pad, "^"))
			padRunes := []rune(strings.TrimSuffix(pad, "^"))
			shownRunes := []rune(shown)
			for i, r := range padRunes {
				if r == '\t' {
					require.Equal(t, '\t', shownRunes[i])
				} else {
					require.Equal(t, ' ', r)
					require.NotEqual(t, '\t', shownRunes[i])
				}
			}
			under := len(padRunes)
			if c.col <= len(line) {
				// the text from the caret on is the line's from the position on
				rest := strings.TrimSuffix(string(shownRunes[under:]), "...")
				require.True(t, strings.HasPrefix(string(line[c.col-1:]), rest), "caret under %q, want under %q", rest, string(line[c.col-1:]))
				require.NotEmpty(t, rest)
			} else {
				require.Equal(t, len(shownRunes), under) // just past the last character
			}
			// the position is near the middle of the window when the line allows
			if c.cutBefore && c.cutAfter {
				require.Equal(t, 3+caretWindow/2, under)
			}
		})
	}
}

// The window as it reads: DuckDB's "..." on both sides of a one-line
// statement, the caret under the misspelled name.
func TestCaretLongStatement(t *testing.T) {
	src := "SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS biggest FROM clicks WHERE amount > 10 AND usr <> 'bob' GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE) HAVING COUNT(*) > 1 AND SUM(amount) > 100"
	col := strings.Index(src, "TUMBEL") + 1
	require.Equal(t,
		"...unt > 10 AND usr <> 'bob' GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE) HAVING C...\n"+
			"                                           ^",
		Caret(src, 1, col))
}
