package catalog

import "strings"

// MaxSuggestLen bounds the names Closest compares: edit distance costs the
// product of the two lengths, so a name longer than this (a pasted value,
// a generated name) gets no suggestion rather than minutes of work.
const MaxSuggestLen = 256

// Closest returns the candidate nearest to name by edit distance (ignoring
// case), or "" when none is close enough to be a plausible typo.
func Closest(name string, candidates []string) string {
	if len(name) > MaxSuggestLen {
		return ""
	}
	limit := max(1, len(name)/3) // the most edits a typo can have
	best, bestD := "", -1
	ln := strings.ToLower(name)
	for _, c := range candidates {
		if len(c) > 8*MaxSuggestLen {
			continue // too long to be a typo of name, even after lowering changes its length
		}
		lc := strings.ToLower(c)
		if diff := len(lc) - len(ln); diff > limit || -diff > limit {
			continue // the lengths alone differ by more edits than a typo has
		}
		d := editDistance(ln, lc)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// didYouMean formats Closest as a message suffix.
func didYouMean(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}

// DidYouMean is didYouMean for other packages' error messages.
func DidYouMean(name string, candidates []string) string { return didYouMean(name, candidates) }

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
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
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
