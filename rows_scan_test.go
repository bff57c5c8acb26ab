package wsql_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// typesDDL has a column of every type a result can hold.
const typesDDL = `CREATE TABLE vals (
  b BIGINT, i INT, s SMALLINT, t TINYINT, d DOUBLE, f FLOAT, str STRING, ok BOOLEAN,
  ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), price DECIMAL(10, 2))`

// typedRows pushes rows into a table of every type and queries them back;
// the engine's session time zone is Asia/Tokyo, so TIMESTAMP_LTZ values
// come back in it and TIMESTAMP ones do not.
func typedRows(t *testing.T, query string, rows ...[]any) *wsql.Rows {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem), wsql.WithLocalTimeZone(tokyo))
	t.Cleanup(func() {
		require.NoError(t, e.Close())
		mem.AssertSize(t, 0)
	})
	vals, err := e.CreatePushTable(ctx, typesDDL)
	require.NoError(t, err)
	for _, r := range rows {
		require.NoError(t, vals.AppendRow(ctx, r...))
	}
	require.NoError(t, vals.Close())
	res, err := e.Query(ctx, query)
	require.NoError(t, err)
	t.Cleanup(func() { res.Close() })
	return res
}

var (
	scanTS   = time.Date(2024, 3, 1, 9, 0, 0, 123e6, time.UTC)
	fullRow  = []any{int64(1) << 40, int32(-7), int16(300), int8(-5), 2.5, float32(0.25), "héllo", true, scanTS, scanTS, "12.50"}
	nullsRow = []any{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
)

func TestRowsScanEveryType(t *testing.T) {
	rows := typedRows(t, "SELECT * FROM vals", fullRow, nullsRow)
	require.Equal(t, []string{"b", "i", "s", "t", "d", "f", "str", "ok", "ts", "ltz", "price"}, rows.Columns())

	require.True(t, rows.NextRow())
	var (
		b       int64
		i       int
		s       int16
		ti      int8
		d       float64
		f       float32
		str     string
		ok      bool
		ts, ltz time.Time
		dec     float64
	)
	require.NoError(t, rows.Scan(&b, &i, &s, &ti, &d, &f, &str, &ok, &ts, &ltz, &dec))
	require.Equal(t, int64(1)<<40, b)
	require.Equal(t, -7, i)
	require.Equal(t, int16(300), s)
	require.Equal(t, int8(-5), ti)
	require.Equal(t, 2.5, d)
	require.Equal(t, float32(0.25), f)
	require.Equal(t, "héllo", str)
	require.True(t, ok)
	// TIMESTAMP is the wall time, in UTC; TIMESTAMP_LTZ the same instant
	// in the session's zone.
	require.Equal(t, scanTS, ts)
	require.Equal(t, time.UTC, ts.Location())
	require.True(t, scanTS.Equal(ltz))
	require.Equal(t, "Asia/Tokyo", ltz.Location().String())
	require.Equal(t, "2024-03-01 18:00:00.123", ltz.Format("2006-01-02 15:04:05.000"))
	require.Equal(t, 12.5, dec)

	// Every column into *string: the text the command line prints.
	texts := make([]string, 11)
	dest := make([]any, 11)
	for k := range texts {
		dest[k] = &texts[k]
	}
	require.NoError(t, rows.Scan(dest...))
	require.Equal(t, []string{"1099511627776", "-7", "300", "-5", "2.5", "0.25", "héllo", "true",
		"2024-03-01 09:00:00.123", "2024-03-01 18:00:00.123", "12.50"}, texts)

	// *any: the values the database/sql driver gives.
	anys := make([]any, 11)
	for k := range anys {
		dest[k] = &anys[k]
	}
	require.NoError(t, rows.Scan(dest...))
	require.Equal(t, []any{int64(1) << 40, int64(-7), int64(300), int64(-5), 2.5, 0.25, "héllo", true, scanTS, scanTS.In(ltz.Location()), "12.50"}, anys)

	// The row of NULLs: pointers to pointers, sql.Null types and *any take them.
	require.True(t, rows.NextRow())
	var (
		pb   = new(int64)
		pi   = new(int)
		ps   *int16
		pt   *int8
		nd   sql.NullFloat64
		nf   sql.Null[float32]
		nstr sql.NullString
		nok  sql.NullBool
		nts  sql.NullTime
		pltz     = &time.Time{}
		adec any = "x"
	)
	require.NoError(t, rows.Scan(&pb, &pi, &ps, &pt, &nd, &nf, &nstr, &nok, &nts, &pltz, &adec))
	require.Nil(t, pb)
	require.Nil(t, pi)
	require.Nil(t, ps)
	require.Nil(t, pt)
	require.False(t, nd.Valid)
	require.False(t, nf.Valid)
	require.False(t, nstr.Valid)
	require.False(t, nok.Valid)
	require.False(t, nts.Valid)
	require.Nil(t, pltz)
	require.Nil(t, adec)

	require.False(t, rows.NextRow())
	require.NoError(t, rows.Err())
	require.Equal(t, int64(2), rows.Summary().ResultRows)
}

func TestRowsScanNullableTypesTakeValues(t *testing.T) {
	rows := typedRows(t, "SELECT b, ts, str, ok FROM vals", fullRow)
	require.True(t, rows.NextRow())
	var (
		pb  *int64
		nts sql.NullTime
		ns  sql.Null[string]
		pok *bool
	)
	require.NoError(t, rows.Scan(&pb, &nts, &ns, &pok))
	require.Equal(t, int64(1)<<40, *pb)
	require.Equal(t, sql.NullTime{Time: scanTS, Valid: true}, nts)
	require.Equal(t, sql.Null[string]{V: "héllo", Valid: true}, ns)
	require.True(t, *pok)
}

func TestRowsScanErrors(t *testing.T) {
	rows := typedRows(t, "SELECT b, str, ts, i FROM vals", fullRow, nullsRow)
	var (
		b   int64
		str string
		ts  time.Time
		i8  int8
	)
	require.EqualError(t, rows.Scan(&b, &str, &ts, &i8), "wsql: Scan without a row: call NextRow first, and Scan while it returns true")
	require.True(t, rows.NextRow())
	require.EqualError(t, rows.Scan(&b, &str), "wsql: Scan got 2 destinations for the 4 columns of the result (b BIGINT, str STRING, ts TIMESTAMP(3), i INT)")
	require.EqualError(t, rows.Scan(b, &str, &ts, &i8), `wsql: Scan destination 1 for column "b" is int64, not a non-nil pointer`)
	var n int64
	require.EqualError(t, rows.Scan(&b, &n, &ts, &i8), `wsql: column "str" is STRING, which does not scan into int64`)
	require.NoError(t, rows.Scan(&b, &str, &str, &i8)) // TIMESTAMP into *string: its text
	require.Equal(t, "2024-03-01 09:00:00.123", str)
	var flag bool
	require.EqualError(t, rows.Scan(&b, &str, &flag, &i8), `wsql: column "ts" is TIMESTAMP(3), which does not scan into bool`)
	require.EqualError(t, rows.Scan(&b, &str, &ts, &ts), `wsql: column "i" is INT, which does not scan into time.Time`)
	var u8 uint8
	require.EqualError(t, rows.Scan(&u8, &str, &ts, &i8), `wsql: column "b" (BIGINT) holds 1099511627776, which does not fit uint8`)
	var ns sql.NullBool
	require.EqualError(t, rows.Scan(&ns, &str, &ts, &i8), `wsql: column "b" (BIGINT) into sql.NullBool: sql/driver: couldn't convert 1099511627776 into type bool`)

	require.True(t, rows.NextRow())
	require.EqualError(t, rows.Scan(&b, &str, &ts, &i8), `wsql: column "b" (BIGINT) is NULL in this row, which int64 cannot hold; scan it into a pointer (*int64), a sql.Null type or any`)
}

func TestRowsScanConversions(t *testing.T) {
	type userID int64
	type label string
	rows := typedRows(t, "SELECT b, i, ts, str, price, d FROM vals", fullRow)
	require.True(t, rows.NextRow())
	var (
		id    userID
		asF   float64
		tsB   []byte
		lab   label
		price float32
		d     any
	)
	require.NoError(t, rows.Scan(&id, &asF, &tsB, &lab, &price, &d))
	require.Equal(t, userID(1)<<40, id)
	require.Equal(t, -7.0, asF)
	require.Equal(t, []byte("2024-03-01 09:00:00.123"), tsB)
	require.Equal(t, label("héllo"), lab)
	require.Equal(t, float32(12.5), price)
	require.Equal(t, 2.5, d)

	// A failed Scan leaves the destinations it did not reach alone.
	n := int64(42)
	require.Error(t, rows.Scan(&lab, &asF, &tsB, &n, &price, &d))
	require.Equal(t, int64(42), n)
}

// BenchmarkRowsScan reads a million rows of three columns with NextRow and
// Scan, beside BenchmarkRowsBatches reading the same values from the
// batches' arrays.
func BenchmarkRowsScan(b *testing.B) {
	for b.Loop() {
		rows := benchRows(b)
		var (
			n  int64
			s  string
			ts time.Time
		)
		for rows.NextRow() {
			if err := rows.Scan(&n, &s, &ts); err != nil {
				b.Fatal(err)
			}
		}
		require.NoError(b, rows.Close())
	}
}

func BenchmarkRowsBatches(b *testing.B) {
	for b.Loop() {
		rows := benchRows(b)
		for rows.Next() {
			batch := rows.RecordBatch()
			ns := batch.Column(0).(*array.Int64)
			ss := batch.Column(1).(*array.String)
			tss := batch.Column(2).(*array.Timestamp)
			for i := range int(batch.NumRows()) {
				_, _, _ = ns.Value(i), ss.Value(i), tss.Value(i).ToTime(arrow.Millisecond)
			}
		}
		require.NoError(b, rows.Close())
	}
}

func benchRows(b *testing.B) *wsql.Rows {
	e := wsql.New()
	b.Cleanup(func() { e.Close() })
	rows, err := e.Query(context.Background(), `
		CREATE TABLE g (n BIGINT, s STRING, ts TIMESTAMP(3)) WITH ('connector' = 'datagen',
		  'number-of-rows' = '1000000', 'rows-per-second' = '0', 'fields.s.length' = '8');
		SELECT * FROM g`)
	require.NoError(b, err)
	return rows
}
