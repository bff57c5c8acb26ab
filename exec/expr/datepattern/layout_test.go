package datepattern

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTimestampLayouts(t *testing.T) {
	cases := []struct {
		format, in string
		ms         int64
		ok         bool
	}{
		{Default, "1970-01-01 00:00:01", 1000, true},
		{Default, "1970-01-01 00:00:01.5", 1500, true},
		{Default, "1969-12-31 23:59:59.999", -1, true},
		{Default, "2024-02-30 00:00:00", 0, false},
		{Default, "2024-02-29 24:00:00", 0, false},
		{Default, "garbage", 0, false},
		{"yyyy/MM/dd HH:mm", "2024/3/1 09:05", 1709283900000, true},
		{"dd.MM.yyyy'T'HH:mm:ss.SSS", "01.03.2024T09:05:00.123", 1709283900123, true},
		{"yyyyMMddHHmmss", "20240301090500", 1709283900000, true},
		{"yyyyMMddHHmmss", "2024030109050", 0, false},
		// names and the half-day hours, as DATE_FORMAT writes them
		{"dd MMM yyyy", "01 Mar 2024", 1709251200000, true},
		{"dd MMM yyyy", "01 March 2024", 0, false},
		{"EEEE, MMMM d, yyyy h:mm a", "Friday, March 1, 2024 9:05 AM", 1709283900000, true},
		{"EEEE, MMMM d, yyyy h:mm a", "Saturday, March 1, 2024 9:05 AM", 0, false}, // not that day
		{"EEE dd/MM/yyyy hh:mm a", "Fri 01/03/2024 12:30 AM", 1709253000000, true},
		{"EEE dd/MM/yyyy hh:mm a", "Fri 01/03/2024 12:30 PM", 1709296200000, true},
		{"EEE dd/MM/yyyy hh:mm a", "Fri 01/03/2024 13:30 PM", 0, false},
		{"yyyy-MM-dd kk:mm", "2024-03-01 24:00", 1709251200000, true},
		{"yyyy-MM-dd K:mm a", "2024-03-01 11:59 PM", 1709337540000, true},
	}
	for _, c := range cases {
		l, err := Compile(c.format)
		require.NoError(t, err)
		ms, ok := l.Parse(c.in)
		require.Equal(t, c.ok, ok, "%s %s", c.format, c.in)
		if ok {
			require.Equal(t, c.ms, ms, "%s %s", c.format, c.in)
		}
	}
	for format, want := range map[string]string{"EEE, dd MMM yyyy hh:mm:ss a": "Fri, 01 Mar 2024 09:05:00 AM", "'o''clock' yyyy": "o'clock 2024"} {
		// what DATE_FORMAT writes is read back
		l, err := Compile(format)
		require.NoError(t, err)
		ms, ok := l.Parse(want)
		require.True(t, ok, format)
		require.Equal(t, want, string(l.Append(nil, ms)), format)
	}
	_, err := Compile("yyyy-MM-dd Z")
	require.ErrorContains(t, err, `pattern letter 'Z' is not supported`)
	_, err = Compile("yyyy-MM-ddTHH:mm:ss")
	require.EqualError(t, err, `timestamp format "yyyy-MM-ddTHH:mm:ss": pattern letter 'T' is not supported; `+
		`to match a literal T, quote it as ''T'' in the SQL string: 'yyyy-MM-dd''T''HH:mm:ss'`)
	_, err = Compile("yyyy'-'MM-ddTHH")
	require.ErrorContains(t, err, `'yyyy''-''MM-dd''T''HH'`)
	_, err = Compile("yyyy'T")
	require.ErrorContains(t, err, "unterminated quote")
}
