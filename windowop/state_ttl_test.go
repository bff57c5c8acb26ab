package windowop

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// With 'table.exec.state.ttl', a key no row has come for within the TTL
// loses its state (counted): its next row starts again with +I. While a
// TTL is set, an unchanged result is emitted again, as in Flink.
func TestGroupOperatorStateTTL(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC))
	cfg := GroupConfig{Input: confSchema, KeyIndexes: []int{1}, StateTTL: 1000, Clock: clock,
		Aggs: []AggSpec{{Kind: Max, Input: 2, Name: "top"}}}
	rec := &recorder{}
	op, err := NewGroupOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...confRow) {
		in := confBatch(mem, rows)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		in.Release()
	}
	feed(confRow{1, "a", 5}, confRow{2, "b", 1}, confRow{3, "a", 3})
	clock.Advance(600 * time.Millisecond)
	feed(confRow{4, "a", 4}) // a stays; b is not seen
	clock.Advance(600 * time.Millisecond)
	feed(confRow{5, "a", 2}, confRow{6, "b", 7}) // b's state is 1.2 s old: gone
	require.Equal(t, []string{
		"row +I a 5", "row +I b 1",
		"row -U a 5", "row +U a 5", // unchanged, emitted again under a TTL
		"row -U a 5", "row +U a 5",
		"row -U a 5", "row +U a 5",
		"row +I b 7",
	}, rec.rows())
	require.Equal(t, int64(1), op.Stats().StateExpired)
}
