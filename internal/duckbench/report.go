package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// rssTarget is the largest peak RSS wsql may use on each query (issue 22).
const rssTarget = 100e6

// printHeader describes the machine, the releases and the runs.
func printHeader(w io.Writer, c config, size int64, duckdbVersion string) {
	fmt.Fprintf(w, "machine: %s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if model := procstat.CPUModel(); model != "" {
		fmt.Fprintf(w, ", %s", model)
	}
	fmt.Fprintf(w, "\ngo:      %s\nduckdb:  %s, %d threads\n", runtime.Version(), duckdbVersion, duckdbThreads)
	fmt.Fprintf(w, "file:    %d rows, %.1f MB; %d run(s) of each engine, alternating; median wall and CPU time, largest peak RSS\n",
		c.rows, float64(size)/1e6, c.runs)
	fmt.Fprintf(w, "target:  wall-ratio (wsql/DuckDB) at most the query's target, wsql's peak RSS at most %.0f MB\n\n", rssTarget/1e6)
}

// printComparison writes one line per query; every cell is one word, so
// the table is easy to read with a program too.
func printComparison(w io.Writer, results []result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\twindows\twsql-wall\twsql-CPU\twsql-MB\tduckdb-wall\tduckdb-CPU\tduckdb-MB\twall-ratio\tCPU-ratio\ttarget\tresult")
	for _, r := range results {
		ratio := ratio(r.wsql.wall, r.duckdb.wall)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t≤%g\t%s\n", r.q.name, r.windows,
			seconds(r.wsql.wall), seconds(r.wsql.cpu), megabytes(r.wsql.maxRSS),
			seconds(r.duckdb.wall), seconds(r.duckdb.cpu), megabytes(r.duckdb.maxRSS),
			ratio, cpuRatio(r.wsql.cpu, r.duckdb.cpu), r.q.target, verdict(ratio, r.q.target, r.wsql.maxRSS))
	}
	flush(w, tw)
}

// verdict is met, or which of the targets was missed.
func verdict(ratio, target float64, rss int64) string {
	var missed []string
	if ratio > target {
		missed = append(missed, "ratio")
	}
	if rss <= 0 || rss > rssTarget {
		missed = append(missed, "RSS")
	}
	if len(missed) == 0 {
		return "met"
	}
	return "missed-" + strings.Join(missed, "+")
}

// printLimit writes the limit's steps and wsql's time on each query.
func printLimit(w io.Writer, size int64, runs int, limits []limit, results []result) {
	fmt.Fprintf(w, "\nwhere the limit is: the same file, %.1f MB, measured in one process, median of %d run(s)\n\n", float64(size)/1e6, runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "step\twall\tCPU\tcount\twhat")
	for _, l := range limits {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", l.step.name, seconds(l.m.wall), seconds(l.m.cpu), l.count, l.step.what)
	}
	for _, r := range results {
		fmt.Fprintf(tw, "wsql-%s\t%s\t%s\t%d\twindows: wsql run of the query, a child process\n",
			r.q.name, seconds(r.wsql.wall), seconds(r.wsql.cpu), r.windows)
	}
	flush(w, tw)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

func megabytes(b int64) string {
	if b <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f", float64(b)/1e6)
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return a.Seconds() / b.Seconds()
}

func cpuRatio(a, b time.Duration) string {
	if a <= 0 || b <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.2f", ratio(a, b))
}

func flush(w io.Writer, tw *tabwriter.Writer) {
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(w, err)
	}
}
