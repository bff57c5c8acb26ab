package sql

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// maxSuggestLen bounds the words suggest compares: edit distance costs the
// product of the two lengths, and no candidate (a keyword, a unit, a type
// name) is anywhere near this long, so a longer word is no typo of one.
const maxSuggestLen = 64

// suggest returns ", did you mean X?" naming the candidate closest to word
// when it is a plausible typo (at most two edits, and fewer than half the
// letters), or "" otherwise.
func suggest(word string, candidates []string) string {
	if len(word) > 4*maxSuggestLen || utf8.RuneCountInString(word) > maxSuggestLen {
		return ""
	}
	word = strings.ToUpper(word)
	best, bestDist := "", 3
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return "" // a correctly spelled word is no typo
		}
	}
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted) // ties resolve the same way every run
	n := utf8.RuneCountInString(word)
	for _, c := range sorted {
		if abs(utf8.RuneCountInString(c)-n) >= bestDist {
			continue // the lengths alone differ by more edits than would do
		}
		d := editDistance(word, strings.ToUpper(c))
		if d > 0 && d < bestDist && 2*d < len(word) {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return ", did you mean " + best + "?"
}

// editDistance is the Damerau-Levenshtein distance (with adjacent
// transpositions, the commonest typo: FORM for FROM).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
