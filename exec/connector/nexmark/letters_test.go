package nexmark

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/generator"
)

// TestAppendDrawnLettersIsIntNThenLetters checks the count drawn with the
// letters draws as IntN and then the letters do, powers of two included.
func TestAppendDrawnLettersIsIntNThenLetters(t *testing.T) {
	for seed := range uint64(2000) {
		base, span := int(seed%7), int(seed%13)
		r, ref := generator.NewPCG(seed, 9), generator.NewPCG(seed, 9)
		got := appendDrawnLetters([]byte("x"), &r, base, span)
		n := base
		if span > 0 {
			n += ref.IntN(span)
		}
		want := []byte("x")
		for range n {
			want = append(want, byte('a'+ref.IntN(26)))
		}
		require.Equal(t, string(want), string(got), "base %d span %d", base, span)
		require.Equal(t, ref, r)
	}
}
