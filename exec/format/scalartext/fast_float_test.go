package scalartext

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFastFloatEqualsStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	check := func(s string) {
		got, ok := FastFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if !ok {
			return // strconv decides
		}
		require.NoError(t, err, s)
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), s)
	}
	for _, s := range []string{"0", "-0", "+1", "1.", ".5", "-.5", "0.1", "0.3", "123456789012345", "1.00000000000001",
		"999999999999999", "0.000000000000001", "12.34", "1e5", "", ".", "-", "1.2.3", " 1", "inf", "NaN", "1234567890123456"} {
		check(s)
	}
	for range 200000 {
		digits := 1 + r.IntN(15)
		s := ""
		for range digits {
			s += string(rune('0' + r.IntN(10)))
		}
		if p := r.IntN(digits + 1); r.IntN(2) == 0 {
			s = s[:p] + "." + s[p:]
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		check(s)
	}
	_, ok := FastFloat([]byte("1234567890123456"))
	require.False(t, ok, "16 digits go to strconv")
}

func BenchmarkFloatParse(b *testing.B) {
	in := []byte("508.55")
	b.Run("fast", func(b *testing.B) {
		for range b.N {
			FastFloat(in)
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for range b.N {
			strconv.ParseFloat(string(in), 64)
		}
	})
}
