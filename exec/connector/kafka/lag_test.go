package kafka

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
	"github.com/wsql/wsql/exec/progress"
)

// nextRecords takes steps of r until one with records, and releases it.
func nextRecords(t *testing.T, r exec.BatchReader) exec.SplitBatch {
	t.Helper()
	for {
		b, err := r.Next()
		require.NoError(t, err)
		if b.Record != nil {
			b.Record.Release()
			return b
		}
	}
}

// The consumer lag of a partition is its high watermark minus the next
// offset handed out: unknown before the first poll, shrinking as batches
// are handed out, growing when records are produced and a poll sees them.
func TestReaderReportsConsumerLag(t *testing.T) {
	k := kafkatest.Start(t)
	fill(t, k, "events", 1, 40)
	src := planTable(t, fmt.Sprintf(`CREATE TABLE t (v STRING) WITH ('connector' = 'kafka', 'topic' = 'events',
  'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', 'format' = 'raw')`, k.Brokers()), 10)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	lags := r.(progress.LagReporter)
	require.Empty(t, lags.SplitLags(), "no poll yet: the lag is not known")

	nextRecords(t, r)
	require.Equal(t, []progress.SplitLag{{Split: 0, Name: "events/0", Records: 30}}, lags.SplitLags())
	for range 3 {
		nextRecords(t, r)
	}
	require.Equal(t, []progress.SplitLag{{Split: 0, Name: "events/0", Records: 0}}, lags.SplitLags())

	var more []kafkatest.Record
	for i := range 25 {
		more = append(more, kafkatest.Record{Value: fmt.Appendf(nil, "q%02d", i)})
	}
	k.Produce(t, "events", more...)
	nextRecords(t, r)
	require.Equal(t, []progress.SplitLag{{Split: 0, Name: "events/0", Records: 15}}, lags.SplitLags())
}
