package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// A float literal in a plan (EXPLAIN) reads as its value's text: FLOAT's
// 32-bit digits, DOUBLE's 64-bit ones, in Java's form.
func TestFloatLiteralText(t *testing.T) {
	require.Equal(t, "0.1", (&Literal{Type: arrow.PrimitiveTypes.Float32, Float: float64(float32(0.1))}).String())
	require.Equal(t, "1.0E20", (&Literal{Type: f64, Float: 1e20}).String())
	require.Equal(t, "10.0", (&Literal{Type: f64, Float: 10}).String())
}
