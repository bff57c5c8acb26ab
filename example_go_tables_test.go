package wsql_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql"
)

// A service pushes its own events and reads per-user, per-minute counts as
// each minute closes.
func ExampleEngine_CreatePushTable() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	clicks, err := e.CreatePushTable(ctx, `
		CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
		  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)`)
	if err != nil {
		log.Fatal(err)
	}
	go func() { // the producer: one event every 20 s for three minutes
		start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
		for i := range 9 {
			usr := []string{"alice", "bob"}[i%2]
			if err := clicks.AppendRow(ctx, start.Add(time.Duration(i)*20*time.Second), usr, float64(i)); err != nil {
				log.Fatal(err)
			}
		}
		clicks.Close() // the end of the input closes the last windows
	}()

	rows, err := e.Query(ctx, `
		SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n, SUM(amount) AS total
		FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
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
	// Output:
	// usr,wend,n,total
	// alice,2024-03-01 09:01:00.000,2,2.0
	// bob,2024-03-01 09:01:00.000,1,1.0
	// alice,2024-03-01 09:02:00.000,1,4.0
	// bob,2024-03-01 09:02:00.000,2,8.0
	// alice,2024-03-01 09:03:00.000,2,14.0
	// bob,2024-03-01 09:03:00.000,1,7.0
}

// With SOURCE_WATERMARK() the program states event-time progress itself:
// a window fires as soon as the watermark passes it, while the table
// stays open.
func ExamplePushSplit_AdvanceWatermark() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	readings, err := e.CreatePushTable(ctx, `
		CREATE TABLE readings (ts TIMESTAMP(3), sensor STRING, celsius DOUBLE,
		  WATERMARK FOR ts AS SOURCE_WATERMARK())`)
	if err != nil {
		log.Fatal(err)
	}
	rows, err := e.Query(ctx, `
		SELECT sensor, TUMBLE_START(ts, INTERVAL '10' SECOND) AS wstart, AVG(celsius) AS avg_c
		FROM readings GROUP BY sensor, TUMBLE(ts, INTERVAL '10' SECOND)`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()

	t0 := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	readings.AppendRow(ctx, t0.Add(2*time.Second), "s1", 20.5)
	readings.AppendRow(ctx, t0.Add(7*time.Second), "s1", 21.5)
	readings.AppendRow(ctx, t0.Add(11*time.Second), "s1", 30.0)
	readings.AdvanceWatermark(t0.Add(10 * time.Second)) // [09:00:00, 09:00:10) is complete

	if rows.Next() {
		b := rows.RecordBatch()
		fmt.Println(b.Column(0).ValueStr(0), b.Column(1).ValueStr(0), b.Column(2).ValueStr(0))
	}
	// Output:
	// s1 2024-03-01T09:00:00 21
}

// Any io.Reader in CSV or JSON lines: an HTTP body, a decompressed file.
func ExampleEngine_CreateReaderTable() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	body := strings.NewReader(`2024-03-01 09:00:01,alice
2024-03-01 09:00:30,bob
2024-03-01 09:00:45,alice
2024-03-01 09:01:10,alice
`)
	err := e.CreateReaderTable(ctx, `
		CREATE TABLE visits (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)
		WITH ('format' = 'csv')`, body)
	if err != nil {
		log.Fatal(err)
	}
	rows, err := e.Query(ctx, `
		SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS minute, COUNT(DISTINCT usr) AS users
		FROM visits GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)`)
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
	// Output:
	// minute,users
	// 2024-03-01 09:00:00.000,2
	// 2024-03-01 09:01:00.000,1
}

// Arrow data the program already has, through an array.RecordReader.
func ExampleEngine_CreateRecordReaderTable() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
	for i := range int64(6) {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(start + i*25_000))
		b.Field(1).(*array.Int64Builder).Append(100 * (i + 1))
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{batch})
	if err != nil {
		log.Fatal(err)
	}
	err = e.CreateRecordReaderTable(ctx, `
		CREATE TABLE traffic (ts TIMESTAMP(3), bytes BIGINT, WATERMARK FOR ts AS ts)`, rr)
	if err != nil {
		log.Fatal(err)
	}
	rows, err := e.Query(ctx, `
		SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, SUM(bytes) AS total
		FROM traffic GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)`)
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
	// Output:
	// wend,total
	// 2024-03-01 09:01:00.000,600
	// 2024-03-01 09:02:00.000,900
	// 2024-03-01 09:03:00.000,600
}

// INSERT INTO a sink table registered from Go hands the program each
// result batch as windows fire.
func ExampleEngine_CreateSinkTable() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	err := e.CreateSinkTable(ctx, `CREATE TABLE busy_minutes (usr STRING, n BIGINT)`,
		func(ctx context.Context, batch wsql.RecordBatch) error {
			usr, n := batch.Column(0).(*array.String), batch.Column(1).(*array.Int64)
			for i := range int(batch.NumRows()) {
				fmt.Printf("%s clicked %d times in a minute\n", usr.Value(i), n.Value(i))
			}
			return nil
		})
	if err != nil {
		log.Fatal(err)
	}
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	if err != nil {
		log.Fatal(err)
	}
	create := string(src)[:strings.Index(string(src), ";")+1] // the example's CREATE TABLE clicks
	err = e.Exec(ctx, create+`
		INSERT INTO busy_minutes
		SELECT usr, COUNT(*) FROM clicks
		GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE) HAVING COUNT(*) >= 5`)
	if err != nil {
		log.Fatal(wsql.FormatError(create, err))
	}
	// Output:
	// alice clicked 5 times in a minute
	// carol clicked 8 times in a minute
	// alice clicked 5 times in a minute
	// bob clicked 5 times in a minute
}
