package scalartext

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Java's Double.toString (JDK 19+, shortest digits), which Flink uses for a
// DOUBLE's text in CAST, print, CSV and JSON.
func TestFormatDoubleAsJava(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: Go's constant arithmetic is exact
	cases := []struct {
		v    float64
		want string
	}{
		{1.0, "1.0"},
		{0.1, "0.1"},
		{100.0, "100.0"},
		{1e7, "1.0E7"},
		{-1e7, "-1.0E7"},
		{1.0e-4, "1.0E-4"},
		{123456.789, "123456.789"},
		{1e20, "1.0E20"},
		{1e21, "1.0E21"},
		{1e23, "1.0E23"},
		{2e23, "2.0E23"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{math.SmallestNonzeroFloat64, "4.9E-324"},
		{2 * math.SmallestNonzeroFloat64, "9.9E-324"},
		{2.2250738585072014e-308, "2.2250738585072014E-308"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{0.001, "0.001"},
		{0.00099, "9.9E-4"},
		{-0.0123, "-0.0123"},
		{1.234e-5, "1.234E-5"},
		{9999999.0, "9999999.0"},
		{1234567.0, "1234567.0"},
		{12.5, "12.5"},
		{1.0 / 3, "0.3333333333333333"},
		{tenth + fifth, "0.30000000000000004"},
		{3037367.1440000003, "3037367.1440000003"},
		{12345678.9, "1.23456789E7"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(AppendFloatValue(nil, c.v, 64)), "%v", c.v)
	}
}

// Java's Float.toString: the shortest digits of the 32-bit value.
func TestFormatFloatAsJava(t *testing.T) {
	cases := []struct {
		v    float32
		want string
	}{
		{0.1, "0.1"},
		{1.1, "1.1"},
		{1, "1.0"},
		{1e10, "1.0E10"},
		{16777216, "1.6777216E7"},
		{math.MaxFloat32, "3.4028235E38"},
		{math.SmallestNonzeroFloat32, "1.4E-45"},
		{-2.5e-4, "-2.5E-4"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(AppendFloatValue(nil, float64(c.v), 32)), "%v", c.v)
	}
}

func TestFormatDoubleAppendsWithoutAllocating(t *testing.T) {
	buf := make([]byte, 0, 64)
	values := []float64{1, 0.1, 1e20, 123456.789, 1.234e-5, math.MaxFloat64, math.Copysign(0, -1), 4.9e-324}
	allocs := testing.AllocsPerRun(100, func() {
		for _, v := range values {
			buf = AppendFloatValue(buf[:0], v, 64)
		}
	})
	require.Zero(t, allocs)
}
