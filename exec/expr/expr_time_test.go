package expr

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/wsql/wsql/exec/expr/datepattern"

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
	_, err := NewDateFormat(col(rec, 0), "yyyy-MM-dd HH:mm z", nil)
	require.ErrorContains(t, err, "pattern letter 'z' is not supported: it names a time zone")
	_, err = NewDateFormat(col(rec, 0), "yyyy-MM-ddd", nil)
	require.ErrorContains(t, err, `too many pattern letters "ddd"`)
	_, err = NewDateFormat(col(rec, 0), "yyyy-MM-dd #", nil)
	require.ErrorContains(t, err, `'#' is reserved`)
	_, err = NewToTimestamp(col(rec, 0), "yyyy-MM-dd Q")
	require.ErrorContains(t, err, "pattern letter 'Q' is not supported when text is read")
	_, err = NewToTimestamp(col(rec, 0), "dd MMMMM yyyy")
	require.ErrorContains(t, err, "a one-letter name (MMMMM) cannot be read")
}

// TestDateFormatLetters: DATE_FORMAT writes every letter of Java's date
// patterns that a date-time without a zone has, as Flink's DATE_FORMAT
// (DateTimeFormatter, English names) does: DATE_FORMAT(ts, 'dd MMM yyyy')
// of 2024-03-01 is "01 Mar 2024".
func TestDateFormatLetters(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// 2024-03-01 09:05:00 (a Friday), 2024-02-29 13:45:12.345 (Thursday),
	// 1969-12-31 23:59:59.999 (Wednesday), 1970-01-01 00:00:00 (Thursday)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, tsT, 1709283900000, 1709214312345, -1, 0))
	defer rec.Release()
	for format, want := range map[string][]string{
		"dd MMM yyyy": {"01 Mar 2024", "29 Feb 2024", "31 Dec 1969", "01 Jan 1970"},
		"EEEE, MMMM d, yyyy h:mm a": {"Friday, March 1, 2024 9:05 AM", "Thursday, February 29, 2024 1:45 PM",
			"Wednesday, December 31, 1969 11:59 PM", "Thursday, January 1, 1970 12:00 AM"},
		"E EE EEE EEEEE MMMMM": {"Fri Fri Fri F M", "Thu Thu Thu T F", "Wed Wed Wed W D", "Thu Thu Thu T J"},
		"H k K h hh a":         {"9 9 9 9 09 AM", "13 13 1 1 01 PM", "23 23 11 11 11 PM", "0 24 0 12 12 AM"},
		"D DDD w W Y YYYY":     {"61 061 9 1 2024 2024", "60 060 9 5 2024 2024", "365 365 1 5 1970 1970", "1 001 1 1 1970 1970"},
		"Q QQ QQQ QQQQ G GGGG": {"1 01 Q1 1st quarter AD Anno Domini", "1 01 Q1 1st quarter AD Anno Domini",
			"4 04 Q4 4th quarter AD Anno Domini", "1 01 Q1 1st quarter AD Anno Domini"},
		"e c eee u F":      {"6 6 Fri 2024 1", "5 5 Thu 2024 1", "4 4 Wed 1969 3", "5 5 Thu 1970 1"},
		"SSSSSS n A":       {"000000 0 32700000", "345000 345000000 49512345", "999000 999000000 86399999", "000000 0 0"},
		"'o''clock' h, ''": {"o'clock 9, '", "o'clock 1, '", "o'clock 11, '", "o'clock 12, '"},
		"yyyy[-MM]":        {"2024-03", "2024-02", "1969-12", "1970-01"},
	} {
		df, err := NewDateFormat(col(rec, 0), format, nil)
		require.NoError(t, err, format)
		require.Equal(t, want, texts(t, mem, df, rec), format)
	}
	// a value is written into the column's reused buffer, allocating nothing
	l, err := datepattern.CompileFormat("EEEE, dd MMM yyyy hh:mm:ss.SSS a 'week' w")
	require.NoError(t, err)
	buf := make([]byte, 0, 64)
	require.Zero(t, testing.AllocsPerRun(100, func() { buf = l.Append(buf[:0], 1709214312345) }))
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

// TestDateFormatRuns: DATE_FORMAT formats a row only when it leaves the
// period of the row before; over runs of times in order, times out of
// order, NULLs between and a batch sliced from a bigger one, every text is
// the row's own, for patterns of a day, a minute, a second and a
// millisecond, and a pattern of no letter.
func TestDateFormatRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(5, 6))
	vals := make([]any, 3000)
	ms := int64(-2 * msPerDay)
	for i := range vals {
		switch k := r.IntN(20); {
		case k == 0:
			vals[i] = nil
			continue
		case k == 1:
			ms = r.Int64N(10*msPerDay) - 5*msPerDay // out of order
		default:
			ms += r.Int64N(40_000) // mostly the same day, often the same minute
		}
		vals[i] = ms
	}
	whole := arrowtest.Batch(arrowtest.Array(t, mem, tsT, vals...))
	defer whole.Release()
	rec := whole.NewSlice(7, 2900)
	defer rec.Release()
	for _, format := range []string{"yyyy-MM-dd", "HH:mm", "yyyy-MM-dd HH:mm:ss", "HH:mm:ss.SSS", "'day'", ""} {
		l, err := datepattern.CompileFormat(format)
		require.NoError(t, err)
		want := make([]string, rec.NumRows())
		for i := range want {
			if vals[7+i] == nil {
				want[i] = "NULL"
			} else {
				want[i] = string(l.Append(nil, vals[7+i].(int64)))
			}
		}
		df, err := NewDateFormat(col(rec, 0), format, nil)
		require.NoError(t, err)
		require.Equal(t, want, texts(t, mem, df, rec), format)
	}
}
