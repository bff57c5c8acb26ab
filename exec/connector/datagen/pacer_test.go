package datagen

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

// A paced datagen read resumed from a checkpoint delivers its next batch
// at once, then keeps its pace. Before, it first slept for the time of
// every row delivered before the checkpoint: here 10,000 rows at 20 rows
// per second, over 8 minutes.
func TestDatagenResumedPacedReadDoesNotWaitForThePast(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	g := &Source{NumberOfRows: -1, RowsPerSecond: 20, Fields: []Field{{Name: "n", Sequence: true, Start: 0, End: 1 << 40}}}
	// 10,000 rows read unpaced, then the checkpoint
	r, err := (&exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: 5000}}).Open(mem, nil)
	require.NoError(t, err)
	rows, _ := generatortest.ReadSteps(t, r, 2, nil)
	require.Len(t, rows, 10_000)
	var e checkpoint.Encoder
	require.NoError(t, r.(exec.StateReader).SaveState(&e))
	require.NoError(t, r.Close())

	paced := *g
	paced.Throttle = true
	r, err = (&exec.MakerSource{Maker: &paced, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: 5000}}).Open(mem, checkpoint.NewDecoder(e.Data()))
	require.NoError(t, err)
	defer r.Close()
	first := make(chan []string, 1)
	go func() {
		b, err := r.Next()
		if err != nil {
			first <- []string{err.Error()}
			return
		}
		defer b.Record.Release()
		first <- []string{b.Record.Column(0).ValueStr(0)}
	}()
	select {
	case got := <-first:
		require.Equal(t, []string{"10000"}, got, "the resumed read continues at row 10,000")
	case <-time.After(10 * time.Second):
		t.Fatal("the resumed paced read is still waiting after 10 s: it paces from the start of the first run, not from the resume point")
	}
	// and keeps its pace: batches of 2 rows (a tenth of a second's), the
	// third 0.3 s after the first
	start := time.Now()
	more, _ := generatortest.ReadSteps(t, r, 3, nil)
	require.Equal(t, []string{"10002", "10003", "10004", "10005", "10006", "10007"}, more)
	require.GreaterOrEqual(t, time.Since(start), 190*time.Millisecond)
}
