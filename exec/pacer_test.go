package exec

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// A pacer's deadlines count from the row it starts at, at the instant it
// starts: a read resumed at row 1,000,000 owes no time for the rows
// before it.
func TestPacerPacesFromTheResumePoint(t *testing.T) {
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var slept []time.Duration
	p := newPacer(10)
	p.now = func() time.Time { return clock }
	p.sleep = func(d time.Duration) { slept = append(slept, d); clock = clock.Add(d) }

	restoredAt := clock
	require.Equal(t, restoredAt, p.due(1_000_000), "the resume row is due at once")
	p.wait(1_000_000)
	require.Empty(t, slept)
	require.Equal(t, restoredAt.Add(time.Second), p.due(1_000_010), "10 rows later at 10 rows per second")
	clock = clock.Add(300 * time.Millisecond) // making the batch took a while
	p.wait(1_000_010)
	require.Equal(t, []time.Duration{700 * time.Millisecond}, slept)
	require.Equal(t, restoredAt.Add(2500*time.Millisecond), p.due(1_000_025))
}

// A paced datagen read resumed from a checkpoint delivers its next batch
// at once, then keeps its pace. Before, it first slept for the time of
// every row delivered before the checkpoint: here 10,000 rows at 20 rows
// per second, over 8 minutes.
func TestDatagenResumedPacedReadDoesNotWaitForThePast(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	g := &DatagenSource{NumberOfRows: -1, RowsPerSecond: 20, Fields: []DatagenField{{Name: "n", Sequence: true, Start: 0, End: 1 << 40}}}
	// 10,000 rows read unpaced, then the checkpoint
	r, err := (&MakerSource{Maker: g, SourceSpec: SourceSpec{Schema: schema, BatchSize: 5000}}).Open(mem, nil)
	require.NoError(t, err)
	rows, _ := readGeneratorSteps(t, r, 2, nil)
	require.Len(t, rows, 10_000)
	var e checkpoint.Encoder
	require.NoError(t, r.(StateReader).SaveState(&e))
	require.NoError(t, r.Close())

	paced := *g
	paced.Throttle = true
	r, err = (&MakerSource{Maker: &paced, SourceSpec: SourceSpec{Schema: schema, BatchSize: 5000}}).Open(mem, checkpoint.NewDecoder(e.Data()))
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
	more, _ := readGeneratorSteps(t, r, 3, nil)
	require.Equal(t, []string{"10002", "10003", "10004", "10005", "10006", "10007"}, more)
	require.GreaterOrEqual(t, time.Since(start), 190*time.Millisecond)
}
