package textsource

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/exectest"
)

// A followed file's reads back off from 1 ms after new data, doubling
// while nothing comes, to the monitor interval; new data starts over.
func TestFollowPollBacksOffToTheInterval(t *testing.T) {
	var p followPoll
	now := time.Unix(1000, 0)
	require.True(t, p.ready(now), "a new file is read at once")
	var waits []time.Duration
	for range 8 {
		p.nothing(now, 50*time.Millisecond)
		require.False(t, p.ready(now))
		require.False(t, p.ready(p.due.Add(-time.Nanosecond)))
		require.True(t, p.ready(p.due))
		waits = append(waits, p.due.Sub(now))
		now = p.due
	}
	ms := time.Millisecond
	require.Equal(t, []time.Duration{ms, 2 * ms, 4 * ms, 8 * ms, 16 * ms, 32 * ms, 50 * ms, 50 * ms}, waits)
	p.found()
	require.True(t, p.ready(now))
	p.nothing(now, 50*time.Millisecond)
	require.Equal(t, ms, p.due.Sub(now))
}

// Lines appended to a followed file are read soon after they are written,
// not a monitor interval later: with an interval of an hour, the line that
// closes a window still brings its result while the query runs.
func TestFollowReadsAppendedLinesBeforeTheInterval(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	writeFiles(t, dir, map[string]string{"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 10_000, K: "x", V: 1}, {TS: 20_000, K: "x", V: 2}})})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := splitJob(t, a, 0)
	j.Source.(*Source).MonitorInterval = time.Hour
	w := newSignalWriter(j.Schema())
	run := startFollow(t, j, mem, w)
	require.Eventually(t, func() bool { return run.rows.Load() == 2 }, 5*time.Second, time.Millisecond)
	appendFile(t, a, exectest.EventsCSV([]exectest.Event{{TS: minute + 10_000, K: "x", V: 4}}))
	expectRow(t, w.rows, "x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,2,3")
	run.stop(t)
}
