package expr

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
		{DefaultTimestampFormat, "1970-01-01 00:00:01", 1000, true},
		{DefaultTimestampFormat, "1970-01-01 00:00:01.5", 1500, true},
		{DefaultTimestampFormat, "1969-12-31 23:59:59.999", -1, true},
		{DefaultTimestampFormat, "2024-02-30 00:00:00", 0, false},
		{DefaultTimestampFormat, "2024-02-29 24:00:00", 0, false},
		{DefaultTimestampFormat, "garbage", 0, false},
		{"yyyy/MM/dd HH:mm", "2024/3/1 09:05", 1709283900000, true},
		{"dd.MM.yyyy'T'HH:mm:ss.SSS", "01.03.2024T09:05:00.123", 1709283900123, true},
		{"yyyyMMddHHmmss", "20240301090500", 1709283900000, true},
		{"yyyyMMddHHmmss", "2024030109050", 0, false},
	}
	for _, c := range cases {
		l, err := compileTimestampLayout(c.format)
		require.NoError(t, err)
		ms, ok := l.parse(c.in)
		require.Equal(t, c.ok, ok, "%s %s", c.format, c.in)
		if ok {
			require.Equal(t, c.ms, ms, "%s %s", c.format, c.in)
		}
	}
	_, err := compileTimestampLayout("yyyy-MM-dd Z")
	require.ErrorContains(t, err, `pattern letter 'Z' is not supported`)
	_, err = compileTimestampLayout("yyyy-MM-ddTHH:mm:ss")
	require.EqualError(t, err, `timestamp format "yyyy-MM-ddTHH:mm:ss": pattern letter 'T' is not supported; `+
		`to match a literal T, quote it as ''T'' in the SQL string: 'yyyy-MM-dd''T''HH:mm:ss'`)
	_, err = compileTimestampLayout("yyyy'-'MM-ddTHH")
	require.ErrorContains(t, err, `'yyyy''-''MM-dd''T''HH'`)
	_, err = compileTimestampLayout("yyyy'T")
	require.ErrorContains(t, err, "unterminated quote")
}
