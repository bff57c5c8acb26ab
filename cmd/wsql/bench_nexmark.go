package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// The Nexmark suite of `wsql bench --suite nexmark`: every query of the
// nexmark project as testdata/nexmark holds it, over N generated events to
// blackhole sinks, next to Flink's published rate per core.

// nexmarkBenchRate is the generator's rate in events per second of event
// time: the 10M TPS of the nexmark project's benchmark workload
// (nexmark.workload.suite.100m.tps), so that windows hold as many events
// as in Flink's runs. The generator is not paced by the wall clock.
const nexmarkBenchRate = 10_000_000

// nexmarkMaxRSS is the peak RSS target of every query: 1 GiB.
const nexmarkMaxRSS = 1 << 30

// nexmarkFlinkPerCore is Flink's throughput per core in events per second
// of each query, from the benchmark results table of the nexmark project's
// README (Flink 1.13, 100M events, 8 workers of 1 slot; the latest table
// the project published). q6 does not run on Flink.
var nexmarkFlinkPerCore = map[string]float64{
	"q0": 155.02e3, "q1": 157.94e3, "q2": 175.21e3, "q3": 152.12e3, "q4": 34.33e3,
	"q5": 22.14e3, "q7": 12.33e3, "q8": 146.14e3, "q9": 14.24e3, "q10": 57.81e3,
	"q11": 39.7e3, "q12": 75.67e3, "q13": 130.73e3, "q14": 161.23e3, "q15": 72.42e3,
	"q16": 18.65e3, "q17": 116.8e3, "q18": 53.7e3, "q19": 44.04e3, "q20": 18.98e3,
	"q21": 98.49e3, "q22": 129.96e3,
}

// nexmarkWindowed are the windowed aggregations, whose target is 5M events
// per CPU-second; every other query's is 1M.
var nexmarkWindowed = []string{"q5", "q7", "q8", "q11", "q12"}

// nexmarkQueryFile matches a query file: q5.sql, or q5_tvf.sql for the
// window TVF form of a query that also has a legacy form.
var nexmarkQueryFile = regexp.MustCompile(`^q(\d+)(_tvf)?\.sql$`)

// A nexmarkQuery is one query file of the suite.
type nexmarkQuery struct {
	name string // q5, q5_tvf
	base string // q5 for both forms
	num  int
	path string
}

// perCoreTarget is the query's target in events per CPU-second.
func (q nexmarkQuery) perCoreTarget() float64 {
	if slices.Contains(nexmarkWindowed, q.base) {
		return 5e6
	}
	return 1e6
}

// nexmarkQueries lists the query files of dir in query order, the legacy
// form before the TVF one.
func nexmarkQueries(dir string) ([]nexmarkQuery, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var qs []nexmarkQuery
	for _, e := range entries {
		m := nexmarkQueryFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		qs = append(qs, nexmarkQuery{
			name: strings.TrimSuffix(e.Name(), ".sql"),
			base: "q" + m[1],
			num:  n,
			path: filepath.Join(dir, e.Name()),
		})
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no Nexmark queries (q0.sql ...) in %s", dir)
	}
	slices.SortFunc(qs, func(a, b nexmarkQuery) int {
		if a.num != b.num {
			return a.num - b.num
		}
		return strings.Compare(a.name, b.name)
	})
	return qs, nil
}

// nexmarkOption matches one of the generator options the bench sets.
var nexmarkOption = regexp.MustCompile(`'(events\.num|first-event\.rate|next-event\.rate)' = '\d+'`)

// nexmarkScript is the bench's script of one query: the shared DDL with
// events events at the benchmark's rate, then the query with its sinks
// made blackholes, as the nexmark project declares them.
func nexmarkScript(ddl, query string, events int64) (string, error) {
	seen := map[string]bool{}
	ddl = nexmarkOption.ReplaceAllStringFunc(ddl, func(opt string) string {
		key := nexmarkOption.FindStringSubmatch(opt)[1]
		seen[key] = true
		value := int64(nexmarkBenchRate)
		if key == "events.num" {
			value = events
		}
		return fmt.Sprintf("'%s' = '%d'", key, value)
	})
	for _, key := range []string{"events.num", "first-event.rate", "next-event.rate"} {
		if !seen[key] {
			return "", fmt.Errorf("the DDL sets no '%s' option", key)
		}
	}
	query = strings.ReplaceAll(query, "'connector' = 'print'", "'connector' = 'blackhole'")
	return ddl + "\n" + query, nil
}

// nexmarkDataFiles points the script's paths of the suite's data files
// (q13's side input, 'testdata/nexmark/data/...' from the repository's
// root) into queriesDir's data directory, so the script runs from any
// directory.
func nexmarkDataFiles(script, queriesDir string) (string, error) {
	const prefix = "'testdata/nexmark/data/"
	if !strings.Contains(script, prefix) {
		return script, nil
	}
	abs, err := filepath.Abs(filepath.Join(queriesDir, "data"))
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(script, prefix, "'"+abs+string(filepath.Separator)), nil
}

// nexmarkResult is the measurement of one query, or why it did not run.
type nexmarkResult struct {
	q      nexmarkQuery
	events int64
	read   int64 // rows the sources read: events times the scans of the event table
	wall   time.Duration
	cpu    time.Duration
	maxRSS int64
	notRun string // the first line of the error; "" when it ran
}

// runNexmarkBench measures the queries of dir (all, or those named in
// only, comma-separated) over events events, runs times each. A query that
// fails is reported as not run with the first line of its error; the rest
// still run. With profileDir set, each query's last run writes a CPU
// profile there.
func runNexmarkBench(dir, queriesDir, only, profileDir string, events int64, runs int, stdout, stderr io.Writer) ([]nexmarkResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the wsql binary to run the queries: %w", err)
	}
	qs, err := nexmarkQueries(queriesDir)
	if err != nil {
		return nil, err
	}
	if only != "" {
		var picked []nexmarkQuery
		for _, name := range strings.Split(only, ",") {
			i := slices.IndexFunc(qs, func(q nexmarkQuery) bool { return q.name == name })
			if i < 0 {
				return nil, fmt.Errorf("unknown Nexmark query %q in %s", name, queriesDir)
			}
			picked = append(picked, qs[i])
		}
		qs = picked
	}
	ddl, err := os.ReadFile(filepath.Join(queriesDir, "ddl.sql"))
	if err != nil {
		return nil, err
	}
	if err := absDirs(&dir, &profileDir); err != nil {
		return nil, err
	}
	printMachine(stdout)
	fmt.Fprintf(stdout, "events:  %d at %d events/s of event time, %d run(s) per query, median times\n\n", events, nexmarkBenchRate, runs)
	var results []nexmarkResult
	for _, q := range qs {
		text, err := os.ReadFile(q.path)
		if err != nil {
			return nil, err
		}
		sql, err := nexmarkScript(string(ddl), string(text), events)
		if err != nil {
			return nil, err
		}
		if sql, err = nexmarkDataFiles(sql, queriesDir); err != nil {
			return nil, err
		}
		script := filepath.Join(dir, fmt.Sprintf("nexmark-%s-%d.sql", q.name, events))
		if err := os.WriteFile(script, []byte(sql), 0o644); err != nil {
			return nil, err
		}
		r := nexmarkResult{q: q, events: events}
		var walls, cpus []time.Duration
		for i := range runs {
			profile := ""
			if profileDir != "" && i == runs-1 {
				profile = filepath.Join(profileDir, q.name+".pprof")
			}
			m, read, err := nexmarkRun(self, script, events, profile)
			var failed *nexmarkFailure
			if errors.As(err, &failed) {
				r.notRun = failed.reason
				fmt.Fprintf(stderr, "%s: not run: %s\n", q.name, failed.reason)
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s (%s): %w", q.name, script, err)
			}
			fmt.Fprintf(stderr, "%s run %d/%d: %s wall, %s CPU, %.0f MiB\n", q.name, i+1, runs,
				m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond), float64(m.maxRSS)/(1<<20))
			walls = append(walls, m.wall)
			cpus = append(cpus, m.cpu)
			r.maxRSS = max(r.maxRSS, m.maxRSS)
			r.read = read
		}
		if r.notRun == "" {
			r.wall, r.cpu = median(walls), median(cpus)
		}
		results = append(results, r)
	}
	return results, nil
}

// A nexmarkFailure is a query the engine refused or failed: the suite
// reports it and goes on.
type nexmarkFailure struct{ reason string }

func (f *nexmarkFailure) Error() string { return f.reason }

// benchProfileEnv names the file a bench child writes its CPU profile to.
const benchProfileEnv = "WSQL_BENCH_CPUPROFILE"

// nexmarkRun runs one query in a child process. The rows read must be a
// whole number of scans of the events: a run that stopped early must not
// pass for a fast one.
func nexmarkRun(self, script string, events int64, profile string) (benchMeasure, int64, error) {
	var errOut strings.Builder
	cmd := exec.Command(self, "run", script)
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	if profile != "" {
		cmd.Env = append(cmd.Env, benchProfileEnv+"="+profile)
	}
	cmd.Stdout = io.Discard
	cmd.Stderr = &errOut
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return benchMeasure{}, 0, &nexmarkFailure{reason: firstErrorLine(errOut.String(), script, err)}
	}
	m := summaryRE.FindStringSubmatch(errOut.String())
	if m == nil {
		return benchMeasure{}, 0, fmt.Errorf("no run summary on stderr:\n%s", errOut.String())
	}
	read, _ := strconv.ParseInt(m[1], 10, 64)
	if read == 0 || read%events != 0 {
		return benchMeasure{}, 0, fmt.Errorf("read %d rows, not a whole number of scans of %d events:\n%s", read, events, errOut.String())
	}
	rss, cpu, _ := procstat.ChildUsage(cmd.ProcessState)
	return benchMeasure{wall: wall, cpu: cpu, maxRSS: rss}, read, nil
}

// firstErrorLine is the first line of a failed child's stderr without its
// "error: ", with the script named by its file name only, or the exit status where it printed
// nothing.
func firstErrorLine(stderr, script string, err error) string {
	line, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
	if line == "" {
		return err.Error()
	}
	line = strings.TrimPrefix(line, "error: ")
	return strings.ReplaceAll(line, script, filepath.Base(script))
}

// printNexmarkTable writes one line per query that ran, every cell one
// word, then the queries that did not run with their reasons.
func printNexmarkTable(w io.Writer, results []nexmarkResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\tevents\twall\tevents/s\tCPU\tevents/CPU-s\tRSS-MiB\tflink/core\ttarget\tresult")
	for _, r := range results {
		if r.notRun != "" {
			continue
		}
		rss := "?"
		if r.maxRSS > 0 {
			rss = fmt.Sprintf("%.0f", float64(r.maxRSS)/(1<<20))
		}
		flink := "-"
		if f, ok := nexmarkFlinkPerCore[r.q.base]; ok {
			flink = fmt.Sprintf("%.1fK", f/1e3)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3fs\t%s\t%.3fs\t%s\t%s\t%s\t≥%gM/core\t%s\n", r.q.name, r.events,
			r.wall.Seconds(), rate(r.events, r.wall), r.cpu.Seconds(), rate(r.events, r.cpu), rss, flink,
			r.q.perCoreTarget()/1e6, r.verdict())
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(w, err)
	}
	first := true
	for _, r := range results {
		if r.notRun == "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nnot run:")
			first = false
		}
		fmt.Fprintf(w, "%s: %s\n", r.q.name, r.notRun)
	}
}

// verdict is met when the query reaches its rate per core and stays
// within the RSS target, else which of the two it missed.
func (r nexmarkResult) verdict() string {
	rateOK := r.cpu > 0 && float64(r.events)/r.cpu.Seconds() >= r.q.perCoreTarget()
	rssOK := r.maxRSS <= nexmarkMaxRSS
	switch {
	case rateOK && rssOK:
		return "met"
	case rssOK:
		return "missed-rate"
	case rateOK:
		return "missed-RSS"
	}
	return "missed-rate+RSS"
}
