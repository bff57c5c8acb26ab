package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/internal/procstat"
)

// soakRows is the default input of `wsql bench --query soak`.
const soakRows = 100_000_000

// soakSQL is the soak query: sessions of 1000 keys over a datagen stream
// with one row per millisecond, so each key comes back about every second
// and a 2 s gap closes a session after about e^2 ≈ 7 of its rows: sessions
// open and close all the time while the state stays about 1000 sessions.
func soakSQL(rows int64) string {
	return benchGenTable(rows, "1") + `CREATE TABLE sink (k INT, wstart TIMESTAMP(3), wend TIMESTAMP(3), n BIGINT, total DOUBLE)
WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT k, SESSION_START(ts, INTERVAL '2' SECOND), SESSION_END(ts, INTERVAL '2' SECOND), COUNT(*), SUM(v)
FROM gen GROUP BY k, SESSION(ts, INTERVAL '2' SECOND);
`
}

// rssSample is the resident set size of the child at a time of the run.
type rssSample struct {
	at  time.Duration
	rss int64 // bytes
}

// runSoak runs the soak query in a child process and samples its RSS from
// /proc/<pid>/status every interval, printing the series and the peak.
func runSoak(dir string, rows int64, every time.Duration, stdout, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the wsql binary to run the query: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	script := filepath.Join(dir, fmt.Sprintf("soak-%d.sql", rows))
	if err := os.WriteFile(script, []byte(soakSQL(rows)), 0o644); err != nil {
		return err
	}
	printMachine(stdout)
	fmt.Fprintf(stdout, "soak:    %d rows, SESSION(2 s) over %d keys, RSS sampled every %s\n\n", rows, benchKeys, every)
	var errOut bytes.Buffer
	cmd := exec.Command(self, "run", script)
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	cmd.Stdout = io.Discard
	cmd.Stderr = &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var samples []rssSample
	tick := time.NewTicker(every)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err = <-done:
			waiting = false
		case <-tick.C:
			if rss, ok := procRSS(cmd.Process.Pid); ok {
				samples = append(samples, rssSample{at: time.Since(start), rss: rss})
				fmt.Fprintf(stderr, "soak: %s, RSS %.1f MiB\n", time.Since(start).Round(time.Second), mib(rss))
			}
		}
	}
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, errOut.String())
	}
	m := summaryRE.FindStringSubmatch(errOut.String())
	if m == nil {
		return fmt.Errorf("no run summary on stderr:\n%s", errOut.String())
	}
	if got, _ := strconv.ParseInt(m[1], 10, 64); got != rows {
		return fmt.Errorf("read %d rows, want %d:\n%s", got, rows, errOut.String())
	}
	peak, cpu, _ := procstat.ChildUsage(cmd.ProcessState)
	printSoak(stdout, samples)
	fmt.Fprintf(stdout, "\nresult rows: %s, wall %.3fs, CPU %.3fs, %s rows/s\n", m[4], wall.Seconds(), cpu.Seconds(), rate(rows, wall))
	var sampled int64
	for _, s := range samples {
		sampled = max(sampled, s.rss)
	}
	if len(samples) == 0 {
		fmt.Fprintln(stdout, "sampled RSS: none (the run was shorter than one interval, or /proc is missing)")
	} else {
		fmt.Fprintf(stdout, "max sampled RSS: %.1f MiB over %d samples\n", mib(sampled), len(samples))
	}
	if peak > 0 {
		fmt.Fprintf(stdout, "peak RSS (rusage): %.1f MiB\n", mib(peak))
	}
	return nil
}

// printSoak prints at most about 20 samples of the series, evenly spaced,
// and always the last one.
func printSoak(w io.Writer, samples []rssSample) {
	fmt.Fprintln(w, "time     RSS-MiB")
	step := max(1, (len(samples)+19)/20)
	for i, s := range samples {
		if i%step == 0 || i == len(samples)-1 {
			fmt.Fprintf(w, "%-8s %.1f\n", s.at.Round(time.Second), mib(s.rss))
		}
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// procRSS reads VmRSS of a process from /proc (Linux); ok is false where
// there is no /proc or the process has gone.
func procRSS(pid int) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
