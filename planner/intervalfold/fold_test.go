package intervalfold

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

// Flink's CAST(INTERVAL ... AS STRING): +2 00:00:00.000 and +1-02.
func TestText(t *testing.T) {
	require.Equal(t, "+2 00:00:00.000", Text(&sql.IntervalLiteral{Millis: 2 * 86_400_000}))
	require.Equal(t, "-0 01:02:03.004", Text(&sql.IntervalLiteral{Millis: -(3_723_004)}))
	require.Equal(t, "+1-02", Text(&sql.IntervalLiteral{Months: 14, YearMonth: true}))
	require.Equal(t, "-0-01", Text(&sql.IntervalLiteral{Months: -1, YearMonth: true}))
	require.Equal(t, "+0-00", Text(&sql.IntervalLiteral{YearMonth: true}))
}

func TestFold(t *testing.T) {
	year := &sql.IntervalLiteral{Months: 12, YearMonth: true, Text: "INTERVAL '1' YEAR"}
	day := &sql.IntervalLiteral{Millis: 86_400_000, Text: "INTERVAL '1' DAY"}
	three := &sql.Literal{Kind: sql.LitInt, Text: "3"}
	iv, ok, err := Fold(&sql.Binary{Op: "*", L: three, R: year})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(36), iv.Months)
	iv, ok, err = Fold(&sql.Unary{Op: "-", X: &sql.Binary{Op: "-", L: day, R: &sql.Binary{Op: "*", L: day, R: three}}})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(2*86_400_000), iv.Millis)
	_, ok, err = Fold(&sql.Binary{Op: "+", L: year, R: day})
	require.True(t, ok)
	require.ErrorContains(t, err, "year-month and a day-time")
	_, ok, _ = Fold(&sql.Binary{Op: "*", L: day, R: &sql.ColumnRef{Name: "gap"}})
	require.False(t, ok, "an interval times a column is a dynamic session gap, not a constant")
}
