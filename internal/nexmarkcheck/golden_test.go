package nexmarkcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// golden is what a query's .out file says: the rows its changelog leaves
// (each +I and +U adds a row, each -U and -D removes an equal one), the
// late rows its summary counts, or the error that stops it.
type golden struct {
	rows   multiset // the materialised result, a row as the text in its brackets
	late   int64    // late rows dropped, over all summaries
	err    string   // the first line of the error; "" when the query runs
	broken string   // a retraction of a row not there: the changelog is inconsistent
}

// multiset counts rows by their text.
type multiset map[string]int

var summaryLate = regexp.MustCompile(`^-- \d+ rows read, (\d+) late rows dropped`)

// parseGolden reads the print sink's lines (`+I[...]`), the summaries
// (`-- N rows read, L late rows dropped, ...`) and an error (`error: ...`).
func parseGolden(text string) golden {
	g := golden{rows: multiset{}}
	for i, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "error: "):
			if g.err == "" {
				g.err = line
			}
		case strings.HasPrefix(line, "-- "):
			if m := summaryLate.FindStringSubmatch(line); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				g.late += n
			}
		case len(line) > 3 && line[2] == '[' && strings.HasSuffix(line, "]"):
			row := line[3 : len(line)-1]
			switch line[:2] {
			case "+I", "+U":
				g.rows[row]++
			case "-U", "-D":
				if g.rows[row] == 0 && g.broken == "" {
					g.broken = fmt.Sprintf("line %d retracts a row that is not there: %s", i+1, line)
				}
				if g.rows[row]--; g.rows[row] <= 0 {
					delete(g.rows, row)
				}
			}
		}
	}
	return g
}

// diff lists the rows one multiset has more of than the other, at most
// limit lines of each side, sorted; "" when they are equal.
func diff(golden, reference multiset, limit int) string {
	var only [2][]string
	var rows [2]int
	for i, pair := range [2][2]multiset{{golden, reference}, {reference, golden}} {
		for row, n := range pair[0] {
			if extra := n - pair[1][row]; extra > 0 {
				rows[i] += extra
				text := "[" + row + "]"
				if extra > 1 {
					text += fmt.Sprintf(" (%d times)", extra)
				}
				only[i] = append(only[i], text)
			}
		}
	}
	if len(only[0])+len(only[1]) == 0 {
		return ""
	}
	var b strings.Builder
	for i, side := range []string{"only in the golden", "only in DuckDB's result"} {
		slices.Sort(only[i])
		fmt.Fprintf(&b, "%d rows %s:\n", rows[i], side)
		for j, row := range only[i] {
			if j == limit {
				fmt.Fprintf(&b, "  ... %d more\n", len(only[i])-limit)
				break
			}
			fmt.Fprintf(&b, "  %s\n", row)
		}
	}
	return b.String()
}

func count(m multiset) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}
