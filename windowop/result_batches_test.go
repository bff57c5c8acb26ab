package windowop

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// batchSizes records the size of each batch it is sent.
type batchSizes struct {
	recorder
	sizes []int
}

func (b *batchSizes) ProcessBatch(batch pipeline.Batch) error {
	b.sizes = append(b.sizes, int(batch.Record.NumRows()))
	return b.recorder.ProcessBatch(batch)
}

// A firing of more than resultBatchRows windows goes out in batches of at
// most that many rows, with the same rows in the same order as the
// firing row by row.
func TestLargeFiringIsCutIntoBatches(t *testing.T) {
	keys := 2*resultBatchRows + 5
	var rows []click
	for k := range keys {
		rows = append(rows, click{ts: int64(k % 1000), usr: "u" + strconv.Itoa(k), amount: float64(k)})
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &batchSizes{}
	op, err := NewWindowOperator(tumbleConfig(t, 60_000), mem, rec)
	require.NoError(t, err)
	defer op.Close()
	b := clickBatch(t, mem, rows)
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []int{resultBatchRows, resultBatchRows, 5}, rec.sizes)

	// the same rows as a run in batches of 7, whose firing is the same
	events, _ := run(t, tumbleConfig(t, 60_000), rows, 0, 7)
	onlyRows := func(events []string) []string {
		return slices.DeleteFunc(slices.Clone(events), func(e string) bool { return !strings.HasPrefix(e, "row ") })
	}
	want, got := onlyRows(events), onlyRows(rec.events)
	require.Equal(t, keys, len(got))
	require.True(t, slices.Equal(want, got), "the rows differ")
}
