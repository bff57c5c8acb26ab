package wsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/wsql/wsql"
)

// NextRow and Scan read a result row by row into Go variables, as
// database/sql does. TIMESTAMP columns come as time.Time; a nullable one
// goes into a sql.Null type or a pointer.
func ExampleRows_Scan() {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	if err != nil {
		log.Fatal(err)
	}
	e := wsql.New()
	defer e.Close()
	rows, err := e.Query(context.Background(), string(src))
	if err != nil {
		log.Fatal(wsql.FormatError(string(src), err))
	}
	defer rows.Close()
	for rows.NextRow() {
		var (
			usr        string
			start, end time.Time
			n          int64
			total      sql.NullFloat64
		)
		if err := rows.Scan(&usr, &start, &end, &n, &total); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-5s %s-%s %d %.2f\n", usr, start.Format("15:04"), end.Format("15:04"), n, total.Float64)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// carol 09:00-09:01 3 68.99
	// alice 09:00-09:01 5 191.71
	// bob   09:00-09:01 4 117.80
	// carol 09:01-09:02 8 174.67
	// alice 09:01-09:02 3 89.52
	// bob   09:01-09:02 3 88.40
	// carol 09:02-09:03 3 85.51
	// alice 09:02-09:03 5 126.57
	// bob   09:02-09:03 5 148.62
	// alice 09:03-09:04 1 3.84
}

// Collect reads a whole result into structs, column by column name: the
// field tagged `wsql:"name"`, or else the field of that name ignoring case.
func ExampleCollect() {
	type count struct {
		User  string    `wsql:"usr"`
		Start time.Time `wsql:"wstart"`
		N     int
	}
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	rows, err := e.Query(ctx, `
		CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
		  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
		SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, COUNT(*) AS n
		FROM clicks WHERE usr = 'alice' GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
	if err != nil {
		log.Fatal(err)
	}
	counts, err := wsql.Collect[count](rows)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range counts {
		fmt.Println(c.User, c.Start.Format(time.DateTime), c.N)
	}
	fmt.Println(rows.Summary().Counts())
	// Output:
	// alice 2024-03-01 09:00:00 5
	// alice 2024-03-01 09:01:00 3
	// alice 2024-03-01 09:02:00 5
	// alice 2024-03-01 09:03:00 1
	// 42 rows read, 0 late rows dropped, 0 bad rows skipped, 4 result rows
}

// RowsOf ranges over the rows of a stream as they arrive, here a one-column
// result as plain int64 values; break stops the query.
func ExampleRowsOf() {
	e := wsql.New()
	defer e.Close()
	rows, err := e.Query(context.Background(), `
		CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen',
		  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000000000');
		SELECT n * n AS square FROM numbers WHERE n % 100 = 0`)
	if err != nil {
		log.Fatal(err)
	}
	for square, err := range wsql.RowsOf[int64](rows) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(square)
		if square >= 90000 {
			break // closes rows, which stops the query
		}
	}
	// Output:
	// 10000
	// 40000
	// 90000
}

// ValueText prints a value of a batch as the command line does; Arrow's
// ValueStr writes timestamps another way. TIMESTAMP_LTZ values print in
// the session's time zone, which Rows.Location gives.
func ExampleValueText() {
	// The columns: name, ValueText, and Arrow's ValueStr for comparison.
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), price DECIMAL(8, 2), note STRING)`)
	if err != nil {
		log.Fatal(err)
	}
	if err := events.AppendRow(ctx, time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC), "5", nil); err != nil {
		log.Fatal(err)
	}
	events.Close()
	rows, err := e.Query(ctx, `SET 'table.local-time-zone' = 'Europe/Berlin';
		SELECT ts, CAST(ts AS TIMESTAMP_LTZ(3)) AS ltz, price, CAST(price AS DOUBLE) / 3 AS third, note FROM events`)
	if err != nil {
		log.Fatal(err)
	}
	for batch, err := range rows.All() {
		if err != nil {
			log.Fatal(err)
		}
		for c := range int(batch.NumCols()) {
			fmt.Printf("%-5s %-23s  %s\n", rows.Schema().Field(c).Name,
				wsql.ValueText(batch.Column(c), 0, rows.Location()), batch.Column(c).ValueStr(0))
		}
	}
	// Output:
	// ts    2024-03-01 09:00:00.000  2024-03-01T09:00:00
	// ltz   2024-03-01 09:00:00.000  2024-03-01T08:00:00Z
	// price 5.00                     5
	// third 1.6666666666666667       1.6666666666666667
	// note  NULL                     (null)
}
