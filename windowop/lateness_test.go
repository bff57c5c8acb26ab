package windowop

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLatenessOfDroppedRows(t *testing.T) {
	rows := []click{
		{ts: 15, usr: "a"},
		{ts: 5, usr: "a"}, // wm 15, [0,10) closed at 9: late by 7
		{ts: 40, usr: "a"},
		{ts: 2, usr: "b"},  // wm 40: late by 32
		{ts: 31, usr: "b"}, // wm 40, [30,40) closed at 39: late by 2
	}
	for _, restore := range []bool{false, true} {
		cuts := []batchCut{{end: 2}, {end: 4}, {end: 5}}
		_, st := runCutsRestoring(t, tumbleConfig(t, 10), rows, 0, cuts, func(int) bool { return restore })
		require.Equal(t, int64(3), st.LateRowsDropped)
		require.Equal(t, int64(3), st.Lateness.Count())
		require.Equal(t, int64(32), st.Lateness.Max)
		require.Equal(t, int64(7), st.Lateness.Quantile(0.5))
		require.Equal(t, int64(32), st.Lateness.Quantile(0.9))
	}
}

// The lateness of a row is the smallest delay increase that keeps it: a
// delay of the maximum keeps every row, one millisecond less drops one.
func TestLatenessIsTheDelayThatKeepsTheRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for _, assigner := range []string{"tumble", "hop", "session"} {
		rows := make([]click, 500)
		for i := range rows {
			rows[i] = click{ts: int64(i * 37), usr: []string{"a", "b", "c"}[i%3], amount: 1}
		}
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		cfg := tumbleConfig(t, 1000)
		switch assigner {
		case "hop":
			hop, err := NewHop(250, 1000, 0)
			require.NoError(t, err)
			cfg.Assigner = hop
		case "session":
			sess, err := NewSession(100)
			require.NoError(t, err)
			cfg.Assigner = sess
		}
		const delay = 500
		_, st := run(t, cfg, rows, delay, 64)
		require.Positive(t, st.LateRowsDropped, assigner)
		require.Equal(t, st.LateRowsDropped, st.Lateness.Count(), assigner)
		require.GreaterOrEqual(t, st.Lateness.Quantile(0.9), st.Lateness.Quantile(0.5), assigner)
		require.LessOrEqual(t, st.Lateness.Quantile(0.9), st.Lateness.Max, assigner)
		if assigner != "session" { // sessions merge: other rows' windows move
			_, kept := run(t, cfg, rows, delay+st.Lateness.Max, 64)
			require.Zero(t, kept.LateRowsDropped, assigner)
			_, short := run(t, cfg, rows, delay+st.Lateness.Max-1, 64)
			require.Positive(t, short.LateRowsDropped, assigner)
		}
	}
}

func TestLatenessBuckets(t *testing.T) {
	for _, ms := range []int64{0, 1, 3, 4, 7, 8, 9, 10, 999, 1000, 1 << 40, 1<<62 + 5, 1<<63 - 1} {
		b := latenessBucket(ms)
		require.Less(t, b, latenessBuckets)
		require.GreaterOrEqual(t, latenessBucketMax(b), ms, "%d", ms)
		if b > 0 {
			require.Less(t, latenessBucketMax(b-1), ms, "%d", ms)
		}
	}
	var l Lateness
	require.Zero(t, l.Quantile(0.9))
	for _, ms := range []int64{1000, 1100, 1200, 5000} {
		l.Add(ms)
	}
	// within 25% of the true quantile, never below it
	require.Equal(t, int64(1279), l.Quantile(0.5))
	require.Equal(t, int64(5000), l.Quantile(0.9))
	var m Lateness
	require.True(t, m.decode(l.encode(nil)))
	require.Equal(t, l, m)
	require.True(t, m.decode(nil)) // a checkpoint from before the histogram
	require.Equal(t, Lateness{}, m)
	require.False(t, m.decode([]int64{5, latenessBuckets, 1}))
}
