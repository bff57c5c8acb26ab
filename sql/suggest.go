package sql

import "github.com/wsql/wsql/sql/diag"

// DidYouMean returns "; did you mean X?" naming the candidate word is a
// plausible typo of, or "" when there is none: diag.DidYouMean, the one
// rule for every suggestion.
func DidYouMean(word string, candidates []string) string {
	return diag.DidYouMean(word, candidates)
}
