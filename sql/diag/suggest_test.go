package diag

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// One rule for every suggestion: case ignored, one edit for a word of up to
// four characters, two up to eight, a third of the characters beyond; a
// swap of neighbours is one edit, a correctly spelled word gets none, ties
// go alphabetically.
func TestDidYouMeanRule(t *testing.T) {
	for _, c := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"amout", []string{"ts", "usr", "amount"}, "amount"},
		{"zzzzzz", []string{"ts", "usr", "amount"}, ""},
		{"kk", []string{"k", "v"}, "k"},               // short words: one edit
		{"kkk", []string{"k"}, ""},                    // two edits are too many for three letters
		{"FORM", []string{"FROM", "FORMAT"}, "FROM"},  // a swap is one edit
		{"SLIDE", []string{"SIZE", "OFFSET"}, "SIZE"}, // five letters: two edits
		{"cumulte", []string{"CUMULATE"}, "CUMULATE"}, // up to eight letters: two edits
		{"abcdefgh", []string{"abcdwxyz"}, ""},
		{"rows-per-sec", []string{"rows-per-second"}, "rows-per-second"}, // longer: a third of the letters
		{"rows-per", []string{"rows-per-second"}, ""},
		{"csv.ignore-parse-error", []string{"csv.ignore-parse-errors"}, "csv.ignore-parse-errors"},
		{"selct", []string{"SELECT"}, "SELECT"},      // case ignored
		{"PATH", []string{"path", "format"}, "path"}, // differs only in case: the case is the typo
		{"path", []string{"path", "PATH"}, ""},       // spelled right
		{"ab", []string{"cb", "aa", "ac"}, "aa"},     // ties: alphabetical, whatever the order given
		{"ab", []string{"ac", "aa", "cb"}, "aa"},
		{"straße", []string{"STRASSE", "STRAßE"}, "STRAßE"}, // characters, not bytes
	} {
		want := ""
		if c.want != "" {
			want = "; did you mean " + c.want + "?"
		}
		require.Equal(t, want, DidYouMean(c.word, c.candidates), "%s in %v", c.word, c.candidates)
	}
}

// A word longer than MaxSuggestLen gets no suggestion and costs no
// edit-distance work, even against a candidate as long as itself (the
// table would hold a million times a million cells); candidates of other
// lengths than a typo could explain are skipped without a table either.
func TestDidYouMeanBoundsItsWork(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	typo := long + "z"
	candidates := []string{"ts", long + "y", "amount"}
	require.Equal(t, "", DidYouMean(typo, candidates))
	require.Zero(t, testing.AllocsPerRun(3, func() { DidYouMean(typo, candidates) }))
	require.Equal(t, "", DidYouMean("ts", []string{long}))
	require.Zero(t, testing.AllocsPerRun(3, func() { DidYouMean("ts", []string{long}) }))
	require.Equal(t, "; did you mean amount?", DidYouMean("amout", candidates))
}
