package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMain lets this test binary stand in for wsql: `wsql bench` re-executes
// its own binary to run each query, and here that binary is the test's.
func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		if at := os.Getenv(crashAtEnv); at != "" {
			crashAt(at) // crash_point_test.go
		}
		if marker := os.Getenv(pauseAtEnv); marker != "" {
			pauseAt(marker) // crash_point_test.go
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The whole benchmark on a small input: every query runs in a child
// process, reads all its rows (the bench checks the run summary) and gets
// a line of the table. Times are printed, never asserted.
func TestBenchEndToEnd(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "", "bench", "--rows", "20000", "--runs", "1", "--dir", dir)
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	require.Regexp(t, `(?m)^machine: \w+/\w+, \d+ CPUs, GOMAXPROCS \d+`, stdout)
	require.Contains(t, stdout, "go:      go")

	table := benchTableRows(t, stdout)
	require.Len(t, table, len(benchQueries))
	for _, q := range benchQueries {
		cells, ok := table[q.name]
		require.Truef(t, ok, "no line for %s in\n%s", q.name, stdout)
		require.Len(t, cells, 9, cells)
		require.Equal(t, "20000", cells[1], "%s rows", q.name)
		require.Regexp(t, `^\d+\.\d{3}s$`, cells[2], "%s wall", q.name)
		require.Regexp(t, `^\d+$`, cells[6], "%s RSS", q.name)
		require.Equal(t, q.target(), cells[7])
		require.Contains(t, []string{"met", "missed"}, cells[8])
	}
	require.Contains(t, stderr, "20000 rows, 0.7 MB, generated in ")
	require.Contains(t, stderr, benchDataName(20000, benchJSON)+", 20000 rows, 1.2 MB, generated in ")
	for _, name := range []string{"tumble-json", "hop-json", "session-json"} {
		require.Equal(t, "≤1.5×csv", table[name][7])
	}

	// a second run finds the data in the cache, and its last run writes a
	// CPU profile of the query
	profiles := filepath.Join(t.TempDir(), "profiles")
	code, stdout, stderr = runCLI(t, "", "bench", "--rows", "20000", "--runs", "2", "--dir", dir, "--query", "tumble",
		"--cpuprofile", profiles)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "0.7 MB, reused")
	require.NotContains(t, stderr, ".jsonl", "the JSON file is only for the JSON queries")
	require.Contains(t, stderr, "tumble run 2/2: ")
	require.Len(t, benchTableRows(t, stdout), 1)
	written, err := os.ReadDir(profiles)
	require.NoError(t, err)
	require.Len(t, written, 1)
	require.Equal(t, "tumble.pprof", written[0].Name())
	fi, err := written[0].Info()
	require.NoError(t, err)
	require.Positive(t, fi.Size())
}

// benchTableRows reads the table of `wsql bench`: the cells of each query
// line by query name.
func benchTableRows(t *testing.T, stdout string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	inTable := false
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		cells := strings.Fields(sc.Text())
		switch {
		case len(cells) > 0 && cells[0] == "query":
			inTable = true
		case inTable && len(cells) > 0:
			rows[cells[0]] = cells
		}
	}
	require.True(t, inTable, "no table in\n%s", stdout)
	return rows
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--query", "nope"},
		{"bench", "--rows", "0"},
		{"bench", "extra"},
		{"--format", "csv", "bench"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, 2, code, args)
		require.Empty(t, stdout)
		require.Contains(t, stderr, "\nrun 'wsql --help' for usage\n")
	}
	_, _, stderr := runCLI(t, "", "bench", "--query", "nope")
	require.Contains(t, stderr, "queries: tumble, hop, session, tumble-json, hop-json, session-json, datagen, nexmark-q11, nexmark-q12, group-by, top-n, dedup-last, or several joined by commas; and soak and latency, each run alone")
	_, _, stderr = runCLI(t, "", "bench", "--query", "tumble,nope")
	require.Contains(t, stderr, `unknown query "nope"`)
}

// The workload is the same bytes everywhere: pinned by a hash, with the
// properties the queries rely on.
func TestBenchDataIsDeterministic(t *testing.T) {
	const n = 20000
	var a, b bytes.Buffer
	require.NoError(t, writeBenchCSV(&a, n))
	require.NoError(t, writeBenchCSV(&b, n))
	require.Equal(t, a.Bytes(), b.Bytes())

	var small bytes.Buffer
	require.NoError(t, writeBenchCSV(&small, 1000))
	require.True(t, bytes.HasPrefix(a.Bytes(), small.Bytes()), "a longer file starts with a shorter one")
	sum := sha256.Sum256(small.Bytes())
	require.Equal(t, "227152361d55c45d72a5a9c11641936b9c8bd326f946ce2a3ef33599666f93b9", hex.EncodeToString(sum[:]))

	line := regexp.MustCompile(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}),k(\d{1,3}),(\d{1,3}\.\d\d)$`)
	keys := map[string]bool{}
	var maxTS int64
	sc := bufio.NewScanner(bytes.NewReader(a.Bytes()))
	i := int64(0)
	for ; sc.Scan(); i++ {
		m := line.FindStringSubmatch(sc.Text())
		require.NotNil(t, m, "line %d: %q", i+1, sc.Text())
		tm, err := time.Parse("2006-01-02 15:04:05.000", m[1])
		require.NoError(t, err)
		ts := tm.UnixMilli()
		require.True(t, ts <= benchBase+i && ts > benchBase+i-benchMaxDisorder, "line %d: %s", i+1, m[1])
		if i > 0 {
			// behind the latest time by less than the 2 s of the watermark
			require.Less(t, maxTS-ts, int64(benchMaxDisorder), "line %d", i+1)
		}
		maxTS = max(maxTS, ts)
		keys[m[2]] = true
	}
	require.Equal(t, int64(n), i)
	require.Len(t, keys, benchKeys)
	require.True(t, strings.HasPrefix(b.String(), "2024-03-01 08:59:59.985,k141,328.91\n2024-03-01 08:59:59.989,k131,872.96\n"))
}

// A cached file is reused; the temporary file it was written to is gone.
func TestBenchDataCache(t *testing.T) {
	dir := t.TempDir()
	path, generated, err := ensureBenchData(dir, 100, benchCSV)
	require.NoError(t, err)
	require.True(t, generated)
	again, generated, err := ensureBenchData(dir, 100, benchCSV)
	require.NoError(t, err)
	require.False(t, generated)
	require.Equal(t, path, again)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, "events-v1-seed20240301-100.csv", entries[0].Name())
	var want bytes.Buffer
	require.NoError(t, writeBenchCSV(&want, 100))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want.Bytes(), got)
}

func TestNexmarkBids(t *testing.T) {
	require.Equal(t, int64(4600), nexmarkBids(5000)) // testdata/e2e/nexmark_q11
	require.Equal(t, int64(0), nexmarkBids(4))
	require.Equal(t, int64(1), nexmarkBids(5))
	require.Equal(t, int64(46), nexmarkBids(50))
	require.Equal(t, int64(47), nexmarkBids(55))
}

// The soak run on a small input: the session query reads every row in a
// child process, and the RSS series is printed (sampled from /proc on
// Linux) with its maximum. It is not part of the default run.
func TestBenchSoak(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "", "bench", "--query", "soak", "--rows", "300000", "--every", "10ms", "--dir", dir)
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	require.Contains(t, stdout, "soak:    300000 rows, SESSION(2 s) over 1000 keys, RSS sampled every 10ms")
	require.Contains(t, stdout, "time     RSS-MiB\n")
	require.Regexp(t, `(?m)^result rows: \d+, wall \d+\.\d{3}s, CPU \d+\.\d{3}s, [\d.]+M rows/s$`, stdout)
	if _, err := os.Stat("/proc/self/status"); err == nil {
		require.Regexp(t, `(?m)^max sampled RSS: \d+\.\d MiB over \d+ samples$`, stdout)
	}
	require.NotContains(t, benchQueryNames(), "soak", "soak stays out of the default run")

	rss, ok := procRSS(os.Getpid())
	if _, err := os.Stat("/proc/self/status"); err == nil {
		require.True(t, ok)
		require.Greater(t, rss, int64(1<<20))
	}
}

func benchQueryNames() []string {
	var names []string
	for _, q := range benchQueries {
		names = append(names, q.name)
	}
	return names
}
