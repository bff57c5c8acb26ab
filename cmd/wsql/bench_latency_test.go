package main

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The latency run, briefly and slowly (3 s at 2000 rows/s): the query reads every row fed on
// its stdin in a child process, each window counts exactly the rows fed in
// it (the bench checks both), and the windows fired by the watermark are
// measured. Times are printed, never asserted.
func TestBenchLatency(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "bench", "--query", "latency", "--seconds", "3", "--rate", "2000", "--dir", t.TempDir())
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	require.Regexp(t, `(?m)^machine: \w+/\w+, \d+ CPUs, GOMAXPROCS \d+`, stdout)
	require.Contains(t, stdout, "latency: stdin CSV at 2000 rows/s for 3s, 1000 keys, WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND, TUMBLE(1 s) per key to stdout\n")
	require.Regexp(t, `(?m)^load:    \S+ before, \S+ after \(1-minute load average\)$`, stdout)

	fed := regexp.MustCompile(`(?m)^fed:     (\d+) rows in \d+\.\d{3}s \(\d+ rows/s\) in (\d+) writes, at most (\d+) rows a write, at most \d+\.\d\dms behind the schedule, the longest write \d+\.\d\dms$`).FindStringSubmatch(stdout)
	require.NotNil(t, fed, stdout)
	rows, _ := strconv.Atoi(fed[1])
	require.Equal(t, 6000, rows, "3 s at 2000 rows/s")
	writes, _ := strconv.Atoi(fed[2])
	require.Greater(t, writes, 1, "the rows are fed as they are due, not at once")

	res := regexp.MustCompile(`(?m)^results: (\d+) rows for (\d+) windows, each counting the rows fed in it; child CPU \d+\.\d{3}s, peak RSS \d+ MiB$`).FindStringSubmatch(stdout)
	require.NotNil(t, res, stdout)
	windows, _ := strconv.Atoi(res[2])
	require.Contains(t, []int{3, 4}, windows, "3 s of rows span 3 or 4 windows")
	results, _ := strconv.Atoi(res[1])
	require.Greater(t, results, windows, "a row per key and window")
	require.LessOrEqual(t, results, rows)

	// the first window is partial and the last is fired by the end of the
	// input: the windows in between are fired by the watermark
	m := regexp.MustCompile(`(?m)^windows measured: (\d+) \(`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, strconv.Itoa(windows-2), m[1])

	require.Regexp(t, `(?m)^windows +p50 +p90 +p99 +max +target +result$`, stdout)
	require.Regexp(t, `(?m)^`+m[1]+` +\d+\.\d\dms +\d+\.\d\dms +\d+\.\d\dms +\d+\.\d\dms +p99≤50\.00ms +(met|missed)$`, stdout)
}

// Percentiles are nearest-rank: the smallest value with at least that
// share of the values at or below it.
func TestLatencyPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	require.Equal(t, 50*time.Millisecond, percentile(lat, 0.5))
	require.Equal(t, 99*time.Millisecond, percentile(lat, 0.99))
	require.Equal(t, 100*time.Millisecond, percentile(lat, 1))
	require.Equal(t, 9*time.Millisecond, percentile(lat[:9], 0.99), "p99 of 9 values is the largest")
	require.Equal(t, 5*time.Millisecond, percentile(lat[:9], 0.5))
}
