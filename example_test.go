package wsql_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/wsql/wsql"
)

// The example of the repository: clicks per user per minute, read batch by
// batch as the windows close.
func ExampleEngine_Query() {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	if err != nil {
		log.Fatal(err)
	}
	e := wsql.New()
	rows, err := e.Query(context.Background(), string(src))
	if err != nil {
		log.Fatal(wsql.FormatError(string(src), err))
	}
	defer rows.Close()
	w := wsql.NewCSVWriter(os.Stdout, rows.Schema(), time.UTC)
	for rows.Next() {
		if err := w.WriteBatch(rows.RecordBatch()); err != nil {
			log.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	w.Close()
	fmt.Println(rows.Summary().Counts())
	// Output:
	// usr,wstart,wend,n,total
	// carol,2024-03-01 09:00:00.000,2024-03-01 09:01:00.000,3,68.99000000000001
	// alice,2024-03-01 09:00:00.000,2024-03-01 09:01:00.000,5,191.71
	// bob,2024-03-01 09:00:00.000,2024-03-01 09:01:00.000,4,117.8
	// carol,2024-03-01 09:01:00.000,2024-03-01 09:02:00.000,8,174.67
	// alice,2024-03-01 09:01:00.000,2024-03-01 09:02:00.000,3,89.52000000000001
	// bob,2024-03-01 09:01:00.000,2024-03-01 09:02:00.000,3,88.4
	// carol,2024-03-01 09:02:00.000,2024-03-01 09:03:00.000,3,85.50999999999999
	// alice,2024-03-01 09:02:00.000,2024-03-01 09:03:00.000,5,126.57
	// bob,2024-03-01 09:02:00.000,2024-03-01 09:03:00.000,5,148.62
	// alice,2024-03-01 09:03:00.000,2024-03-01 09:04:00.000,1,3.84
	// 42 rows read, 2 late rows dropped, 0 bad rows skipped, 10 result rows
}

// All ranges over the batches of an endless stream; break stops the query.
func ExampleRows_All() {
	e := wsql.New()
	rows, err := e.Query(context.Background(), `
		CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen',
		  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000000000');
		SELECT n, n * n AS square FROM numbers WHERE n % 10 = 0`)
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for batch, err := range rows.All() {
		if err != nil {
			log.Fatal(err)
		}
		total += int(batch.NumRows())
		if total >= 3 {
			break // closes rows, which stops the query
		}
	}
	fmt.Println(rows.Schema().Field(1).Name, total >= 3, rows.Err())
	// Output:
	// square true <nil>
}

// Exec declares tables and changes settings; Query then reads from them.
func ExampleEngine_Exec() {
	ctx := context.Background()
	e := wsql.New()
	err := e.Exec(ctx, `
		CREATE TABLE orders (id INT, amount INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',
		  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10',
		  'fields.amount.kind' = 'sequence', 'fields.amount.start' = '10', 'fields.amount.end' = '19');
		SET 'table.local-time-zone' = 'Europe/Berlin';`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.TableNames())

	src := "SELECT id, amount FROM orders WHERE id > 8"
	rows, err := e.Query(ctx, src)
	if err != nil {
		log.Fatal(err)
	}
	w := wsql.NewCSVWriter(os.Stdout, rows.Schema(), time.UTC)
	for batch, err := range rows.All() {
		if err != nil {
			log.Fatal(err)
		}
		w.WriteBatch(batch)
	}
	w.Close()

	// a SELECT is not for Exec
	err = e.Exec(ctx, src)
	fmt.Println(wsql.FormatError(src, err))
	// Output:
	// [orders]
	// id,amount
	// 9,18
	// 10,19
	// error: 1:1: this statement returns rows; use Query to read them
	// SELECT id, amount FROM orders WHERE id > 8
	// ^
}
