package expr

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestExtract(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// 2024-02-29 13:45:12.345 (a Thursday), 1969-12-31 23:59:59.999 (a Wednesday), 2021-01-03 (a Sunday of ISO week 53)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, tsT, 1709214312345, -1, 1609632000000, nil))
	defer rec.Release()
	x := col(rec, 0)
	want := map[string][]string{
		"YEAR":        {"2024", "1969", "2021", "NULL"},
		"QUARTER":     {"1", "4", "1", "NULL"},
		"MONTH":       {"2", "12", "1", "NULL"},
		"DAY":         {"29", "31", "3", "NULL"},
		"DOY":         {"60", "365", "3", "NULL"},
		"DOW":         {"5", "4", "1", "NULL"},
		"ISODOW":      {"4", "3", "7", "NULL"},
		"WEEK":        {"9", "1", "53", "NULL"},
		"HOUR":        {"13", "23", "0", "NULL"},
		"MINUTE":      {"45", "59", "0", "NULL"},
		"SECOND":      {"12", "59", "0", "NULL"},
		"MILLISECOND": {"12345", "59999", "0", "NULL"},
		"EPOCH":       {"1709214312", "-1", "1609632000", "NULL"},
	}
	for unit, w := range want {
		require.Equal(t, w, texts(t, mem, &Extract{Unit: unit, X: x}, rec), unit)
	}
	// TIMESTAMP_LTZ in the session zone
	ltz := arrowtest.Batch(arrowtest.Array(t, mem, ltzT, 57_600_000))
	defer ltz.Release()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	require.Equal(t, []string{"0"}, texts(t, mem, &Extract{Unit: "HOUR", X: col(ltz, 0), Loc: shanghai}, ltz))
	require.Equal(t, []string{"2"}, texts(t, mem, &Extract{Unit: "DAY", X: col(ltz, 0), Loc: shanghai}, ltz))
}

func TestDateFormat(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, tsT, 1709214312345, -1, nil))
	defer rec.Release()
	for format, want := range map[string][]string{
		"yyyy-MM-dd HH:mm:ss":      {"2024-02-29 13:45:12", "1969-12-31 23:59:59", "NULL"},
		"yy/M/d H:m:s.SSS":         {"24/2/29 13:45:12.345", "69/12/31 23:59:59.999", "NULL"},
		"yyyyMMdd'T'HHmm":          {"20240229T1345", "19691231T2359", "NULL"},
		"dd.MM.yyyy 'at' HH 'h' S": {"29.02.2024 at 13 h 3", "31.12.1969 at 23 h 9", "NULL"},
	} {
		df, err := NewDateFormat(col(rec, 0), format, nil)
		require.NoError(t, err)
		require.Equal(t, want, texts(t, mem, df, rec), format)
	}
	_, err := NewDateFormat(col(rec, 0), "EEE yyyy", nil)
	require.ErrorContains(t, err, "not supported")
}

func TestUnixTimestamp(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, "1970-01-01 08:00:01", "garbage", nil))
	defer rec.Release()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	u, err := NewUnixTimestamp(col(rec, 0), DefaultTimestampFormat, shanghai)
	require.NoError(t, err)
	// Flink documents: "If the date time string can not be parsed, the
	// default value Long.MIN_VALUE(-9223372036854775808) will be returned."
	require.Equal(t, []string{"1", "-9223372036854775808", "NULL"}, texts(t, mem, u, rec))
}
