package diag

import "strings"

// A line up to caretWholeLine characters is shown whole under an error; a
// longer one is cut to caretWindow characters around the position, with
// "..." where it was cut, as DuckDB shows a long line: a 300-character
// one-line statement would wrap on the terminal and lose the caret.
const (
	caretWholeLine = 100
	caretWindow    = 80
)

// Caret returns line lineNo of src (counted from 1), followed by a line
// with a caret under its character col (counted from 1); "" when lineNo
// is not a line of src:
//
//	GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE)
//	              ^
//
// A long line is shown as a window around the position:
//
//	...unt > 10 AND usr <> 'bob' GROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE) HAVING C...
//	                                           ^
func Caret(src string, lineNo, col int) string {
	if lineNo < 1 {
		return ""
	}
	lines := strings.Split(src, "\n")
	if lineNo > len(lines) {
		return ""
	}
	line := []rune(strings.TrimRight(lines[lineNo-1], "\r"))
	at := col - 1 // the caret's character; len(line) is just past the end
	from, to := caretWindowOf(len(line), at)
	var shown, pad strings.Builder
	if from > 0 {
		shown.WriteString("...")
		pad.WriteString("   ")
	}
	shown.WriteString(string(line[from:to]))
	if to < len(line) {
		shown.WriteString("...")
	}
	for i := from; i < at; i++ {
		// a tab in the pad keeps the caret under the line's tab stops
		if i < len(line) && line[i] == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return shown.String() + "\n" + pad.String() + "^"
}

// caretWindowOf returns the characters [from, to) of an n-character line
// to show for a caret at character at: all of a short line, else
// caretWindow characters with at in the middle, or as near it as the
// line's ends allow.
func caretWindowOf(n, at int) (from, to int) {
	if n <= caretWholeLine {
		return 0, n
	}
	from = min(max(at-caretWindow/2, 0), n-caretWindow)
	return from, from + caretWindow
}
