package generator

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A pacer's deadlines count from the row it starts at, at the instant it
// starts: a read resumed at row 1,000,000 owes no time for the rows
// before it.
func TestPacerPacesFromTheResumePoint(t *testing.T) {
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var slept []time.Duration
	p := newPacer(10)
	p.now = func() time.Time { return clock }
	p.sleep = func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		clock = clock.Add(d)
		return nil
	}

	restoredAt := clock
	require.Equal(t, restoredAt, p.due(1_000_000), "the resume row is due at once")
	require.NoError(t, p.wait(context.Background(), 1_000_000))
	require.Empty(t, slept)
	require.Equal(t, restoredAt.Add(time.Second), p.due(1_000_010), "10 rows later at 10 rows per second")
	clock = clock.Add(300 * time.Millisecond) // making the batch took a while
	require.NoError(t, p.wait(context.Background(), 1_000_010))
	require.Equal(t, []time.Duration{700 * time.Millisecond}, slept)
	require.Equal(t, restoredAt.Add(2500*time.Millisecond), p.due(1_000_025))
}
