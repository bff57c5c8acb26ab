package windowop

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

// BenchmarkSnapshot measures a checkpoint of a large state: 100,000 keys,
// each with an open TUMBLE window of COUNT and SUM, snapshotted and
// restored (ns/op is one snapshot plus one restore; bytes/op the state).
func BenchmarkSnapshot(b *testing.B) {
	t := &testing.T{}
	mem := memory.NewGoAllocator()
	cfg := tumbleConfig(t, 60_000)
	op, err := NewWindowOperator(cfg, mem, &recorder{})
	require.NoError(b, err)
	defer op.Close()
	rows := make([]click, 100_000)
	for i := range rows {
		rows[i] = click{ts: int64(i % 1000), usr: "user-" + strconv.Itoa(i), amount: float64(i)}
	}
	batch := clickBatch(t, mem, rows)
	require.NoError(b, op.ProcessBatch(pipeline.Batch{Record: batch, Watermarks: make([]int64, len(rows))}))
	batch.Release()
	var size int
	b.ResetTimer()
	for range b.N {
		var e checkpoint.Encoder
		require.NoError(b, op.SnapshotState(&e))
		size = len(e.Data())
		r, err := NewWindowOperator(cfg, mem, &recorder{})
		require.NoError(b, err)
		require.NoError(b, r.RestoreState(checkpoint.NewDecoder(e.Data())))
		r.Close()
	}
	b.ReportMetric(float64(size), "state-bytes")
}
