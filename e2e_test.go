package wsql

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/rowtime"
)

// e2eScripts lists the end-to-end scripts: testdata/e2e/*.sql and the
// shipped example.
func e2eScripts(t *testing.T) []string {
	t.Helper()
	scripts, err := filepath.Glob("testdata/e2e/*.sql")
	require.NoError(t, err)
	return append(scripts, "testdata/examples/clicks.sql", "testdata/examples/clicks_nested.sql")
}

// TestEndToEnd runs every testdata/e2e/*.sql script (and the shipped
// example) through the engine with batch sizes 1, 3 and 4096, requires the
// three outputs to be identical, and compares them with the .out golden
// next to the script. `go test . -rewrite` regenerates the goldens.
func TestEndToEnd(t *testing.T) {
	for _, path := range e2eScripts(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			var outputs []string
			for _, size := range []int{1, 3, 4096} {
				outputs = append(outputs, runScript(t, string(src), size))
			}
			require.Equal(t, outputs[2], outputs[0], "batch size 1 differs from 4096")
			require.Equal(t, outputs[2], outputs[1], "batch size 3 differs from 4096")
			for _, size := range []int{4, 4096} {
				requireSameParallel(t, outputs[2], runScript(t, string(src), size, WithParallelism(3)), size)
			}
			golden.Check(t, strings.TrimSuffix(path, ".sql")+".out", outputs[2])
		})
	}
}

// runScript runs src and renders results, summaries and any error as text.
func runScript(t *testing.T, src string, batchSize int, opts ...Option) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	// a fixed processing-time clock makes PROCTIME() windows reproducible
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC))
	e := New(append([]Option{WithAllocator(mem), WithBatchSize(batchSize), WithClock(clock)}, opts...)...)
	err := e.Run(context.Background(), src, Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
		OnText:    func(s string) { out.WriteString(s) },
		OnNotice:  func(s string) { out.WriteString(s + "\n") },
		Stdout:    &out,
		OnSummary: func(s Summary) { fmt.Fprintf(&out, "-- %s\n", s.Counts()) },
	})
	if err != nil {
		out.WriteString(FormatError(src, err) + "\n")
	}
	return out.String()
}

// sortedLines is text's lines in sorted order: the rows of a result,
// whatever order they came in.
func sortedLines(text string) []string {
	lines := strings.Split(text, "\n")
	slices.Sort(lines)
	return lines
}

// requireSameParallel checks a run with parallelism 3 against the run on
// one goroutine: partitioned by key, the same rows, in another order
// across keys; an update stream that a later stage (a join) changes in
// that order ends in the same rows.
func requireSameParallel(t *testing.T, single, parallel string, size int) {
	t.Helper()
	if updates(single) || updates(parallel) {
		require.Equal(t, materialisedLines(single), materialisedLines(parallel), "parallelism 3, batch size %d", size)
		return
	}
	require.Equal(t, sortedLines(single), sortedLines(parallel), "parallelism 3, batch size %d", size)
}

// updates reports whether a printed result has retractions.
func updates(text string) bool {
	return strings.Contains(text, "\n-U[") || strings.Contains(text, "\n-D[") || strings.HasPrefix(text, "-U[") || strings.HasPrefix(text, "-D[")
}

// materialisedLines applies a printed changelog (+I[...] and +U[...] add a
// row, -U[...] and -D[...] take one away) and returns the rows left,
// sorted, with the other lines but the summaries (whose counts of result
// rows depend on the changes).
func materialisedLines(text string) []string {
	count := map[string]int{}
	var other []string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "+I[") || strings.HasPrefix(line, "+U["):
			count[line[2:]]++
		case strings.HasPrefix(line, "-U[") || strings.HasPrefix(line, "-D["):
			count[line[2:]]--
		case strings.HasPrefix(line, "-- "):
		default:
			other = append(other, line)
		}
	}
	for row, n := range count {
		for range n {
			other = append(other, row)
		}
	}
	slices.Sort(other)
	return other
}

// TestWindowTVFMatchesGroupWindow pins that both window syntaxes lower to
// the same plan: the same rows, in the same order.
func TestWindowTVFMatchesGroupWindow(t *testing.T) {
	ddl := `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');`
	group := runScript(t, ddl+`SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, COUNT(*) AS n, SUM(w) AS sw
		FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)`, 4096)
	tvf := runScript(t, ddl+`SELECT k, window_start AS s, COUNT(*) AS n, SUM(w) AS sw
		FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end`, 4096)
	require.Equal(t, group, tvf)
	require.Contains(t, group, "a,1970-01-01 00:00:00.000,2,70\n")
}

// TestStdinTable reads a 'stdin' table from the engine's standard input.
func TestStdinTable(t *testing.T) {
	data, err := os.ReadFile("testdata/examples/clicks.csv")
	require.NoError(t, err)
	src := `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
		WITH ('connector' = 'stdin', 'format' = 'csv');
		SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend,
		       COUNT(*) AS n, SUM(amount) AS total
		FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`
	var out bytes.Buffer
	e := New(WithStdin(bytes.NewReader(data)), WithBatchSize(3))
	err = e.Run(context.Background(), src, Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnSummary: func(s Summary) { fmt.Fprintf(&out, "-- %s\n", s.Counts()) },
	})
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/examples/clicks.out")
	require.NoError(t, err)
	require.Equal(t, string(want), out.String(), "stdin gives what the file gives")

	err = New().Run(context.Background(), src, Output{NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil }})
	require.ErrorContains(t, err, "reads standard input, which is not available here")
}

// TestProgressSnapshots: a running query reports its progress.
func TestProgressSnapshots(t *testing.T) {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	var snaps []Progress
	var out bytes.Buffer
	e := New(WithBatchSize(1))
	err = e.Run(context.Background(), string(src), Output{
		NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnProgress:    func(p Progress) { snaps = append(snaps, p) },
		ProgressEvery: time.Nanosecond, // a snapshot after every batch
	})
	require.NoError(t, err)
	require.Len(t, snaps, 42, "one row per batch, one snapshot per batch")
	last := snaps[len(snaps)-1]
	require.Equal(t, int64(42), last.RowsRead)
	require.Equal(t, int64(2), last.LateRowsDropped)
	require.Greater(t, last.Watermark, snaps[0].Watermark)
	require.Positive(t, last.OpenWindows)
}
