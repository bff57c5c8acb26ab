package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMain lets this test binary stand in for the tool: the tool runs its
// own binary as the DuckDB child, and here that binary is the test's.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// buildWSQL builds the repository's wsql into a temporary directory.
func buildWSQL(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wsql")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wsql")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// The whole comparison on a small file: wsql bench prepares the data and
// the scripts, both engines run every query in child processes and agree
// on the windows, and the tables have a line per query and per step.
// Times are printed, never asserted.
func TestCompareEndToEnd(t *testing.T) {
	wsql := buildWSQL(t)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"--wsql", wsql, "--rows", "20000", "--runs", "1", "--dir", dir}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	t.Log("\n" + stdout.String())
	out := stdout.String()
	require.Regexp(t, `(?m)^duckdb:  v\d+\.\d+\.\d+, 2 threads$`, out)
	require.Contains(t, out, "file:    20000 rows, 0.7 MB; 1 run(s) of each engine, alternating")

	tables := readTables(t, out)
	cmp := tables["query"]
	require.Len(t, cmp, 3)
	// the windows of the bench's 20000 rows (20 s of event time over 1000
	// keys), the same in both engines: the tool fails when they differ
	for name, want := range map[string][]string{
		"tumble":  {"1626", "≤0.5"},
		"hop":     {"7624", "≤0.3"},
		"session": {"1002", "≤0.15"},
	} {
		cells := cmp[name]
		require.Len(t, cells, 12, cells)
		require.Equal(t, want[0], cells[1], name)
		for _, i := range []int{2, 3, 5, 6} {
			require.Regexp(t, `^\d+\.\d{3}s$`, cells[i], name)
		}
		require.Regexp(t, `^\d+$`, cells[4], name)
		require.Regexp(t, `^\d+$`, cells[7], name)
		require.Regexp(t, `^\d+\.\d\d$`, cells[8], name)
		require.Equal(t, want[1], cells[10], name)
		require.Contains(t, []string{"met", "missed-ratio", "missed-RSS", "missed-ratio+RSS"}, cells[11], name)
	}

	limit := tables["step"]
	require.Len(t, limit, 7)
	fi, err := os.Stat(filepath.Join(dir, "events-v1-seed20240301-20000.csv"))
	require.NoError(t, err)
	for step, count := range map[string]int64{
		"read-1": fi.Size(), "read-2": fi.Size(), "split-1": 60000, "split-2": 60000,
		"wsql-tumble": 1626, "wsql-hop": 7624, "wsql-session": 1002,
	} {
		cells := limit[step]
		require.GreaterOrEqual(t, len(cells), 4, step)
		require.Regexp(t, `^\d+\.\d{3}s$`, cells[1], step)
		require.Equal(t, strconv.FormatInt(count, 10), cells[3], step)
	}
	require.FileExists(t, filepath.Join(dir, "session-20000.sql"))
	require.Contains(t, stderr.String(), "hop run 1/1: 7624 windows; wsql ")
}

// readTables reads the tables of the output: each table's lines by their
// first cell, under the first cell of its header line.
func readTables(t *testing.T, out string) map[string]map[string][]string {
	t.Helper()
	tables := map[string]map[string][]string{}
	var current map[string][]string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		cells := strings.Fields(sc.Text())
		switch {
		case len(cells) == 0:
			current = nil
		case cells[0] == "query" || cells[0] == "step":
			current = map[string][]string{}
			tables[cells[0]] = current
		case current != nil:
			current[cells[0]] = cells
		}
	}
	require.Contains(t, tables, "query", out)
	require.Contains(t, tables, "step", out)
	return tables
}

// Engines that disagree on the windows stop the comparison.
func TestAgree(t *testing.T) {
	require.NoError(t, agree("hop", -1, 7624, 7624))
	require.NoError(t, agree("hop", 7624, 7624, 7624))
	require.EqualError(t, agree("hop", -1, 7624, 7625), "hop: the engines disagree: wsql made 7624 windows, DuckDB 7625")
	require.EqualError(t, agree("hop", 7623, 7624, 7624), "hop: 7624 windows in this run, 7623 in the one before")
}

// The split counts the fields of every line, with or without a last line
// end, on one goroutine or several.
func TestSplitFields(t *testing.T) {
	for text, want := range map[string]int64{
		"":                    0,
		"a,b,c\n":             3,
		"a,b,c\nd,e,f":        6,
		"a,b,c\n,,\nx\n":      7,
		"a,b,c\nd,e,f\ng,h\n": 8,
	} {
		for _, workers := range []int{1, 2, 3} {
			require.Equal(t, want, splitFields([]byte(text), workers), "%q on %d", text, workers)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for args, want := range map[string]string{
		"--rows 10":                    "--wsql is required",
		"--wsql w --runs 0":            "--runs must be at least 1",
		"--wsql w --query tumble,nope": `unknown query "nope" (queries: tumble, hop, session)`,
		"--wsql w extra":               `no arguments, only flags (got "extra")`,
		"duckdb-child tumble":          "usage: duckbench duckdb-child QUERY CSV",
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, run(strings.Fields(args), &stdout, &stderr), args)
		require.Contains(t, stderr.String(), want, args)
	}
}
