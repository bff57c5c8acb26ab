//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A child started on chosen CPUs runs there alone, and the thread that
// started it gets its own CPUs back.
func TestStartOnCPUsPinsTheChildAlone(t *testing.T) {
	cpus, err := benchCPUs()
	require.NoError(t, err)
	require.NotEmpty(t, cpus)
	last := cpus[len(cpus)-1]
	cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
	var out strings.Builder
	cmd.Stdout = &out
	require.NoError(t, startOnCPUs(cmd, []int{last}))
	require.NoError(t, cmd.Wait())
	require.Equal(t, "Cpus_allowed_list:\t"+strconv.Itoa(last)+"\n", out.String())

	// every thread of this process still has them all (the forking
	// thread went back to the pool of threads)
	var set unix.CPUSet
	require.NoError(t, unix.SchedGetaffinity(0, &set))
	require.Equal(t, len(cpus), set.Count())
}

// The scaling run on a small input: every configuration runs in a child
// process on the CPUs it names, and each query gets a line of one-word
// cells. Times are printed, never asserted.
func TestBenchScalingEndToEnd(t *testing.T) {
	cpus, err := benchCPUs()
	require.NoError(t, err)
	if len(cpus) < 2 {
		code, _, stderr := runCLI(t, "", "bench", "--scaling", "--rows", "2000", "--runs", "1", "--dir", t.TempDir())
		require.Equal(t, 1, code)
		require.Contains(t, stderr, "--scaling needs two CPUs")
		return
	}
	code, stdout, stderr := runCLI(t, "", "bench", "--scaling", "--rows", "20000", "--runs", "1", "--dir", t.TempDir())
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	require.Contains(t, stdout, "1 run(s) of each configuration, median wall time, on CPUs "+strconv.Itoa(cpus[0])+" and "+strconv.Itoa(cpus[1]))
	require.Regexp(t, `(?m)^query +1-core +2-core +1÷2 +on-cpu\d+ +on-cpu\d+ +bound +halves +1÷halves +target +result$`, stdout)
	table := benchTableRows(t, stdout)
	require.Len(t, table, len(benchScalingQueries))
	for _, name := range benchScalingQueries {
		cells := table[name]
		require.Len(t, cells, 11, cells)
		for _, wall := range []string{cells[1], cells[2], cells[4], cells[5], cells[7]} {
			require.Regexp(t, `^\d+\.\d{3}s$`, wall, name)
		}
		for _, ratio := range []string{cells[3], cells[6], cells[8]} {
			require.Regexp(t, `^\d+\.\d{2}$`, ratio, name)
		}
		require.Equal(t, "≥1.8", cells[9])
		require.Contains(t, []string{"met", "missed"}, cells[10])
		for _, config := range []string{"1 core", "2 cores", "1 core on cpu" + strconv.Itoa(cpus[0]), "1 core on cpu" + strconv.Itoa(cpus[1]), "2 halves at once"} {
			require.Contains(t, stderr, name+", "+config+", run 1/1: ")
		}
	}
}

// The bound is what two CPUs allow: the one-core time over the time of
// the work split between them at each one's speed.
func TestScalingBound(t *testing.T) {
	equal := scalingResult{oneCore: time.Second, twoCores: 600 * time.Millisecond,
		pinned: [2]time.Duration{time.Second, time.Second}}
	require.InDelta(t, 2.0, equal.bound(), 1e-9)
	require.InDelta(t, 1/0.6, equal.ratio(), 1e-9)
	// the second CPU runs the query at half the first one's speed
	uneven := scalingResult{oneCore: time.Second, pinned: [2]time.Duration{time.Second, 2 * time.Second}}
	require.InDelta(t, 1.5, uneven.bound(), 1e-9)
	halves := scalingResult{oneCore: time.Second, halves: 550 * time.Millisecond}
	require.InDelta(t, 1/0.55, halves.halvesRatio(), 1e-9)
}

// The halves of a file workload are its first rows and the rest, the same
// bytes as the whole; a generator's halves are two generators of half the
// rows. Each half's script reads its own rows, and both run at once.
func TestBenchHalves(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []benchFormat{benchCSV, benchJSON} {
		var whole bytes.Buffer
		require.NoError(t, writeBenchData(&whole, 101, f))
		first, _, err := ensureBenchRows(dir, 0, 50, f)
		require.NoError(t, err)
		rest, _, err := ensureBenchRows(dir, 50, 101, f)
		require.NoError(t, err)
		a, err := os.ReadFile(first)
		require.NoError(t, err)
		b, err := os.ReadFile(rest)
		require.NoError(t, err)
		require.Equal(t, 50, bytes.Count(a, []byte{'\n'}))
		require.Equal(t, whole.String(), string(a)+string(b), f.ext)
	}

	for _, name := range []string{"tumble", "datagen"} {
		q := benchQueries[slices.IndexFunc(benchQueries, func(q benchQuery) bool { return q.name == name })]
		h, err := writeBenchHalves(dir, q, 101)
		require.NoError(t, err)
		require.Equal(t, [2]int64{50, 51}, h.rows)
		for i, script := range h.scripts {
			sql, err := os.ReadFile(script)
			require.NoError(t, err)
			if name == "tumble" {
				require.Contains(t, string(sql), benchRowsName([2]int64{0, 50}[i], [2]int64{50, 101}[i], benchCSV))
			} else {
				require.Contains(t, string(sql), fmt.Sprintf("'number-of-rows' = '%d'", h.rows[i]))
			}
		}
	}
}

func TestBenchScalingUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--scaling", "--suite", "nexmark"},
		{"bench", "--scaling", "--query", "soak"},
		{"bench", "--scaling", "--query", "latency"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		require.Equal(t, 2, code, args)
		require.Contains(t, stderr, "--scaling runs the default queries")
	}
}
