package driver_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TIMESTAMP(9) comes as a time.Time with its nanoseconds, BYTES as []byte,
// TIME(0) as its text, through database/sql.
func TestDriverPrecisionsAndBytes(t *testing.T) {
	ctx := context.Background()
	db, _ := driverDB(t)
	csv := writeDriverFile(t, "p.csv", "2024-03-01 12:00:00.123456789,AAEC,12:00:01.5\n,,\n")
	_, err := db.ExecContext(ctx, `CREATE TABLE t (t9 TIMESTAMP(9), b BYTES, tm TIME)
	  WITH ('connector' = 'filesystem', 'format' = 'csv', 'path' = ?)`, csv)
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, "SELECT t9, b, tm FROM t")
	require.NoError(t, err)
	defer rows.Close()
	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	var got []string
	for _, ct := range types {
		got = append(got, ct.DatabaseTypeName()+" "+ct.ScanType().String())
	}
	require.Equal(t, []string{"TIMESTAMP(9) time.Time", "BYTES []uint8", "TIME(0) string"}, got)
	require.True(t, rows.Next())
	var t9 time.Time
	var b []byte
	var tm string
	require.NoError(t, rows.Scan(&t9, &b, &tm))
	require.Equal(t, time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.UTC), t9.UTC())
	require.Equal(t, []byte{0, 1, 2}, b)
	require.Equal(t, "12:00:01", tm)
	require.True(t, rows.Next())
	var vals [3]any
	require.NoError(t, rows.Scan(&vals[0], &vals[1], &vals[2]))
	require.Equal(t, [3]any{nil, nil, nil}, vals)
	require.False(t, rows.Next())
}
