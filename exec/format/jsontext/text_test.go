package jsontext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A number with a fraction or an exponent is an integer's digits when its
// value is one; a huge exponent saturates instead of overflowing.
func TestIntegral(t *testing.T) {
	for _, c := range []struct{ in, out, msg string }{
		{"1e3", "1000", ""}, {"1.5e1", "15", ""}, {"100e-2", "1", ""}, {"-2.0", "-2", ""},
		{"1E+2", "100", ""}, {"0e99999999999999999999", "0", ""}, {"0.0", "0", ""},
		{"1e-1", "", "not an integer"}, {"1.5", "", "not an integer"},
		{"1e99999999999999999999", "", "value out of range"}, {"1e-99999999999999999999", "", "not an integer"},
	} {
		got, msg := Integral(nil, []byte(c.in))
		require.Equal(t, c.msg, msg, c.in)
		require.Equal(t, c.out, string(got), c.in)
	}
}

func TestUnescapeAndCompact(t *testing.T) {
	require.Equal(t, "a\"\\/\b\f\n\r\té😀\uFFFD", string(Unescape(nil, []byte(`a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800`))))
	require.Equal(t, `{"a":[1,2],"b":"x y"}`, string(Compact(nil, []byte(`{ "a" : [ 1 , 2 ] , "b" : "x y" }`))))
}
