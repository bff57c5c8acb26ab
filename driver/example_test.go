package driver_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"time"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/driver"
)

// database/sql over wsql: declare a table with ExecContext, then scan the
// windows of a TUMBLE query into Go values as they close.
func ExampleDriver() {
	ctx := context.Background()
	db, err := sql.Open("wsql", "batch-size=16")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close() // closes the DB's engine

	_, err = db.ExecContext(ctx, `CREATE TABLE clicks (
	  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
	  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
	) WITH ('connector' = 'filesystem', 'path' = '../testdata/examples/clicks.csv', 'format' = 'csv')`)
	if err != nil {
		log.Fatal(err)
	}

	q := `SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n, SUM(amount) AS total
	      FROM clicks WHERE usr = ? GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`
	rows, err := db.QueryContext(ctx, q, "alice")
	if err != nil {
		log.Fatal(wsql.FormatError(q, err))
	}
	defer rows.Close()
	for rows.Next() {
		var usr string
		var wend time.Time
		var n int64
		var total float64
		if err := rows.Scan(&usr, &wend, &n, &total); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s %d %.2f\n", usr, wend.Format(time.TimeOnly), n, total)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// alice 09:01:00 5 191.71
	// alice 09:02:00 3 89.52
	// alice 09:03:00 5 126.57
	// alice 09:04:00 1 3.84
}

// A program that configured an Engine itself hands it to database/sql with
// NewConnector; closing the DB leaves the engine to its owner.
func ExampleNewConnector() {
	ctx := context.Background()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		log.Fatal(err)
	}
	e := wsql.New(wsql.WithLocalTimeZone(berlin))
	defer e.Close()
	err = e.Exec(ctx, `CREATE TABLE ticks (ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3))
	  WITH ('connector' = 'datagen', 'number-of-rows' = '2',
	        'fields.ms.kind' = 'sequence', 'fields.ms.start' = '1709283600000', 'fields.ms.end' = '1709283600001')`)
	if err != nil {
		log.Fatal(err)
	}

	db := sql.OpenDB(driver.NewConnector(e))
	rows, err := db.QueryContext(ctx, "SELECT ms, ts FROM ticks")
	if err != nil {
		log.Fatal(err)
	}
	types, _ := rows.ColumnTypes()
	fmt.Println(types[1].DatabaseTypeName())
	for rows.Next() {
		var ms int64
		var ts time.Time // TIMESTAMP_LTZ: in the session's zone
		if err := rows.Scan(&ms, &ts); err != nil {
			log.Fatal(err)
		}
		fmt.Println(ms, ts.Format("2006-01-02 15:04:05.000 MST"))
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	db.Close()

	fmt.Println(e.TableNames()) // the engine is still open
	// Output:
	// TIMESTAMP_LTZ(3)
	// 1709283600000 2024-03-01 10:00:00.000 CET
	// 1709283600001 2024-03-01 10:00:00.001 CET
	// [ticks]
}
