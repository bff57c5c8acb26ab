package monitor

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// A query reading Kafka reports each partition's consumer lag: positive
// while it reads behind what the topic holds, 0 once it has caught up.
func TestMetricsOfKafkaConsumerLag(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 1)
	var recs []kafkatest.Record
	for i := range 600 {
		recs = append(recs, kafkatest.Record{Value: fmt.Appendf(nil, "v%03d", i)})
	}
	k.Produce(t, "events", recs...)

	m := New()
	base := serve(t, m)
	var results bytes.Buffer
	out := wsql.Output{
		NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(&results, r.Schema, time.UTC), nil
		},
		// a slow consumer: 10 rows a batch, 5 ms each
		OnProgress:    func(wsql.Progress) { time.Sleep(5 * time.Millisecond) },
		ProgressEvery: time.Nanosecond,
	}
	m.Observe(&out)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() {
		ran <- wsql.New(wsql.WithBatchSize(10)).Run(ctx, `CREATE TABLE t (v STRING) WITH ('connector' = 'kafka', 'topic' = 'events',
  'properties.bootstrap.servers' = '`+k.Brokers()+`', 'scan.startup.mode' = 'earliest-offset', 'format' = 'raw');
SELECT v FROM t;`, out)
	}()
	defer func() {
		cancel()
		m.Ended(<-ran)
	}()

	const lag = `wsql_split_lag_records{name="events/0",query="1",split="0"}`
	wait := func(what string, ok func(float64, bool) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			v, found := scrape(t, base)[lag]
			if ok(v, found) {
				return
			}
			require.True(t, time.Now().Before(deadline), "no %s within a minute (%v, %v)", what, v, found)
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("lag behind the topic", func(v float64, found bool) bool { return found && v > 0 && v < 600 })
	wait("lag of a consumer caught up", func(v float64, found bool) bool { return found && v == 0 })
	require.Equal(t, 600.0, scrape(t, base)[`wsql_rows_read_total{query="1"}`])
}
