package wsql_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// typedRow has a field per column of typesDDL, matched by tag, by name
// ignoring case, and pointers for the columns that may be NULL.
type typedRow struct {
	Big     int64 `wsql:"b"`
	I       *int
	S       int16
	T       int8
	D       *float64
	F       float32
	Text    *string `wsql:"STR"`
	OK      *bool
	TS      *time.Time
	LTZ     *time.Time
	Price   *string
	Skipped string `wsql:"-"`
}

func TestCollectStructs(t *testing.T) {
	rows := typedRows(t, "SELECT * FROM vals", fullRow, []any{int64(3), nil, int16(1), int8(2), nil, float32(1), nil, nil, nil, nil, nil})
	got, err := wsql.Collect[typedRow](rows)
	require.NoError(t, err)
	require.Len(t, got, 2)
	g := got[0]
	require.Equal(t, int64(1)<<40, g.Big)
	require.Equal(t, -7, *g.I)
	require.Equal(t, int16(300), g.S)
	require.Equal(t, 2.5, *g.D)
	require.Equal(t, "héllo", *g.Text)
	require.True(t, *g.OK)
	require.Equal(t, scanTS, *g.TS)
	require.Equal(t, "2024-03-01T18:00:00.123+09:00", g.LTZ.Format(time.RFC3339Nano))
	require.Equal(t, "12.50", *g.Price)
	require.Equal(t, typedRow{Big: 3, S: 1, T: 2, F: 1}, got[1])
	require.Equal(t, int64(2), rows.Summary().ResultRows)
}

func TestCollectPointersAndScalars(t *testing.T) {
	type pair struct {
		N   int64 `wsql:"b"`
		Str string
	}
	rows := typedRows(t, "SELECT b, str FROM vals", fullRow)
	got, err := wsql.Collect[*pair](rows)
	require.NoError(t, err)
	require.Equal(t, []*pair{{N: 1 << 40, Str: "héllo"}}, got)

	ts, err := wsql.Collect[time.Time](typedRows(t, "SELECT ltz FROM vals", fullRow, fullRow))
	require.NoError(t, err)
	require.Len(t, ts, 2)
	require.True(t, ts[1].Equal(scanTS))

	_, err = wsql.Collect[int64](typedRows(t, "SELECT b, i FROM vals", fullRow))
	require.EqualError(t, err, "wsql: a row of 2 columns (b BIGINT, i INT) does not go into a int64; read it into a struct with a field per column")
}

func TestCollectErrors(t *testing.T) {
	type noDec struct {
		B   int64
		Str string
	}
	_, err := wsql.Collect[noDec](typedRows(t, "SELECT b, str, price FROM vals", fullRow))
	require.EqualError(t, err, "wsql: struct wsql_test.noDec has no field for column \"price\" (DECIMAL(10, 2)); add an exported field named like it or tagged `wsql:\"price\"`, or leave the column out of the SELECT")

	type wrongType struct {
		B   int64
		Str int
	}
	_, err = wsql.Collect[wrongType](typedRows(t, "SELECT b, str FROM vals", fullRow))
	require.EqualError(t, err, `wsql: column "str" is STRING, which does not scan into field wrongType.Str (int)`)

	// The first row is read; the NULL of the second stops the loop.
	type notNull struct{ B int64 }
	got, err := wsql.Collect[notNull](typedRows(t, "SELECT b FROM vals", fullRow, nullsRow))
	require.EqualError(t, err, `wsql: column "b" (BIGINT) is NULL in this row, which field notNull.B (int64) cannot hold; scan it into a pointer (*int64), a sql.Null type or any`)
	require.Equal(t, []notNull{{B: 1 << 40}}, got)

	type small struct{ S int8 }
	_, err = wsql.Collect[small](typedRows(t, "SELECT s FROM vals", fullRow))
	require.EqualError(t, err, `wsql: column "s" (SMALLINT) holds 300, which does not fit field small.S (int8)`)
}

func TestRowsOfStopsOnBreak(t *testing.T) {
	rows := typedRows(t, "SELECT b FROM vals", fullRow, fullRow, fullRow)
	n := 0
	for b, err := range wsql.RowsOf[int64](rows) {
		require.NoError(t, err)
		require.Equal(t, int64(1)<<40, b)
		n++
		break
	}
	require.Equal(t, 1, n)
	require.False(t, rows.NextRow(), "break closed the rows")
	require.NoError(t, rows.Err())
}

func TestValueTextIsTheCommandLinesText(t *testing.T) {
	rows := typedRows(t, "SELECT * FROM vals", fullRow, nullsRow)
	require.True(t, rows.Next())
	b := rows.RecordBatch()
	var got []string
	for c := range int(b.NumCols()) {
		got = append(got, wsql.ValueText(b.Column(c), 0, rows.Location()), wsql.ValueText(b.Column(c), 1, rows.Location()))
	}
	require.Equal(t, []string{"1099511627776", "NULL", "-7", "NULL", "300", "NULL", "-5", "NULL", "2.5", "NULL", "0.25", "NULL",
		"héllo", "NULL", "true", "NULL", "2024-03-01 09:00:00.123", "NULL", "2024-03-01 18:00:00.123", "NULL", "12.50", "NULL"}, got)
	// Arrow's ValueStr is not the command line's text.
	require.Equal(t, "2024-03-01T09:00:00.123", b.Column(8).ValueStr(0))
}
