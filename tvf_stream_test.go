package wsql_test

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// A window table function without aggregation emits each row's windows as
// the row arrives, before any watermark, and a late row too, as Flink's
// WindowTableFunction does.
func TestWindowTVFRowsComeOutAsTheyArrive(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)`)
	require.NoError(t, err)
	rows, err := e.Query(ctx, `SELECT k, window_start, window_end
		FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))`)
	require.NoError(t, err)
	defer rows.Close()

	require.NoError(t, events.AppendRow(ctx, t0.Add(12*time.Second), "a"))
	require.Equal(t, "a,2024-03-01 09:00:10.000,2024-03-01 09:00:20.000\na,2024-03-01 09:00:05.000,2024-03-01 09:00:15.000\n", nextBatch(t, rows))
	// the watermark is 12 s: both windows of a row at 1 s have ended
	require.NoError(t, events.AppendRow(ctx, t0.Add(time.Second), "late"))
	require.Equal(t, "late,2024-03-01 09:00:00.000,2024-03-01 09:00:10.000\nlate,2024-03-01 08:59:55.000,2024-03-01 09:00:05.000\n", nextBatch(t, rows))
	require.NoError(t, events.Close())
	require.False(t, rows.Next())
	require.NoError(t, rows.Err())
	require.Equal(t, "2 rows read, 0 late rows dropped, 0 bad rows skipped, 4 result rows", rows.Summary().Counts())
}

// In a cascade on window_time, the watermark the inner window aggregation
// forwards fires the outer window while the input is still open.
func TestCascadedWindowFiresOnTheInnerWatermark(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)`)
	require.NoError(t, err)
	require.NoError(t, e.Exec(ctx, `CREATE VIEW per_key AS
		SELECT k, window_time AS rt, COUNT(*) AS n
		FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
		GROUP BY k, window_start, window_end, window_time`))
	rows, err := e.Query(ctx, `SELECT window_start, window_end, SUM(n) AS n, COUNT(*) AS keys
		FROM TABLE(TUMBLE(TABLE per_key, DESCRIPTOR(rt), INTERVAL '10' SECOND))
		GROUP BY window_start, window_end`)
	require.NoError(t, err)
	defer rows.Close()

	for _, r := range []struct {
		s int
		k string
	}{{1, "a"}, {2, "b"}, {7, "a"}, {9, "a"}} {
		require.NoError(t, events.AppendRow(ctx, t0.Add(time.Duration(r.s)*time.Second), r.k))
	}
	// 10 s closes the inner windows [5 s, 10 s); the watermark it forwards
	// closes the outer [0 s, 10 s) with it, before the input ends
	require.NoError(t, events.AppendRow(ctx, t0.Add(10*time.Second), "b"))
	require.Equal(t, "2024-03-01 09:00:00.000,2024-03-01 09:00:10.000,4,3\n", nextBatch(t, rows))
	require.NoError(t, events.Close())
	require.Equal(t, "2024-03-01 09:00:10.000,2024-03-01 09:00:20.000,1,1\n", nextBatch(t, rows))
	require.False(t, rows.Next())
	require.NoError(t, rows.Err())
}
