package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// childEnv is set on every child process of the tool. The tool's own
// binary does not need it; a test binary standing in for the tool uses it
// to run as the command line instead of as tests.
const childEnv = "WSQL_DUCKBENCH_CHILD"

// A measure is one run of one engine on one query, taken the same way for
// both: wall time from the child's start to its exit, CPU time (user +
// system, all threads) and peak RSS from its rusage.
type measure struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes; 0 when unknown
	windows   int64 // the windows the query made (result rows)
}

// runChild runs cmd to its exit and measures it; stdout and stderr are
// returned for the caller to read the results from.
func runChild(cmd *exec.Cmd) (m measure, stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err = cmd.Run()
	m.wall = time.Since(start)
	if err != nil {
		return m, out.String(), errOut.String(), fmt.Errorf("%s: %w\n%s%s", cmd.Args[0], err, out.String(), errOut.String())
	}
	m.maxRSS, m.cpu, _ = procstat.ChildUsage(cmd.ProcessState)
	return m, out.String(), errOut.String(), nil
}

// summaryRE reads the run summary `wsql run` prints on stderr.
var summaryRE = regexp.MustCompile(`(?m)^wsql: (\d+) rows read, (\d+) late rows dropped, (\d+) bad rows skipped, (\d+) result rows`)

// runWSQL runs `wsql run script`; the result rows of its summary are the
// windows. A run that did not read every row, or dropped or skipped any,
// is an error: it must not pass for a fast one.
func runWSQL(wsql, script string, rows int64) (measure, error) {
	m, _, stderr, err := runChild(exec.Command(wsql, "run", script))
	if err != nil {
		return m, err
	}
	s := summaryRE.FindStringSubmatch(stderr)
	if s == nil {
		return m, fmt.Errorf("wsql printed no run summary on stderr:\n%s", stderr)
	}
	read, _ := strconv.ParseInt(s[1], 10, 64)
	if read != rows || s[2] != "0" || s[3] != "0" {
		return m, fmt.Errorf("wsql read %s rows, dropped %s late and skipped %s bad; want %d read and none dropped or skipped:\n%s",
			s[1], s[2], s[3], rows, stderr)
	}
	m.windows, _ = strconv.ParseInt(s[4], 10, 64)
	return m, nil
}

// duckdbLineRE reads the line of the DuckDB child.
var duckdbLineRE = regexp.MustCompile(`(?m)^duckdb (\S+) windows (\d+) rows (\d+) checksum \S+$`)

// runDuckDB runs the query in DuckDB in a child process (self
// duckdb-child) and checks that it counted every row of the file perRow
// times. It returns DuckDB's version too.
func runDuckDB(self string, q query, csv string, rows int64) (measure, string, error) {
	m, stdout, _, err := runChild(exec.Command(self, "duckdb-child", q.name, csv))
	if err != nil {
		return m, "", err
	}
	s := duckdbLineRE.FindStringSubmatch(stdout)
	if s == nil {
		return m, "", fmt.Errorf("the DuckDB child printed no result line:\n%s", stdout)
	}
	m.windows, _ = strconv.ParseInt(s[2], 10, 64)
	if counted, _ := strconv.ParseInt(s[3], 10, 64); counted != q.perRow*rows {
		return m, "", fmt.Errorf("DuckDB counted %d rows in the windows of %s, want %d (%d per row of %d)",
			counted, q.name, q.perRow*rows, q.perRow, rows)
	}
	return m, s[1], nil
}
