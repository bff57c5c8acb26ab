package jsontext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// String, which tests eight bytes at a time, finds the same end as a
// byte-at-a-time reading (StringProblem's) for every body, wherever its
// special bytes fall in a word: each body is shifted by 0 to 15 bytes.
func TestStringMatchesByteByByte(t *testing.T) {
	bodies := []string{
		``, `a`, `abcdefg`, `abcdefgh`, `abcdefghi`, strings.Repeat("x", 40),
		`a\"b`, `\\`, `x\/y`, `\u00e9`, `\ud83d\ude00`, `\n\r\t\b\f`,
		"é", "😀 ok", "abcdefg\u00e9", "aaaaaaaaaaaaaaa\u20ac",
		"a\x01b", "\x1f", "abcdefgh\ttab", "\x7f del is plain",
		"\xff", "abcdefg\xc3", "abcdefgh\xc3\x28", "\xed\xa0\x80", // invalid UTF-8, a surrogate
		`\x`, `\u12`, `\u12g4`, `abc\`, "no end",
	}
	for _, body := range bodies {
		for shift := range 16 {
			for _, closing := range []string{`"`, `"}`, `","b":1}`} {
				line := `{"` + strings.Repeat("k", shift) + `":"` + body + closing
				start := strings.Index(line, `":"`) + 3
				if body == "no end" {
					line = line[:start+len(body)]
				}
				b := []byte(line)
				end, esc := String(b, start)
				at, msg := StringProblem(b, start)
				if msg != "" {
					require.Equal(t, -1, end, "%q: %s at %d", line, msg, at)
					continue
				}
				want, wantEsc := start, false
				for b[want] != '"' {
					if b[want] == '\\' {
						want, wantEsc = want+1, true
					}
					want++
				}
				require.Equal(t, want, end, "%q", line)
				require.Equal(t, wantEsc, esc, "%q", line)
			}
		}
	}
}

// StringProblem names the first problem of a string and where it is.
func TestStringProblem(t *testing.T) {
	for _, c := range []struct {
		in  string
		at  int
		msg string
	}{
		{`"abc`, 0, "unterminated string"},
		{`"abc\`, 0, "unterminated string"},
		{`"ab\x"`, 3, `invalid escape "\\x"`},
		{`"ab\u12"`, 3, `invalid \u escape`},
		{"\"abcdefghij\x01\"", 11, "control character in a string"},
		{"\"abcdefghij\xff\"", 11, "invalid UTF-8"},
		{`"fine"`, -1, ""},
	} {
		at, msg := StringProblem([]byte(c.in), 1)
		require.Equal(t, c.msg, msg, c.in)
		require.Equal(t, c.at, at, c.in)
	}
}
