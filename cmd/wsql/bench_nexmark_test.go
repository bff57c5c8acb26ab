package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const nexmarkTestdata = "../../testdata/nexmark"

// The Nexmark suite on a few thousand events: a query that runs gets a line
// of the table with Flink's rate next to it, a query the engine refuses is
// listed as not run with its reason, and the suite goes on. Times are
// printed, never asserted.
func TestBenchNexmark(t *testing.T) {
	dir, profiles := t.TempDir(), t.TempDir()
	code, stdout, stderr := runCLI(t, "", "bench", "--suite", "nexmark", "--events", "2000", "--runs", "1",
		"--dir", dir, "--queries", nexmarkTestdata, "--query", "q0,q6,q5_tvf,q20", "--cpuprofile", profiles)
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	require.Contains(t, stdout, "events:  2000 at 10000000 events/s of event time, 1 run(s) per query")

	ranTable, notRun, ok := strings.Cut(stdout, "\nnot run:\n")
	require.True(t, ok, stdout)
	table := benchTableRows(t, ranTable)
	require.Len(t, table, 3, "q0, q5_tvf and q20 run; q6 does not")
	for name, flink := range map[string]string{"q0": "155.0K", "q5_tvf": "22.1K", "q20": "19.0K"} {
		cells := table[name]
		require.Len(t, cells, 10, cells)
		require.Equal(t, "2000", cells[1], name)
		require.Regexp(t, `^\d+\.\d{3}s$`, cells[2], name)
		require.Regexp(t, `^\d+\.\d\dM$`, cells[5], name)
		require.Regexp(t, `^\d+$`, cells[6], name)
		require.Equal(t, flink, cells[7], name)
		require.Contains(t, []string{"met", "missed-rate", "missed-RSS", "missed-rate+RSS"}, cells[9], name)
		fi, err := os.Stat(filepath.Join(profiles, name+".pprof"))
		require.NoError(t, err)
		require.Positive(t, fi.Size())
	}
	require.Equal(t, "≥5M/core", table["q5_tvf"][8])
	require.Equal(t, "≥1M/core", table["q20"][8])
	require.Regexp(t, `^q6: nexmark-q6-2000\.sql:\d+:\d+: .*Top-N.*\n$`, notRun)
	require.Contains(t, stderr, "q6: not run: ")

	// the script is the shared DDL with the bench's options, then the query
	// with a blackhole sink
	script, err := os.ReadFile(filepath.Join(dir, "nexmark-q0-2000.sql"))
	require.NoError(t, err)
	require.Contains(t, string(script), "'events.num' = '2000'")
	require.Contains(t, string(script), "'connector' = 'blackhole'")
	require.NotContains(t, string(script), "'connector' = 'print'")
}

// Every query file is found, in query order with the legacy form before
// the TVF one, and has Flink's rate unless Flink cannot run it either.
func TestNexmarkQueries(t *testing.T) {
	qs, err := nexmarkQueries(nexmarkTestdata)
	require.NoError(t, err)
	var names []string
	for _, q := range qs {
		names = append(names, q.name)
		if q.base != "q6" {
			require.Contains(t, nexmarkFlinkPerCore, q.base)
		}
	}
	require.Equal(t, "q0 q1 q2 q3 q4 q5 q5_tvf q6 q7 q7_tvf q8 q8_tvf q9 q10 q11 q12 q12_tvf q13 q14 q15 q16 q17 q18 q19 q20 q21 q22",
		strings.Join(names, " "))
	require.Len(t, nexmarkFlinkPerCore, 22)
}

func TestNexmarkScript(t *testing.T) {
	ddl, err := os.ReadFile(filepath.Join(nexmarkTestdata, "ddl.sql"))
	require.NoError(t, err)
	q, err := os.ReadFile(filepath.Join(nexmarkTestdata, "q5.sql"))
	require.NoError(t, err)
	sql, err := nexmarkScript(string(ddl), string(q), 123)
	require.NoError(t, err)
	require.Contains(t, sql, "'events.num' = '123'")
	require.Contains(t, sql, "'first-event.rate' = '10000000'")
	require.Contains(t, sql, "'next-event.rate' = '10000000'")
	require.Contains(t, sql, "'seed' = '7'")
	require.NotContains(t, sql, "'connector' = 'print'")
	require.Regexp(t, `discard_sink \([^;]*\) WITH \(\s*'connector' = 'blackhole'`, sql)

	_, err = nexmarkScript("CREATE TABLE t (a INT) WITH ('connector' = 'nexmark');", string(q), 1)
	require.ErrorContains(t, err, "the DDL sets no 'events.num' option")
}

func TestBenchNexmarkUsageErrors(t *testing.T) {
	for args, want := range map[string]string{
		"bench --suite nope":                         `unknown suite "nope"`,
		"bench --suite nexmark --events 0":           "--events must be at least 1",
		"bench --suite nexmark --query q99 --runs 1": `unknown Nexmark query "q99"`,
	} {
		argv := append(strings.Fields(args), "--queries", nexmarkTestdata, "--dir", t.TempDir())
		code, _, stderr := runCLI(t, "", argv...)
		require.NotEqual(t, 0, code, args)
		require.Contains(t, stderr, want, args)
	}
}
