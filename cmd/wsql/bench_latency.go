package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// `wsql bench --query latency` measures issue 22's target: with rows
// arriving on stdin at a steady rate, a window's result is out within
// latencyTarget of the watermark passing the window's end (p99). The
// other queries measure throughput over a file read as fast as possible,
// which says nothing of how long a result waits between the row that
// completes its window and the output: a batch held back for more rows,
// a periodic watermark or an unflushed output would all show here only.
const (
	latencyDefaultRate    = 100_000
	latencyDefaultSeconds = 30
	latencyTarget         = 50 * time.Millisecond
	latencyWindowMillis   = 1000
	// latencyDelayMillis is the watermark's delay. The feeder's writes
	// fall on milliseconds of the clock, and two of them may carry the
	// same one: without a delay, rows of a window's last millisecond in
	// the second write would be late, since the first fired the window.
	latencyDelayMillis = 1
	// latencyTick is how often the feeder writes the rows due: small
	// writes, so that the feeder itself does not batch.
	latencyTick = time.Millisecond
)

// latencySQL is the query: a per-key TUMBLE of 1 s over CSV rows read
// from stdin, with the watermark 1 ms behind the latest event time, its
// results written to stdout as CSV.
const latencySQL = "CREATE TABLE events (\n" +
	"  ts TIMESTAMP(3),\n" +
	"  `key` STRING,\n" +
	"  `value` DOUBLE,\n" +
	"  WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND\n" +
	") WITH ('connector' = 'stdin', 'format' = 'csv');\n" +
	"SELECT `key`, TUMBLE_START(ts, INTERVAL '1' SECOND) AS wstart,\n" +
	"       TUMBLE_END(ts, INTERVAL '1' SECOND) AS wend, COUNT(*) AS n, SUM(`value`) AS total\n" +
	"FROM events GROUP BY `key`, TUMBLE(ts, INTERVAL '1' SECOND);\n"

// latencyHeader is the first line of the query's CSV output.
const latencyHeader = "key,wstart,wend,n,total"

// latencyFeed is what the feeder wrote: per window end, the rows whose
// time falls in the window and the wall time of the write that moved the
// watermark to the window's last millisecond (the window's trigger).
type latencyFeed struct {
	rows, writes int64
	elapsed      time.Duration
	maxLag       time.Duration // how far the writes fell behind the schedule
	maxBlocked   time.Duration // the longest write: the pipe was full, the child not reading
	maxWrite     int64         // rows of the largest write
	firstEnd     int64         // the end of the first (partial) window
	perWindow    map[int64]int64
	trigger      map[int64]time.Time
}

// latencyOutput is what the query wrote: per window end, when its first
// result row was read and the rows it counted over its keys.
type latencyOutput struct {
	rows    int64
	arrived map[int64]time.Time
	counted map[int64]int64
	err     error
}

// runLatency runs the query in a child process fed at rate rows a second
// for seconds, and prints the latency of each window's first result row
// from the write that fired the window.
func runLatency(dir string, rate, seconds int, stdout, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the wsql binary to run the query: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	script := filepath.Join(dir, "latency.sql")
	if err := os.WriteFile(script, []byte(latencySQL), 0o644); err != nil {
		return err
	}
	printMachine(stdout)
	fmt.Fprintf(stdout, "latency: stdin CSV at %d rows/s for %ds, %d keys, WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND, TUMBLE(1 s) per key to stdout\n",
		rate, seconds, benchKeys)
	loadBefore := loadAverage()

	var errOut bytes.Buffer
	cmd := exec.Command(self, "run", script) // CSV results: stdout is a pipe
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	cmd.Stderr = &errOut
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	read := make(chan latencyOutput, 1)
	go func() { read <- readLatencyOutput(out) }()
	feed, ferr := feedLatency(in, rate, time.Duration(seconds)*time.Second)
	if cerr := in.Close(); ferr == nil {
		ferr = cerr // the end of the input fires the windows still open
	}
	res := <-read
	werr := cmd.Wait()
	switch {
	case werr != nil:
		return fmt.Errorf("%w\n%s", werr, errOut.String())
	case ferr != nil:
		return fmt.Errorf("feeding the query: %w", ferr)
	case res.err != nil:
		return fmt.Errorf("reading the results: %w", res.err)
	}
	m := summaryRE.FindStringSubmatch(errOut.String())
	if m == nil {
		return fmt.Errorf("no run summary on stderr:\n%s", errOut.String())
	}
	if got, _ := strconv.ParseInt(m[1], 10, 64); got != feed.rows {
		return fmt.Errorf("read %d rows, fed %d:\n%s", got, feed.rows, errOut.String())
	}
	// every window counts exactly the rows fed in it: no row was late,
	// lost or counted twice
	for end, n := range feed.perWindow {
		if res.counted[end] != n {
			return fmt.Errorf("the window ending %s counted %d rows, %d were fed in it", millisText(end), res.counted[end], n)
		}
	}
	if len(res.counted) != len(feed.perWindow) {
		return fmt.Errorf("results for %d windows, rows were fed in %d", len(res.counted), len(feed.perWindow))
	}

	var lat []time.Duration
	for end, at := range feed.trigger {
		if end == feed.firstEnd || feed.perWindow[end] == 0 {
			continue // partial, open while the child started; or no rows (the feeder stalled)
		}
		got, ok := res.arrived[end]
		if !ok {
			return fmt.Errorf("no result for the window ending %s", millisText(end))
		}
		lat = append(lat, got.Sub(at))
	}
	slices.Sort(lat)
	rss, cpu, _ := procstat.ChildUsage(cmd.ProcessState)
	fmt.Fprintf(stdout, "load:    %s before, %s after (1-minute load average)\n\n", loadBefore, loadAverage())
	fmt.Fprintf(stdout, "fed:     %d rows in %.3fs (%.0f rows/s) in %d writes, at most %d rows a write, at most %s behind the schedule, the longest write %s\n",
		feed.rows, feed.elapsed.Seconds(), float64(feed.rows)/feed.elapsed.Seconds(), feed.writes, feed.maxWrite, durationMillis(feed.maxLag), durationMillis(feed.maxBlocked))
	fmt.Fprintf(stdout, "results: %d rows for %d windows, each counting the rows fed in it; child CPU %.3fs, peak RSS %.0f MiB\n",
		res.rows, len(res.counted), cpu.Seconds(), mib(rss))
	fmt.Fprintf(stdout, "windows measured: %d (the first, partial window and those the end of the input fired are left out)\n\n", len(lat))
	printLatencyTable(stdout, lat)
	return nil
}

// feedLatency writes rows to w paced at rate rows a second for d: every
// latencyTick the rows due so far, each with the current wall-clock
// millisecond as its time (from the monotonic clock, so it never goes
// back), a random key and value. It records, for each window, when the
// write began that holds the first row at or after the window's end: with
// the watermark 1 ms behind, that row moves it to the window's last
// millisecond, which fires the window (docs/semantics.md, "Watermarks").
// From then the child has what it needs to write the window's results.
func feedLatency(w io.Writer, rate int, d time.Duration) (latencyFeed, error) {
	f := latencyFeed{perWindow: map[int64]int64{}, trigger: map[int64]time.Time{}}
	pcg := rand.NewPCG(benchSeed, benchSeed^0x9e3779b97f4a7c15)
	var buf []byte
	start := time.Now()
	var nextEnd int64 // the next window to fire, once rows were written
	for tick := 1; ; tick++ {
		el := time.Since(start)
		last := el >= d // the rows due at d, then the end
		due := int64(min(el, d)) * int64(rate) / int64(time.Second)
		if n := due - f.rows; n > 0 {
			ms := start.Add(el).UnixMilli() // wall time without the wall clock's steps
			text := time.UnixMilli(ms).UTC().AppendFormat(nil, "2006-01-02 15:04:05.000")
			buf = buf[:0]
			for range n {
				buf = append(buf, text...)
				buf = append(buf, ",k"...)
				buf = strconv.AppendUint(buf, pcg.Uint64()%benchKeys, 10)
				cents := pcg.Uint64() % 100_000
				buf = append(buf, ',')
				buf = strconv.AppendUint(buf, cents/100, 10)
				buf = append(buf, '.', byte('0'+cents/10%10), byte('0'+cents%10), '\n')
			}
			if f.rows == 0 {
				f.firstEnd = windowEnd(ms)
				nextEnd = f.firstEnd
			}
			f.perWindow[windowEnd(ms)] += n
			at := time.Now()
			for ms-latencyDelayMillis >= nextEnd-1 { // the watermark reaches the window's last millisecond
				f.trigger[nextEnd] = at
				nextEnd += latencyWindowMillis
			}
			if _, err := w.Write(buf); err != nil {
				return f, err
			}
			f.maxBlocked = max(f.maxBlocked, time.Since(at))
			f.rows += n
			f.writes++
			f.maxWrite = max(f.maxWrite, n)
			// the schedule wrote row i at i/rate seconds
			f.maxLag = max(f.maxLag, time.Since(start)-time.Duration(due*int64(time.Second)/int64(rate)))
		}
		if last {
			f.elapsed = time.Since(start)
			return f, nil
		}
		time.Sleep(time.Until(start.Add(time.Duration(tick) * latencyTick)))
	}
}

// windowEnd is the end of the 1 s window holding the millisecond ms.
func windowEnd(ms int64) int64 {
	return ms - ms%latencyWindowMillis + latencyWindowMillis
}

// readLatencyOutput reads the query's CSV results as they come, noting
// when the first row of each window (by its end) was read and adding up
// the counts of its rows.
func readLatencyOutput(r io.Reader) latencyOutput {
	res := latencyOutput{arrived: map[int64]time.Time{}, counted: map[int64]int64{}}
	br := bufio.NewReaderSize(r, 1<<16)
	header := true
	for {
		line, err := br.ReadSlice('\n')
		at := time.Now()
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return res
		}
		if err != nil {
			res.err = err
			io.Copy(io.Discard, br) // the child must not block on a full pipe
			return res
		}
		text := strings.TrimSuffix(string(line), "\n")
		if header {
			header = false
			if text != latencyHeader {
				res.err = fmt.Errorf("the results start with %q, not %q", text, latencyHeader)
				io.Copy(io.Discard, br)
				return res
			}
			continue
		}
		end, n, err := parseLatencyRow(text)
		if err != nil {
			res.err = err
			io.Copy(io.Discard, br)
			return res
		}
		res.rows++
		if _, ok := res.arrived[end]; !ok {
			res.arrived[end] = at
		}
		res.counted[end] += n
	}
}

// parseLatencyRow reads the window end and the count of a result row
// (key,wstart,wend,n,total).
func parseLatencyRow(line string) (end, n int64, err error) {
	f := strings.Split(line, ",")
	if len(f) != 5 {
		return 0, 0, fmt.Errorf("result row %q has %d fields, want 5", line, len(f))
	}
	t, err := time.Parse("2006-01-02 15:04:05.000", f[2])
	if err != nil {
		return 0, 0, fmt.Errorf("result row %q: %w", line, err)
	}
	if n, err = strconv.ParseInt(f[3], 10, 64); err != nil {
		return 0, 0, fmt.Errorf("result row %q: %w", line, err)
	}
	return t.UnixMilli(), n, nil
}

// printLatencyTable writes the percentiles of the latencies (sorted) and
// whether the p99 meets the target; every cell is one word.
func printLatencyTable(w io.Writer, lat []time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "windows\tp50\tp90\tp99\tmax\ttarget\tresult")
	if len(lat) == 0 {
		fmt.Fprintf(tw, "0\t-\t-\t-\t-\tp99≤%s\tunmeasured\n", durationMillis(latencyTarget))
	} else {
		p99 := percentile(lat, 0.99)
		result := "missed"
		if p99 <= latencyTarget {
			result = "met"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\tp99≤%s\t%s\n", len(lat), durationMillis(percentile(lat, 0.5)),
			durationMillis(percentile(lat, 0.9)), durationMillis(p99), durationMillis(lat[len(lat)-1]),
			durationMillis(latencyTarget), result)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(w, err)
	}
}

// percentile is the nearest-rank percentile p (0 < p ≤ 1) of sorted.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(float64(len(sorted))*p)) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// durationMillis writes d in milliseconds with two decimals.
func durationMillis(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// millisText is an epoch millisecond as the query writes a timestamp.
func millisText(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
}

// loadAverage is the 1-minute load average from /proc/loadavg, "?" where
// there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}
