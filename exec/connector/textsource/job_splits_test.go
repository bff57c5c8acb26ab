package textsource

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/rowtime"
)

// splitJob counts rows and sums v per key over one-minute tumbling windows
// of the files at path.
func splitJob(t *testing.T, path string, delay int64) *exec.Job {
	t.Helper()
	splits, err := ListSplits(path)
	require.NoError(t, err)
	src := &Source{Path: path, Splits: splits, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: exectest.EventSchema()}}
	return exectest.CountJob(t, src, delay)
}

// runSorted runs j with the given batch size and returns its result rows,
// sorted, and its stats (Elapsed cleared).
func runSorted(t *testing.T, j *exec.Job, batchSize int) ([]string, exec.Stats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := *j.Source.(*Source)
	src.BatchSize = batchSize
	jj := *j
	jj.Source = &src
	var buf bytes.Buffer
	stats, err := jj.Run(context.Background(), mem, writer.NewCSVWriter(&buf, j.Schema(), time.UTC))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")[1:] // without the header
	sort.Strings(lines)
	stats.Elapsed = 0
	return lines, stats
}

func TestFilesMinutesApartMakeNoRowLate(t *testing.T) {
	dir := t.TempDir()
	// a.csv is read first but its event times are ten minutes after b.csv's.
	late := []exectest.Event{{TS: 600_000, K: "x", V: 1}, {TS: 630_000, K: "x", V: 2}, {TS: 660_000, K: "y", V: 3}}
	early := []exectest.Event{{TS: 0, K: "x", V: 10}, {TS: 30_000, K: "y", V: 20}, {TS: 70_000, K: "x", V: 30}}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "splits"), 0o755))
	writeFiles(t, filepath.Join(dir, "splits"), map[string]string{"a.csv": exectest.EventsCSV(late), "b.csv": exectest.EventsCSV(early)})
	writeFiles(t, dir, map[string]string{"one.csv": exectest.EventsCSV(append(late, early...))})

	for _, size := range []int{1, 2, 4096} {
		rows, stats := runSorted(t, splitJob(t, filepath.Join(dir, "splits"), 1000), size)
		require.Zero(t, stats.LateRowsDropped, "batch size %d", size)
		require.Equal(t, int64(6), stats.RowsRead)
		require.Equal(t, []string{
			"x,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,1,10",
			"x,1970-01-01 00:01:00.000,1970-01-01 00:02:00.000,1970-01-01 00:01:59.999,1,30",
			"x,1970-01-01 00:10:00.000,1970-01-01 00:11:00.000,1970-01-01 00:10:59.999,2,3",
			"y,1970-01-01 00:00:00.000,1970-01-01 00:01:00.000,1970-01-01 00:00:59.999,1,20",
			"y,1970-01-01 00:11:00.000,1970-01-01 00:12:00.000,1970-01-01 00:11:59.999,1,3",
		}, rows, "batch size %d", size)
		require.Equal(t, int64(660_000-1000), stats.Watermark, "the maximum over the ended splits")
	}
	// The same rows as one file, one generator: b's rows come after a's
	// watermark passed them (what per-split generators prevent: docs/semantics.md, "Several files: splits").
	_, stats := runSorted(t, splitJob(t, filepath.Join(dir, "one.csv"), 1000), 4096)
	require.Equal(t, int64(3), stats.LateRowsDropped)
}

// tickingClock moves a minute every time it is read: with a short idle
// timeout every split but the one delivering is idle at each batch.
type tickingClock struct{ now time.Time }

func (c *tickingClock) Now() time.Time { c.now = c.now.Add(time.Minute); return c.now }

var _ rowtime.Clock = (*tickingClock)(nil)

func TestIdleTimeoutReachesTheSplits(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.csv": exectest.EventsCSV([]exectest.Event{{TS: 600_000, K: "x", V: 1}}),
		"b.csv": exectest.EventsCSV([]exectest.Event{{TS: 0, K: "x", V: 10}}),
	})
	j := splitJob(t, dir, 0)
	j.Clock = &tickingClock{}
	j.Source.Spec().IdleTimeout = time.Second
	// b is idle while a delivers, so a alone moves the watermark to 10 min
	// and b's row is late when b delivers it (Flink's idleness trade-off).
	_, stats := runSorted(t, j, 4096)
	require.Equal(t, int64(1), stats.LateRowsDropped)

	j.Source.Spec().IdleTimeout = 0
	_, stats = runSorted(t, j, 4096)
	require.Zero(t, stats.LateRowsDropped)
}

// TestSplitsMatchOneSortedFile is the property behind per-split watermarks.
// Each split's rows are in time order up to a disorder smaller than the
// delay (every row's ts + delay > the largest ts before it in its split), so
// no row is late against its own split's watermark. The combined watermark
// a row sees is never above its own split's (it is a minimum that includes
// that split, raised only to an earlier such minimum), so no row is late
// at all, whatever the interleaving: every batch size gives the same windows
// with the same rows. The same rows sorted by time in one file are not late
// either, so both runs give the same result rows, and the same last
// watermark (max ts - delay: every split has ended). The order of result
// rows with the same window end may differ, because group keys are numbered
// by first appearance, which depends on the interleaving: rows are compared
// sorted. (Rows out of order by more than the delay may or may not be late
// depending on what the other splits hold back, so the property needs the
// bound.)
func TestSplitsMatchOneSortedFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const delay = 5000
	for iter := range 20 {
		dir := t.TempDir()
		splitsDir := filepath.Join(dir, "splits")
		require.NoError(t, os.Mkdir(splitsDir, 0o755))
		var all []exectest.Event
		nSplits := 1 + rng.IntN(4)
		for s := range nSplits {
			base := int64(rng.IntN(10)) * 60_000 // splits minutes apart, in any order
			var rows []exectest.Event
			for range rng.IntN(40) {
				base += int64(rng.IntN(4000))
				rows = append(rows, exectest.Event{
					TS: base + int64(rng.IntN(delay)), // disorder < delay
					K:  string(rune('a' + rng.IntN(3))),
					V:  int64(rng.IntN(100)),
				})
			}
			all = append(all, rows...)
			writeFiles(t, splitsDir, map[string]string{fmt.Sprintf("part-%d.csv", s): exectest.EventsCSV(rows)})
		}
		sort.SliceStable(all, func(i, k int) bool { return all[i].TS < all[k].TS })
		writeFiles(t, dir, map[string]string{"sorted.csv": exectest.EventsCSV(all)})

		want, wantStats := runSorted(t, splitJob(t, filepath.Join(dir, "sorted.csv"), delay), 4096)
		require.Zero(t, wantStats.LateRowsDropped)
		for _, size := range []int{1, 2, 3, 7, 4096} {
			got, stats := runSorted(t, splitJob(t, splitsDir, delay), size)
			require.Equal(t, want, got, "iteration %d, batch size %d", iter, size)
			if len(all) == 0 {
				continue
			}
			require.Equal(t, wantStats, stats, "iteration %d, batch size %d", iter, size)
		}
	}
}
