package driver_test

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every scalar type and both interval kinds scan into their Go types
// through database/sql (wsql's TestEveryTypeRoundTrips does the same for
// Rows.Scan and the result formats); NULL scans into nil pointers and
// sql.Null types.
func TestDriverScansEveryType(t *testing.T) {
	at := func(ns int) time.Time { return time.Date(2024, 3, 1, 12, 0, 1, ns, time.UTC) }
	cases := []struct {
		name, decl, expr, text string
		dbType                 string // DatabaseTypeName
		dest                   func() any
		want                   any
	}{
		{"ti", "TINYINT", "", "-8", "TINYINT", func() any { return new(int8) }, int8(-8)},
		{"si", "SMALLINT", "", "300", "SMALLINT", func() any { return new(int16) }, int16(300)},
		{"i", "INT", "", "-70000", "INT", func() any { return new(int32) }, int32(-70000)},
		{"bi", "BIGINT", "", "9000000000", "BIGINT", func() any { return new(int64) }, int64(9000000000)},
		{"f", "FLOAT", "", "1.5", "FLOAT", func() any { return new(float32) }, float32(1.5)},
		{"d", "DOUBLE", "", "0.1", "DOUBLE", func() any { return new(float64) }, 0.1},
		{"dec", "DECIMAL(12, 3)", "", "12345.678", "DECIMAL(12, 3)", func() any { return new(string) }, "12345.678"},
		{"decf", "DECIMAL(5, 2)", "", "-1.25", "DECIMAL(5, 2)", func() any { return new(float64) }, -1.25},
		{"b", "BOOLEAN", "", "true", "BOOLEAN", func() any { return new(bool) }, true},
		{"s", "STRING", "", `"a, ""quoted"" text"`, "STRING", func() any { return new(string) }, `a, "quoted" text`},
		{"c", "CHAR(3)", "", "ab", "STRING", func() any { return new(string) }, "ab"},
		{"vb", "VARBINARY(4)", "", "/w==", "BYTES", func() any { return new([]byte) }, []byte{0xff}},
		{"dt", "DATE", "", "2024-02-29", "DATE", func() any { return new(time.Time) }, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"t3", "TIME(3)", "", "23:59:59.999", "TIME(3)", func() any { return new(string) }, "23:59:59.999"},
		{"ts0", "TIMESTAMP(0)", "", "2024-03-01 12:00:01", "TIMESTAMP(0)", func() any { return new(time.Time) }, at(0)},
		{"ts6", "TIMESTAMP(6)", "", "2024-03-01 12:00:01.123456", "TIMESTAMP(6)", func() any { return new(time.Time) }, at(123456000)},
		{"ts2", "TIMESTAMP(2)", "", "2024-03-01 12:00:01.12", "TIMESTAMP(2)", func() any { return new(time.Time) }, at(120000000)},
		{"ltz9", "TIMESTAMP_LTZ(9)", "", "2024-03-01 12:00:01.123456789", "TIMESTAMP_LTZ(9)", func() any { return new(time.Time) }, at(123456789)},
		{"dts", "", "INTERVAL '1' SECOND * ti", "", "INTERVAL DAY TO SECOND(3)", func() any { return new(time.Duration) }, -8 * time.Second},
		{"ym", "", "INTERVAL '1' MONTH * si", "", "INTERVAL YEAR TO MONTH", func() any { return new(int) }, 300},
	}
	var decls, items, row, nulls []string
	for _, c := range cases {
		if c.decl == "" {
			items = append(items, c.expr+" AS "+c.name)
			continue
		}
		decls = append(decls, "`"+c.name+"` "+c.decl)
		items = append(items, "`"+c.name+"`")
		row = append(row, c.text)
		nulls = append(nulls, "")
	}
	ctx := context.Background()
	db, _ := driverDB(t)
	path := writeDriverFile(t, "types.csv", strings.Join(row, ",")+"\n"+strings.Join(nulls, ",")+"\n")
	_, err := db.ExecContext(ctx, "SET 'table.local-time-zone' = 'UTC'")
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "CREATE TABLE types ("+strings.Join(decls, ", ")+") WITH ('connector' = 'filesystem', 'format' = 'csv', 'path' = ?)", path)
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, "SELECT "+strings.Join(items, ", ")+" FROM types")
	require.NoError(t, err)
	defer rows.Close()
	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	dests, ptrs := make([]any, len(cases)), make([]any, len(cases))
	for i, c := range cases {
		require.Equal(t, c.dbType, types[i].DatabaseTypeName(), c.name)
		dests[i] = c.dest()
		ptrs[i] = reflect.New(reflect.PointerTo(reflect.TypeOf(dests[i]).Elem())).Interface()
	}
	require.True(t, rows.Next())
	require.NoError(t, rows.Scan(dests...))
	for i, c := range cases {
		got := reflect.ValueOf(dests[i]).Elem().Interface()
		if tm, ok := got.(time.Time); ok {
			require.Truef(t, c.want.(time.Time).Equal(tm), "%s: %s", c.name, tm)
			continue
		}
		require.Equal(t, c.want, got, c.name)
	}
	require.True(t, rows.Next())
	require.NoError(t, rows.Scan(ptrs...))
	for i, c := range cases {
		require.True(t, reflect.ValueOf(ptrs[i]).Elem().IsNil(), c.name)
	}
	require.False(t, rows.Next())
	require.NoError(t, rows.Err())

	var span sql.Null[time.Duration]
	require.NoError(t, db.QueryRowContext(ctx, "SELECT INTERVAL '90' MINUTE").Scan(&span))
	require.Equal(t, sql.Null[time.Duration]{V: 90 * time.Minute, Valid: true}, span)
}
