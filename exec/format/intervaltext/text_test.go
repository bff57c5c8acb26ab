package intervaltext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Flink's text of intervals: CAST(INTERVAL '2' DAY AS STRING) is
// +2 00:00:00.000, CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING) +1-02.
func TestText(t *testing.T) {
	require.Equal(t, "+2 00:00:00.000", string(AppendDayTime(nil, 2*86_400_000)))
	require.Equal(t, "-0 01:02:03.004", string(AppendDayTime(nil, -3_723_004)))
	require.Equal(t, "+1-02", string(AppendYearMonth(nil, 14)))
	require.Equal(t, "-0-01", string(AppendYearMonth(nil, -1)))
	require.Equal(t, "+0-00", string(AppendYearMonth(nil, 0)))
	require.Equal(t, "+100 00:00:00.000", string(AppendDayTime(nil, 100*86_400_000)))
}
