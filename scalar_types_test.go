package wsql

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TIMESTAMP(9), TIMESTAMP_LTZ(6), TIME(0) and BYTES reach Go as time.Time
// (with their nanoseconds), the TIME's text and []byte, through Rows.Scan.
func TestScalarTypesThroughGoAPI(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := New(WithAllocator(mem))
	defer e.Close()
	src := `CREATE TABLE samples (ts TIMESTAMP(3), t9 TIMESTAMP(9), t6 TIMESTAMP_LTZ(6), tm TIME, tm3 TIME(3), k STRING)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/timestamp_precision.csv', 'format' = 'csv');
		CREATE TABLE blobs (ts TIMESTAMP(3), b BYTES, v VARBINARY(16), s STRING)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bytes_and_lengths.csv', 'format' = 'csv');`
	require.NoError(t, e.Run(context.Background(), src, Output{}))

	rows, err := e.Query(context.Background(), `SELECT t9, t6, tm, tm3, CAST(t9 AS TIMESTAMP(0)) FROM samples`)
	require.NoError(t, err)
	require.True(t, rows.NextRow())
	var t9, t6, t0 time.Time
	var tm, tm3 string
	require.NoError(t, rows.Scan(&t9, &t6, &tm, &tm3, &t0))
	require.Equal(t, time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.UTC), t9.UTC())
	require.Equal(t, time.Date(2024, 3, 1, 12, 0, 0, 987654000, time.UTC), t6.UTC())
	require.Equal(t, "12:00:01", tm)
	require.Equal(t, "12:00:01.250", tm3)
	require.Equal(t, time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC), t0.UTC())
	require.NoError(t, rows.Close())

	rows, err = e.Query(context.Background(), `SELECT b, CAST(s AS BYTES), X'0a0b' FROM blobs`)
	require.NoError(t, err)
	require.True(t, rows.NextRow())
	var b, utf8, lit []byte
	require.NoError(t, rows.Scan(&b, &utf8, &lit))
	require.Equal(t, []byte{0, 1, 2}, b)
	require.Equal(t, []byte("abc"), utf8)
	require.Equal(t, []byte{0x0a, 0x0b}, lit)
	require.True(t, rows.NextRow())
	var null *[]byte
	require.NoError(t, rows.Scan(&null, &utf8, &lit))
	require.Nil(t, null, "a NULL BYTES scans into a nil pointer")
	require.Equal(t, []byte("héllo wörld"), utf8)
	require.NoError(t, rows.Close())
}

// Pushed from Go, a time.Time keeps the precision of its column.
func TestPushedTimestampsKeepPrecision(t *testing.T) {
	ctx := context.Background()
	e := New()
	defer e.Close()
	tbl, err := e.CreatePushTable(ctx, `CREATE TABLE pushed (t9 TIMESTAMP(9), t0 TIMESTAMP(0), tm TIME, b BYTES)`)
	require.NoError(t, err)
	at := time.Date(2024, 3, 1, 12, 0, 1, 123456789, time.UTC)
	require.NoError(t, tbl.AppendRow(ctx, at, at, at, []byte{0xff}))
	require.NoError(t, tbl.Close())
	var out []string
	rows, err := e.Query(ctx, `SELECT CAST(t9 AS STRING), CAST(t0 AS STRING), CAST(tm AS STRING), b FROM pushed`)
	require.NoError(t, err)
	for rows.NextRow() {
		var a, b, c string
		var by []byte
		require.NoError(t, rows.Scan(&a, &b, &c, &by))
		out = append(out, a, b, c, string(by))
	}
	require.NoError(t, rows.Close())
	require.Equal(t, []string{"2024-03-01 12:00:01.123456789", "2024-03-01 12:00:01", "12:00:01", "\xff"}, out)
}
