package generator

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

// countFiller makes the column n = row number.
type countFiller struct{}

func (countFiller) Fill(mem memory.Allocator, cols []arrow.Array, from int64, n int) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for i := range int64(n) {
		b.Append(from + i)
	}
	cols[0] = b.NewArray()
}

func (countFiller) Kind() string                            { return "count" }
func (countFiller) SaveState(*checkpoint.Encoder)           {}
func (countFiller) RestoreState(*checkpoint.Decoder, int64) {}

// A stop ends a paced read's wait for its next row at once: Next returns
// the context's error, not the row a second later, and the position stays
// after the rows delivered (for the final checkpoint).
func TestPacedReadStopsInItsWait(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	r, err := Open(mem, schema, 0, -1, 1, countFiller{}, nil) // one row a second
	require.NoError(t, err)
	defer r.Close()
	f, ok := r.(exec.Follower)
	require.True(t, ok, "a paced generator waits, so it must follow the run's context")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Follow(ctx)

	b, err := r.Next()
	require.NoError(t, err)
	require.EqualValues(t, 1, b.Record.NumRows(), "the first row is due at once")
	b.Record.Release()

	time.AfterFunc(20*time.Millisecond, cancel) // while Next waits for row 1
	b, err = r.Next()
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, b.Record)
	require.EqualValues(t, 1, r.Stats().Rows)
	b, err = r.Next()
	require.ErrorIs(t, err, context.Canceled, "stopped: no more rows")
	require.Nil(t, b.Record)
}
