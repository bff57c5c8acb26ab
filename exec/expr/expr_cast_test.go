package expr

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

func TestCastNumbers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, f64, 1.9, -1.9, math.NaN(), 1e20, -1e20, 300.0, nil))
	decs := arrowtest.Batch(arrowtest.Array(t, mem, f64, 1.25, -1.25, 2.675, math.NaN(), 1e20, nil))
	defer decs.Release()
	defer rec.Release()
	x := col(rec, 0)
	// Java: truncate toward zero, NaN → 0, saturate
	require.Equal(t, []string{"1", "-1", "0", "2147483647", "-2147483648", "300", "NULL"}, texts(t, mem, &Cast{X: x, To: i32}, rec))
	require.Equal(t, []string{"1", "-1", "0", "9223372036854775807", "-9223372036854775808", "300", "NULL"}, texts(t, mem, &Cast{X: x, To: i64}, rec))
	// narrower than int: through int, then wrapped ((byte) 300.0 = 44)
	require.Equal(t, []string{"1", "-1", "0", "-1", "0", "44", "NULL"}, texts(t, mem, &Cast{X: x, To: arrow.PrimitiveTypes.Int8}, rec))
	require.Equal(t, []string{"true", "true", "true", "true", "true", "true", "NULL"}, texts(t, mem, &Cast{X: x, To: boo}, rec))
	dec := &arrow.Decimal128Type{Precision: 5, Scale: 1}
	// half up in the printed digits; NaN and 1e20 do not fit DECIMAL(5, 1): NULL as in Flink
	require.Equal(t, []string{"1.3", "-1.3", "2.7", "NULL", "NULL", "NULL"}, texts(t, mem, &Cast{X: col(decs, 0), To: dec}, decs))
}

func TestCastToString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, boo, true, false, nil), arrowtest.Array(t, mem, ltzT, 0, 1500, nil), arrowtest.Array(t, mem, f64, 1.5, 3.0, nil))
	defer rec.Release()
	require.Equal(t, []string{"TRUE", "FALSE", "NULL"}, texts(t, mem, &Cast{X: col(rec, 0), To: str}, rec))
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	require.Equal(t, []string{"1970-01-01 08:00:00.000", "1970-01-01 08:00:01.500", "NULL"}, texts(t, mem, &Cast{X: col(rec, 1), To: str, Loc: shanghai}, rec))
	require.Equal(t, []string{"1.5", "3.0", "NULL"}, texts(t, mem, &Cast{X: col(rec, 2), To: str}, rec))

	// Flink's CAST(DOUBLE AS STRING) is Java's Double.toString, FLOAT's Float.toString
	doubles := arrowtest.Batch(arrowtest.Array(t, mem, f64, 1e20, 1e-4, math.Copysign(0, -1), math.NaN(), math.Inf(-1), 1234567.0, 1e7),
		arrowtest.Array(t, mem, arrow.PrimitiveTypes.Float32, 0.1, 1e10, 1.5, 0, 3.4028235e38, 1.4e-45, 16777216))
	defer doubles.Release()
	require.Equal(t, []string{"1.0E20", "1.0E-4", "-0.0", "NaN", "-Infinity", "1234567.0", "1.0E7"},
		texts(t, mem, &Cast{X: col(doubles, 0), To: str}, doubles))
	require.Equal(t, []string{"0.1", "1.0E10", "1.5", "0.0", "3.4028235E38", "1.4E-45", "1.6777216E7"},
		texts(t, mem, &Cast{X: col(doubles, 1), To: str}, doubles))
}

func TestCastFromString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, str, " 42 ", "-7.9", nil))
	defer rec.Release()
	require.Equal(t, []string{"42", "-7", "NULL"}, texts(t, mem, &Cast{X: col(rec, 0), To: i32}, rec))
	require.Equal(t, []string{"42.0", "-7.9", "NULL"}, texts(t, mem, &Cast{X: col(rec, 0), To: f64}, rec))

	bad := arrowtest.Batch(arrowtest.Array(t, mem, str, "1", "abc"))
	defer bad.Release()
	_, err := (&Cast{X: col(bad, 0), To: i32}).Eval(bad, mem)
	require.ErrorIs(t, err, ErrEval)
	require.ErrorContains(t, err, `cannot read "abc"`)
	big := arrowtest.Batch(arrowtest.Array(t, mem, str, "300"))
	defer big.Release()
	_, err = (&Cast{X: col(big, 0), To: arrow.PrimitiveTypes.Int8}).Eval(big, mem)
	require.ErrorIs(t, err, ErrEval)

	bools := arrowtest.Batch(arrowtest.Array(t, mem, str, "true", "Y", "0", "no", nil))
	defer bools.Release()
	require.Equal(t, []string{"true", "true", "false", "false", "NULL"}, texts(t, mem, &Cast{X: col(bools, 0), To: boo}, bools))

	times := arrowtest.Batch(arrowtest.Array(t, mem, str, "2024-03-01 10:20:30", "2024-03-01", "2024-03-01T10:20:30.5", "1969-12-31 23:59:59.999"))
	defer times.Release()
	require.Equal(t, []string{"2024-03-01 10:20:30.000", "2024-03-01 00:00:00.000", "2024-03-01 10:20:30.500", "1969-12-31 23:59:59.999"},
		texts(t, mem, &Cast{X: col(times, 0), To: tsT}, times))
	dates := arrowtest.Batch(arrowtest.Array(t, mem, str, "2024-03-01", "1969-12-31"))
	defer dates.Release()
	require.Equal(t, []string{"2024-03-01", "1969-12-31"}, texts(t, mem, &Cast{X: col(dates, 0), To: arrow.FixedWidthTypes.Date32}, dates))
}

func TestCastTimes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Batch(arrowtest.Array(t, mem, tsT, -1, 86_400_000+5), arrowtest.Array(t, mem, ltzT, 0, 57_600_000))
	defer rec.Release()
	date := arrow.FixedWidthTypes.Date32
	require.Equal(t, []string{"1969-12-31", "1970-01-02"}, texts(t, mem, &Cast{X: col(rec, 0), To: date}, rec))
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	// an instant's date and wall time in the session zone
	require.Equal(t, []string{"1970-01-01", "1970-01-02"}, texts(t, mem, &Cast{X: col(rec, 1), To: date, Loc: shanghai}, rec))
	require.Equal(t, []string{"1970-01-01 08:00:00.000", "1970-01-02 00:00:00.000"}, texts(t, mem, &Cast{X: col(rec, 1), To: tsT, Loc: shanghai}, rec))
	back := &Cast{X: &Cast{X: col(rec, 1), To: tsT, Loc: shanghai}, To: ltzT, Loc: shanghai}
	require.Equal(t, []string{"1970-01-01 00:00:00.000", "1970-01-01 16:00:00.000"}, texts(t, mem, back, rec))
}
