package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// benchChildEnv is set on the child processes of `wsql bench`. The wsql
// binary ignores it; a test binary standing in for wsql (see bench_test.go)
// uses it to run as the command line instead of as tests.
const benchChildEnv = "WSQL_BENCH_CHILD"

// benchTargetRows is the input size the wall-time targets are stated for.
const benchTargetRows = 10_000_000

// A benchQuery is one query of the benchmark, run to a blackhole sink.
type benchQuery struct {
	name string
	// source is where the rows come from: "csv" or "json" (the generated
	// file in that format), "datagen" or "nexmark" (events of which the
	// query reads the bids).
	source string
	// sql is the script for rows input rows (events for nexmark) and the
	// generated file at data.
	sql func(data string, rows int64) string
	// Exactly one target: a wall time at benchTargetRows rows, a rate in
	// rows (events) per CPU second, or a wall time within
	// benchJSONFactor times that of the baseline query in the same run.
	wall     time.Duration
	perCore  float64
	baseline string
}

// target describes the query's target in the table's terms.
func (q benchQuery) target() string {
	if q.baseline != "" {
		return fmt.Sprintf("≤%g×%s", benchJSONFactor, benchSource(q.baseline))
	}
	if q.wall > 0 {
		return fmt.Sprintf("≤%gs@10M", q.wall.Seconds())
	}
	return fmt.Sprintf("≥%gM/core", q.perCore/1e6)
}

// met reports whether a measurement meets a target of wall time or rate.
// A wall-time target is scaled to the rows run, as the rate it implies.
func (q benchQuery) met(rows int64, wall, cpu time.Duration) bool {
	if q.wall > 0 {
		return float64(rows)/wall.Seconds() >= benchTargetRows/q.wall.Seconds()
	}
	return cpu > 0 && float64(rows)/cpu.Seconds() >= q.perCore
}

// rowsRead is how many rows the query's source reads for rows input rows.
func (q benchQuery) rowsRead(rows int64) int64 {
	if q.source == "nexmark" {
		return nexmarkBids(rows)
	}
	return rows
}

// nexmarkBids is how many of the first events Nexmark events are bids: of
// every 50, the first is a person, the next 3 auctions and 46 bids.
func nexmarkBids(events int64) int64 {
	return events/50*46 + min(max(events%50-4, 0), 46)
}

// benchQueries are the queries of docs/performance.md, in order.
var benchQueries = []benchQuery{
	{name: "tumble", source: "csv", wall: 1600 * time.Millisecond, sql: func(csv string, _ int64) string {
		return benchEventsTable(csv, "csv") + benchTumbleSQL
	}},
	{name: "hop", source: "csv", wall: 1800 * time.Millisecond, sql: func(csv string, _ int64) string {
		return benchEventsTable(csv, "csv") + benchHopSQL
	}},
	{name: "session", source: "csv", wall: 2000 * time.Millisecond, sql: func(csv string, _ int64) string {
		return benchEventsTable(csv, "csv") + benchSessionSQL
	}},
	{name: "tumble-json", source: "json", baseline: "tumble", sql: func(jsonl string, _ int64) string {
		return benchEventsTable(jsonl, "json") + benchTumbleSQL
	}},
	{name: "hop-json", source: "json", baseline: "hop", sql: func(jsonl string, _ int64) string {
		return benchEventsTable(jsonl, "json") + benchHopSQL
	}},
	{name: "session-json", source: "json", baseline: "session", sql: func(jsonl string, _ int64) string {
		return benchEventsTable(jsonl, "json") + benchSessionSQL
	}},
	{name: "datagen", source: "datagen", perCore: 40e6, sql: func(_ string, rows int64) string {
		// a millisecond sequence as event time, 1000 random keys, unpaced
		return benchGenTable(rows, "2") + `
CREATE TABLE sink (k INT, wstart TIMESTAMP(3), n BIGINT, total DOUBLE, hi DOUBLE)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE), COUNT(*), SUM(v), MAX(v)
FROM gen GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`
	}},
	{name: "nexmark-q11", source: "nexmark", perCore: 25e6, sql: func(_ string, rows int64) string {
		// Nexmark q11, user sessions: bids per bidder per session of activity
		return benchBidTable(rows, "") + `
CREATE TABLE sink (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3))
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT bidder, COUNT(*) AS bid_count,
       SESSION_START(dateTime, INTERVAL '10' SECOND) AS starttime,
       SESSION_END(dateTime, INTERVAL '10' SECOND) AS endtime
FROM bid GROUP BY bidder, SESSION(dateTime, INTERVAL '10' SECOND);
`
	}},
	{name: "nexmark-q12", source: "nexmark", perCore: 25e6, sql: func(_ string, rows int64) string {
		// Nexmark q12, processing-time windows: bids per bidder per 10 s
		// of wall clock (they fire at the end of the bounded input)
		return benchBidTable(rows, "  p_time AS PROCTIME(),\n") + `
CREATE TABLE sink (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3))
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT bidder, COUNT(*) AS bid_count,
       TUMBLE_START(p_time, INTERVAL '10' SECOND) AS starttime,
       TUMBLE_END(p_time, INTERVAL '10' SECOND) AS endtime
FROM bid GROUP BY bidder, TUMBLE(p_time, INTERVAL '10' SECOND);
`
	}},
	{name: "group-by", source: "datagen", perCore: 10e6, sql: func(_ string, rows int64) string {
		// issue 18: a GROUP BY without a window over 1000 keys, an update
		// stream of -U/+U per row
		return benchGenTable(rows, "2") + `
CREATE TABLE sink (k INT, n BIGINT, total DOUBLE, hi DOUBLE)
WITH ('connector' = 'blackhole');
INSERT INTO sink SELECT k, COUNT(*), SUM(v), MAX(v) FROM gen GROUP BY k;
`
	}},
	{name: "top-n", source: "datagen", perCore: 5e6, sql: func(_ string, rows int64) string {
		// the ten largest values of each of 1000 keys, with the rank
		return benchGenTable(rows, "2") + `
CREATE TABLE sink (k INT, v DOUBLE, rn BIGINT)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT k, v, rn FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM gen)
WHERE rn <= 10;
`
	}},
	{name: "dedup-last", source: "datagen", perCore: 10e6, sql: func(_ string, rows int64) string {
		// the last row of each of 1000 keys by event time: -U/+U per row
		return benchGenTable(rows, "2") + `
CREATE TABLE sink (k INT, v DOUBLE, ts TIMESTAMP_LTZ(3))
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT k, v, ts FROM (
  SELECT k, v, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM gen)
WHERE rn = 1;
`
	}},
}

// benchEventsTable declares the generated file as table events, in
// format ("csv" or "json").
func benchEventsTable(path, format string) string {
	return `CREATE TABLE events (
  ts TIMESTAMP(3),
  ` + "`key`" + ` STRING,
  ` + "`value`" + ` DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '` + strings.ReplaceAll(path, "'", "''") + `', 'format' = '` + format + `');
`
}

// benchTumbleSQL is the tumble query over table events, for both formats.
const benchTumbleSQL = `
CREATE TABLE sink (k STRING, wstart TIMESTAMP(3), wend TIMESTAMP(3), n BIGINT, total DOUBLE, hi DOUBLE)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT ` + "`key`" + `, TUMBLE_START(ts, INTERVAL '1' MINUTE), TUMBLE_END(ts, INTERVAL '1' MINUTE),
       COUNT(*), SUM(` + "`value`" + `), MAX(` + "`value`" + `)
FROM events GROUP BY ` + "`key`" + `, TUMBLE(ts, INTERVAL '1' MINUTE);
`

// benchHopSQL is the hop query over table events, for both formats.
const benchHopSQL = `
CREATE TABLE sink (k STRING, wstart TIMESTAMP(3), wend TIMESTAMP(3), n BIGINT, mean DOUBLE)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT ` + "`key`" + `, HOP_START(ts, INTERVAL '10' SECOND, INTERVAL '1' MINUTE),
       HOP_END(ts, INTERVAL '10' SECOND, INTERVAL '1' MINUTE), COUNT(*), AVG(` + "`value`" + `)
FROM events GROUP BY ` + "`key`" + `, HOP(ts, INTERVAL '10' SECOND, INTERVAL '1' MINUTE);
`

// benchSessionSQL is the session query over table events, for both formats.
const benchSessionSQL = `
CREATE TABLE sink (k STRING, wstart TIMESTAMP(3), wend TIMESTAMP(3), n BIGINT)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT ` + "`key`" + `, SESSION_START(ts, INTERVAL '10' SECOND), SESSION_END(ts, INTERVAL '10' SECOND), COUNT(*)
FROM events GROUP BY ` + "`key`" + `, SESSION(ts, INTERVAL '10' SECOND);
`

// benchBidTable declares Nexmark's bid table over events events, as
// Nexmark's DDL has it, with extra column definitions.
func benchBidTable(events int64, extra string) string {
	return fmt.Sprintf(`CREATE TABLE bid (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel VARCHAR,
  url VARCHAR,
  dateTime TIMESTAMP(3),
  extra VARCHAR,
%s  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'nexmark.table' = 'bid', 'events.num' = '%d');
`, extra, events)
}

// benchResult is the measurement of one query over its runs.
type benchResult struct {
	q          benchQuery
	rows       int64         // input rows, or events for nexmark
	wall       time.Duration // median
	cpu        time.Duration // median user + system time
	maxRSS     int64         // bytes, the largest of the runs; 0 when unknown
	resultRows int64         // of the last run
}

// runBench is `wsql bench`: it runs the benchmark queries, each in a child
// process, and prints the machine and a table of results on stdout;
// progress goes to stderr.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wsql bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rows := fs.Int64("rows", benchTargetRows, "")
	runs := fs.Int("runs", 3, "")
	dir := fs.String("dir", "", "")
	only := fs.String("query", "", "")
	every := fs.Duration("every", time.Second, "")
	suite := fs.String("suite", "", "")
	events := fs.Int64("events", benchTargetRows, "")
	queriesDir := fs.String("queries", filepath.Join("testdata", "nexmark"), "")
	profileDir := fs.String("cpuprofile", "", "")
	rate := fs.Int("rate", latencyDefaultRate, "")
	seconds := fs.Int("seconds", latencyDefaultSeconds, "")
	scaling := fs.Bool("scaling", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return parseError(stdout, stderr, err)
		}
		return usageError(stderr, "bench: "+err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fmt.Sprintf("bench takes no arguments, only flags (got %q)", fs.Arg(0)))
	}
	if *rows < 1 || *runs < 1 {
		return usageError(stderr, "bench: --rows and --runs must be at least 1")
	}
	if *dir == "" {
		*dir = defaultBenchDir()
	}
	if *scaling && (*suite != "" || *only == "soak" || *only == "latency") {
		return usageError(stderr, "bench: --scaling runs the default queries (tumble, hop, session unless --query names others), not a suite, soak or latency")
	}
	switch *suite {
	case "":
	case "nexmark":
		if *events < 1 {
			return usageError(stderr, "bench: --events must be at least 1")
		}
		results, err := runNexmarkBench(*dir, *queriesDir, *only, *profileDir, *events, *runs, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "wsql bench: %v\n", err)
			return 1
		}
		printNexmarkTable(stdout, results)
		return 0
	default:
		return usageError(stderr, fmt.Sprintf("bench: unknown suite %q (suites: nexmark; none for the default queries)", *suite))
	}
	if *only == "soak" {
		// not part of the default run: 100M rows take a while
		explicit := false
		fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rows" })
		if !explicit {
			*rows = soakRows
		}
		if *every <= 0 {
			return usageError(stderr, "bench: --every must be positive")
		}
		if err := runSoak(*dir, *rows, *every, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "wsql bench: soak: %v\n", err)
			return 1
		}
		return 0
	}
	if *only == "latency" {
		// not part of the default run: it takes --seconds whatever the rows
		if *rate < 1 || *seconds < 1 {
			return usageError(stderr, "bench: --rate and --seconds must be at least 1")
		}
		if err := runLatency(*dir, *rate, *seconds, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "wsql bench: latency: %v\n", err)
			return 1
		}
		return 0
	}
	if *scaling && *only == "" {
		*only = strings.Join(benchScalingQueries, ",")
	}
	queries := benchQueries
	if *only != "" {
		queries = nil
		for _, name := range strings.Split(*only, ",") {
			i := slices.IndexFunc(benchQueries, func(q benchQuery) bool { return q.name == name })
			if i < 0 {
				var names []string
				for _, q := range benchQueries {
					names = append(names, q.name)
				}
				return usageError(stderr, fmt.Sprintf("bench: unknown query %q (queries: %s, or several joined by commas; and soak and latency, each run alone)", name, strings.Join(names, ", ")))
			}
			if !slices.ContainsFunc(queries, func(q benchQuery) bool { return q.name == name }) {
				queries = append(queries, benchQueries[i])
			}
		}
	}
	if *scaling {
		results, err := benchScaling(queries, *dir, *rows, *runs, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "wsql bench: %v\n", err)
			return 1
		}
		printScalingTable(stdout, results)
		return 0
	}
	results, err := benchAll(queries, *dir, *profileDir, *rows, *runs, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wsql bench: %v\n", err)
		return 1
	}
	printBenchTable(stdout, results)
	return 0
}

// defaultBenchDir is a wsql-bench directory in the user's cache directory,
// or in the temporary directory where there is none.
func defaultBenchDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "wsql-bench")
	}
	return filepath.Join(os.TempDir(), "wsql-bench")
}

// benchAll prepares the data and scripts in dir and measures each query.
// With profileDir set, each query's last run writes a CPU profile there.
func benchAll(queries []benchQuery, dir, profileDir string, rows int64, runs int, stdout, stderr io.Writer) ([]benchResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the wsql binary to run the queries: %w", err)
	}
	if err := absDirs(&dir, &profileDir); err != nil {
		return nil, err
	}
	printMachine(stdout)
	data, err := benchData(queries, dir, rows, stderr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "rows:    %d, %d run(s) per query, median wall time\n\n", rows, runs)
	var results []benchResult
	for _, q := range queries {
		script, err := writeBenchScript(dir, q, data, rows)
		if err != nil {
			return nil, err
		}
		r := benchResult{q: q, rows: rows}
		var walls, cpus []time.Duration
		for i := range runs {
			profile := ""
			if profileDir != "" && i == runs-1 {
				profile = filepath.Join(profileDir, q.name+".pprof")
			}
			m, err := benchRun(self, script, q.rowsRead(rows), benchChild{profile: profile})
			if err != nil {
				return nil, fmt.Errorf("%s (%s): %w", q.name, script, err)
			}
			fmt.Fprintf(stderr, "%s run %d/%d: %s wall, %s CPU, %.0f MiB\n", q.name, i+1, runs,
				m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond), float64(m.maxRSS)/(1<<20))
			walls = append(walls, m.wall)
			cpus = append(cpus, m.cpu)
			r.maxRSS = max(r.maxRSS, m.maxRSS)
			r.resultRows = m.resultRows
		}
		r.wall, r.cpu = median(walls), median(cpus)
		results = append(results, r)
	}
	if err := checkBaselineResults(results); err != nil {
		return nil, err
	}
	return results, nil
}

// benchFormats is the formats of the generated files, by the source of
// the queries that read them.
var benchFormats = map[string]benchFormat{"csv": benchCSV, "json": benchJSON}

// benchData generates (or reuses) in dir the files of rows rows the
// queries read, and returns their paths by source.
func benchData(queries []benchQuery, dir string, rows int64, stderr io.Writer) (map[string]string, error) {
	data := map[string]string{} // the generated files by source
	for _, source := range []string{"csv", "json"} {
		if !slices.ContainsFunc(queries, func(q benchQuery) bool { return q.source == source }) {
			continue
		}
		start := time.Now()
		path, generated, err := ensureBenchData(dir, rows, benchFormats[source])
		if err != nil {
			return nil, fmt.Errorf("generating the data: %w", err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		how := "reused"
		if generated {
			how = "generated in " + time.Since(start).Round(time.Millisecond).String()
		}
		fmt.Fprintf(stderr, "data: %s, %d rows, %.1f MB, %s\n", path, rows, float64(fi.Size())/1e6, how)
		data[source] = path
	}
	return data, nil
}

// writeBenchScript writes query q's script for rows rows in dir and
// returns its path.
func writeBenchScript(dir string, q benchQuery, data map[string]string, rows int64) (string, error) {
	script := filepath.Join(dir, fmt.Sprintf("%s-%d.sql", q.name, rows))
	return script, os.WriteFile(script, []byte(q.sql(data[q.source], rows)), 0o644)
}

// benchMeasure is one run of one query.
type benchMeasure struct {
	wall, cpu  time.Duration
	maxRSS     int64
	resultRows int64
}

// summaryRE reads the run summary a query prints on stderr.
var summaryRE = regexp.MustCompile(`(?m)^wsql: (\d+) rows read, (\d+) late rows dropped, (\d+) bad rows skipped, (\d+) result rows`)

// benchChild is how a child runs, beyond the script: all zero for the
// default runs.
type benchChild struct {
	profile  string // where the child writes its CPU profile
	maxProcs int    // GOMAXPROCS of the child; 0: Go's default
	cpus     []int  // the CPUs the child may run on; nil: any
}

// benchRun runs `wsql run script` in a child process, so that its peak RSS
// is the query's alone, and checks that it read wantRows rows: a run that
// failed or stopped early must not pass for a fast one.
func benchRun(self, script string, wantRows int64, how benchChild) (benchMeasure, error) {
	var errOut bytes.Buffer
	cmd := exec.Command(self, "run", script)
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	if how.profile != "" {
		cmd.Env = append(cmd.Env, benchProfileEnv+"="+how.profile)
	}
	if how.maxProcs > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("GOMAXPROCS=%d", how.maxProcs))
	}
	cmd.Stdout = io.Discard // the sink is a blackhole: nothing is expected here
	cmd.Stderr = &errOut
	start := time.Now()
	var err error
	if how.cpus != nil {
		err = startOnCPUs(cmd, how.cpus)
	} else {
		err = cmd.Start()
	}
	if err == nil {
		err = cmd.Wait()
	}
	wall := time.Since(start)
	if err != nil {
		return benchMeasure{}, fmt.Errorf("%w\n%s", err, errOut.String())
	}
	m := summaryRE.FindStringSubmatch(errOut.String())
	if m == nil {
		return benchMeasure{}, fmt.Errorf("no run summary on stderr:\n%s", errOut.String())
	}
	if got, _ := strconv.ParseInt(m[1], 10, 64); got != wantRows {
		return benchMeasure{}, fmt.Errorf("read %d rows, want %d:\n%s", got, wantRows, errOut.String())
	}
	rss, cpu, _ := procstat.ChildUsage(cmd.ProcessState)
	results, _ := strconv.ParseInt(m[4], 10, 64)
	return benchMeasure{wall: wall, cpu: cpu, maxRSS: rss, resultRows: results}, nil
}

// median returns the middle value, the lower of the two middle ones for
// an even count.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// printMachine describes the machine and the Go release.
func printMachine(w io.Writer) {
	fmt.Fprintf(w, "machine: %s/%s, %d CPUs, GOMAXPROCS %d", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	if model := procstat.CPUModel(); model != "" {
		fmt.Fprintf(w, ", %s", model)
	}
	fmt.Fprintf(w, "\ngo:      %s\n", runtime.Version())
}

// printBenchTable writes one line per query; every cell is one word, so
// the table is easy to read with a program too.
func printBenchTable(w io.Writer, results []benchResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\trows\twall\trows/s\tCPU\trows/CPU-s\tRSS-MiB\ttarget\tresult")
	for _, r := range results {
		result := benchVerdict(r, results)
		rss := "?"
		if r.maxRSS > 0 {
			rss = fmt.Sprintf("%.0f", float64(r.maxRSS)/(1<<20))
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3fs\t%s\t%.3fs\t%s\t%s\t%s\t%s\n", r.q.name, r.rows,
			r.wall.Seconds(), rate(r.rows, r.wall), r.cpu.Seconds(), rate(r.rows, r.cpu), rss, r.q.target(), result)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(w, err)
	}
}

// rate formats rows per second of d in millions.
func rate(rows int64, d time.Duration) string {
	if d <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.2fM", float64(rows)/d.Seconds()/1e6)
}

// benchFlagsUsage refuses the main command's flags before bench.
const benchFlagsUsage = "bench takes its own flags (--rows, --runs, --query, --dir, --every, --suite, --events, --queries, --cpuprofile, --rate, --seconds, --scaling), not --format, --output or -e"

// benchGenTable declares the in-memory input of the datagen and soak
// queries: a millisecond sequence as event time (watermark delay in
// seconds), benchKeys random keys and a random value, unpaced.
func benchGenTable(rows int64, delaySeconds string) string {
	return fmt.Sprintf(`CREATE TABLE gen (
  ms BIGINT,
  k INT,
  v DOUBLE,
  ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '%s' SECOND
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '%d',
  'rows-per-second' = '0',
  'seed' = '%d',
  'fields.ms.kind' = 'sequence',
  'fields.ms.start' = '%d',
  'fields.ms.end' = '%d',
  'fields.k.min' = '1',
  'fields.k.max' = '%d',
  'fields.v.min' = '0',
  'fields.v.max' = '1000'
);
`, delaySeconds, rows, benchSeed, benchBase, benchBase+rows-1, benchKeys)
}

// absDirs makes each of the directories given (an empty one is left
// unset) absolute, the children running elsewhere, and creates it.
func absDirs(dirs ...*string) error {
	for _, d := range dirs {
		if *d == "" {
			continue
		}
		abs, err := filepath.Abs(*d)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		*d = abs
	}
	return nil
}
