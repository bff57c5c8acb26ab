package wsql

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// streamTable is an unbounded JSON topic of events with event time.
const streamTable = `CREATE TABLE clicks (
  k  STRING,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH (
  'connector' = 'kafka', 'topic' = 'clicks', 'properties.bootstrap.servers' = '%s',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json'%s
);
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS n
FROM clicks GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)`

func click(p int32, k string, minute, second int) kafkatest.Record {
	return kafkatest.Record{Partition: p, Value: []byte(fmt.Sprintf(`{"k":%q,"ts":"2024-03-01 09:%02d:%02d.000"}`, k, minute, second))}
}

// An unbounded read's watermark is the least of its partitions'. A window
// closes once every partition is past its end: while one partition has
// no record, none closes; 'scan.watermark.idle-timeout' lets the read go
// on without the idle one. Records produced while the query runs are read.
func TestKafkaWatermarkIsThePartitionsLeast(t *testing.T) {
	for _, idle := range []bool{false, true} {
		t.Run(fmt.Sprintf("idle-timeout %v", idle), func(t *testing.T) {
			k := kafkatest.Start(t)
			k.CreateTopic(t, "clicks", 2)
			// partition 0 runs past the first minute; partition 1 is empty
			k.Produce(t, "clicks", click(0, "a", 0, 10), click(0, "a", 0, 20), click(0, "b", 1, 30))
			option := ""
			if idle {
				option = ", 'scan.watermark.idle-timeout' = '300 ms'"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			rows, err := New().Query(ctx, fmt.Sprintf(streamTable, k.Brokers(), option))
			require.NoError(t, err)
			got := make(chan string, 10)
			defer func() {
				cancel() // the query ends; its reader closes the channel
				for range got {
				}
				rows.Close()
			}()
			go func() {
				defer close(got)
				for rows.NextRow() {
					var key string
					var w time.Time
					var n int64
					if rows.Scan(&key, &w, &n) == nil {
						got <- fmt.Sprintf("%s %s %d", key, w.Format("15:04"), n)
					}
				}
			}()
			if !idle {
				select {
				case r := <-got:
					t.Fatalf("a window closed while partition 1 held the watermark back: %s", r)
				case <-time.After(1500 * time.Millisecond):
				}
				// partition 1 catches up: the first minute closes
				k.Produce(t, "clicks", click(1, "c", 2, 0))
			}
			select {
			case r := <-got:
				require.Equal(t, "a 09:00 2", r)
			case <-ctx.Done():
				t.Fatal("the first minute never closed")
			}
		})
	}
}

// An unbounded read's progress is reported while it waits for records,
// not only after batches: the last batch's rows show without another.
func TestProgressShowsTheLastBatchWhileTheReadWaits(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "clicks", 1)
	k.Produce(t, "clicks", click(0, "a", 0, 1), click(0, "b", 0, 2), click(0, "a", 0, 3))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shown := make(chan int64, 100)
	done := make(chan error, 1)
	go func() {
		done <- New().Run(ctx, fmt.Sprintf(streamTable, k.Brokers(), ""), Output{
			NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(io.Discard, r.Schema, time.UTC), nil },
			OnProgress:    func(p Progress) { shown <- p.RowsRead },
			ProgressEvery: 50 * time.Millisecond, // longer than the batch takes
		})
	}()
	for deadline := time.After(10 * time.Second); ; {
		select {
		case n := <-shown:
			if n < 3 {
				continue
			}
			require.Equal(t, int64(3), n)
			cancel()
			require.ErrorIs(t, <-done, context.Canceled)
			return
		case err := <-done:
			t.Fatalf("the query ended: %v", err)
		case <-deadline:
			t.Fatal("no progress showed the three rows read")
		}
	}
}
