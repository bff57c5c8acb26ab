package writer

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// A table sizes fixed-width columns before any data and right-aligns numbers.
func TestNaturalTextWidthAndAlignment(t *testing.T) {
	require.Equal(t, 23, naturalTextWidth(tsType))
	require.Equal(t, 12, naturalTextWidth(arrow.FixedWidthTypes.Time32ms))
	require.Equal(t, 0, naturalTextWidth(arrow.PrimitiveTypes.Float64))
	require.True(t, rightAligned(&arrow.Decimal128Type{Precision: 5, Scale: 2}))
	require.False(t, rightAligned(tsType))
}
