package timeprecision

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

func TestAFieldCarriesAPrecisionBetweenUnits(t *testing.T) {
	ms := arrow.Field{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Metadata: arrow.NewMetadata([]string{"k"}, []string{"v"})}
	require.Equal(t, -1, Of(ms))
	two := With(ms, 2)
	require.Equal(t, 2, Of(two))
	require.Equal(t, "v", two.Metadata.Values()[two.Metadata.FindKey("k")], "other metadata kept")
	require.Equal(t, -1, Of(With(two, 3)), "the unit's own precision is not carried")
	require.Equal(t, -1, Of(With(two, -1)))
	require.Equal(t, -1, Of(With(arrow.Field{Type: arrow.BinaryTypes.String}, 2)), "only times carry one")
	require.Equal(t, "TIMESTAMP_LTZ(5)", Name("TIMESTAMP_LTZ(6)", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, 5))
	require.Equal(t, "TIME(1)", Name("TIME(3)", arrow.FixedWidthTypes.Time32ms, 1))
	require.Equal(t, "TIMESTAMP(3)", Name("TIMESTAMP(3)", &arrow.TimestampType{Unit: arrow.Millisecond}, -1))
}

// Flink writes TIMESTAMP(p) with the fraction's trailing zeros dropped
// down to p digits: .120 of a TIMESTAMP(2) is .12, .100 is .10, and a
// value finer than its type keeps its digits.
func TestTrimWritesFlinksDigits(t *testing.T) {
	texts := []string{"2024-01-01 00:00:01.120", "2024-01-01 00:00:01.100", "2024-01-01 00:00:01.123", "\"2024-01-01T00:00:01.000Z\"", "12:00:01.900", "2024-01-01 00:00:01.000+08:00"}
	app := func(dst []byte, i int) []byte { return append(dst, texts[i]...) }
	for _, c := range []struct {
		p    int
		want []string
	}{
		{2, []string{"2024-01-01 00:00:01.12", "2024-01-01 00:00:01.10", "2024-01-01 00:00:01.123", "\"2024-01-01T00:00:01.00Z\"", "12:00:01.90", "2024-01-01 00:00:01.00+08:00"}},
		{1, []string{"2024-01-01 00:00:01.12", "2024-01-01 00:00:01.1", "2024-01-01 00:00:01.123", "\"2024-01-01T00:00:01.0Z\"", "12:00:01.9", "2024-01-01 00:00:01.0+08:00"}},
		{0, []string{"2024-01-01 00:00:01.12", "2024-01-01 00:00:01.1", "2024-01-01 00:00:01.123", "\"2024-01-01T00:00:01Z\"", "12:00:01.9", "2024-01-01 00:00:01+08:00"}},
	} {
		trim := Trim(app, c.p)
		for i, want := range c.want {
			require.Equal(t, "x,"+want, string(trim([]byte("x,"), i)), "p=%d", c.p)
		}
	}
}
