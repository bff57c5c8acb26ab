package diag

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// MaxSuggestLen bounds the words DidYouMean compares, in characters: edit
// distance costs the product of the two lengths, so a longer word (a
// pasted value, a generated name) gets no suggestion rather than minutes
// of work.
const MaxSuggestLen = 256

// DidYouMean returns "; did you mean X?" naming the candidate word is a
// plausible typo of, or "" when there is none. It is the one rule for
// every suggestion, keywords and names alike:
//
//   - a word that is one of the candidates is spelled right: no suggestion;
//   - otherwise the candidate the fewest edits away, ignoring case, where
//     an edit inserts, deletes or replaces a character or swaps two
//     neighbours (FORM for FROM is one edit): at most one edit for a word
//     of up to four characters, two for up to eight, and a third of the
//     characters for a longer one; a candidate differing only in case is
//     zero edits away (option keys are case-sensitive);
//   - ties go to the candidate first in alphabetical order.
//
// Callers comparing case-insensitive keywords pass the word upper-cased.
func DidYouMean(word string, candidates []string) string {
	if c := closest(word, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}

// maxTypoEdits is the most edits a typo of an n-character word has.
func maxTypoEdits(n int) int {
	switch {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return n / 3
}

// closest is DidYouMean's candidate. Candidates whose length alone is
// further off than a typo could be are skipped before anything is
// allocated.
func closest(word string, candidates []string) string {
	if len(word) > utf8.UTFMax*MaxSuggestLen {
		return ""
	}
	n := utf8.RuneCountInString(word)
	if n > MaxSuggestLen || slices.Contains(candidates, word) {
		return ""
	}
	limit := maxTypoEdits(n)
	var w []rune // word folded, made once a candidate needs it
	best, bestD := "", limit
	for _, c := range candidates {
		if len(c) > utf8.UTFMax*(n+limit) {
			continue // more characters than a typo could add
		}
		if d := utf8.RuneCountInString(c) - n; d > bestD || -d > bestD {
			continue
		}
		if w == nil {
			w = foldRunes(word)
		}
		d := editDistance(w, foldRunes(c))
		if d <= limit && (best == "" || d < bestD || (d == bestD && c < best)) {
			best, bestD = c, d
		}
	}
	return best
}

// foldRunes is s's characters upper-cased, for comparing without case.
func foldRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToUpper(c)
	}
	return r
}

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment: insertions, deletions, replacements and swaps of adjacent
// characters, the commonest typo), in three rows of the table.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
