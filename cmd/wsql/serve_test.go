//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// servedScript is a query that runs until stopped: a generator paced at
// 200 rows a second with event times of now, counted per user in windows
// of a second, checkpointed twice a second.
const servedScript = `SET 'execution.checkpointing.interval' = '500 ms';
CREATE TABLE clicks (ts TIMESTAMP_LTZ(3), usr INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.usr.min' = '1', 'fields.usr.max' = '5');
SELECT usr, COUNT(*) AS clicks FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' SECOND);
`

// servedChild is wsql (this test binary, see TestMain) running
// servedScript with --serve on a port it picks.
type servedChild struct {
	cmd    *exec.Cmd
	stderr string // the file stderr goes to
	base   string // http://host:port
	done   chan error
}

var servingLine = regexp.MustCompile(`wsql: serving metrics on http://([^/\s]+)/metrics`)

// startServed starts wsql run --serve with checkpoints in a new directory
// and waits until it says where it serves.
func startServed(t *testing.T) *servedChild {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "served.sql"), []byte(servedScript), 0o644))
	c := &servedChild{stderr: filepath.Join(dir, "stderr"), done: make(chan error, 1)}
	stderr, err := os.Create(c.stderr)
	require.NoError(t, err)
	defer stderr.Close()
	c.cmd = exec.Command(os.Args[0], "run", "served.sql", "--serve", "127.0.0.1:0", "--checkpoint-dir", "checkpoints")
	c.cmd.Dir = dir
	c.cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	c.cmd.Stdout, c.cmd.Stderr = io.Discard, stderr
	require.NoError(t, c.cmd.Start())
	go func() { c.done <- c.cmd.Wait() }()
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	})
	deadline := time.Now().Add(time.Minute)
	for {
		if m := servingLine.FindStringSubmatch(c.errors(t)); m != nil {
			c.base = "http://" + m[1]
			return c
		}
		select {
		case err := <-c.done:
			c.done <- err
			t.Fatalf("wsql ended (%v) before serving:\n%s", err, c.errors(t))
		case <-time.After(10 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "wsql did not serve within a minute:\n%s", c.errors(t))
	}
}

// errors is what the child wrote to stderr so far.
func (c *servedChild) errors(t *testing.T) string {
	b, err := os.ReadFile(c.stderr)
	require.NoError(t, err)
	return string(b)
}

// get fetches path from the child's server.
func (c *servedChild) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(c.base + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// scrape reads the wsql series of /metrics: name{labels} -> value.
func (c *servedChild) scrape(t *testing.T) map[string]float64 {
	t.Helper()
	code, body := c.get(t, "/metrics")
	require.Equal(t, http.StatusOK, code)
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "wsql_") {
			i := strings.LastIndexByte(line, ' ')
			v, err := strconv.ParseFloat(line[i+1:], 64)
			require.NoError(t, err, line)
			out[line[:i]] = v
		}
	}
	return out
}

// waitFor scrapes until ok accepts the series, for up to a minute.
func (c *servedChild) waitFor(t *testing.T, what string, ok func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		m := c.scrape(t)
		if ok(m) {
			return m
		}
		require.True(t, time.Now().Before(deadline), "no %s within a minute: %v\nstderr:\n%s", what, m, c.errors(t))
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and requires wsql to exit as a stopped run does;
// it returns stderr.
func (c *servedChild) stop(t *testing.T) string {
	t.Helper()
	require.NoError(t, c.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-c.done:
	case <-time.After(stopWait):
		require.NoError(t, c.cmd.Process.Kill())
		<-c.done
		t.Fatalf("wsql did not stop within %v of SIGTERM; stderr:\n%s", stopWait, c.errors(t))
	}
	stderr := c.errors(t)
	require.Equal(t, 130, c.cmd.ProcessState.ExitCode(), stderr)
	return stderr
}

const q1 = `{query="1"}`

// While a query runs, /metrics counts its rows as they grow, and has its
// watermark (now less the delay, roughly), the watermark of its one split,
// its windows, its state and its checkpoints; /healthz says ok.
func TestServeMetricsOfARunningQuery(t *testing.T) {
	c := startServed(t)
	first := c.waitFor(t, "rows and a checkpoint", func(m map[string]float64) bool {
		return m["wsql_rows_read_total"+q1] > 0 && m["wsql_checkpoint_id"+q1] > 0
	})
	later := c.waitFor(t, "more rows and results", func(m map[string]float64) bool {
		return m["wsql_rows_read_total"+q1] > first["wsql_rows_read_total"+q1] && m["wsql_result_rows_total"+q1] > 0
	})
	now := float64(time.Now().UnixMilli()) / 1000
	require.Equal(t, 1.0, later["wsql_query_running"+q1])
	wm := later["wsql_watermark_seconds"+q1]
	require.InDelta(t, now-5, wm, 5, "the watermark trails now by the delay and the pacing")
	require.InDelta(t, 5, later["wsql_watermark_lag_seconds"+q1], 5)
	require.GreaterOrEqual(t, later["wsql_watermark_lag_seconds"+q1], 1.0, "at least the WATERMARK delay")
	require.Contains(t, later, `wsql_split_watermark_seconds{query="1",split="0"}`)
	require.Contains(t, later, `wsql_split_watermark_lag_seconds{query="1",split="0"}`)
	require.Equal(t, 0.0, later[`wsql_split_idle{query="1",split="0"}`])
	require.Equal(t, 0.0, later["wsql_late_rows_dropped_total"+q1])
	require.Equal(t, 0.0, later["wsql_bad_rows_skipped_total"+q1])
	require.Contains(t, later, "wsql_open_windows"+q1)
	require.Positive(t, later["wsql_state_bytes"+q1])
	require.Positive(t, later["wsql_checkpoint_size_bytes"+q1])
	require.Contains(t, later, "wsql_checkpoint_duration_seconds"+q1)
	require.Less(t, later["wsql_checkpoint_age_seconds"+q1], 30.0)
	for series := range later {
		require.False(t, strings.HasPrefix(series, "wsql_split_lag_records"), "a generator knows no lag: %s", series)
	}

	code, body := c.get(t, "/healthz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ok\n", body)
	c.stop(t)
}

// SIGTERM stops the query, which takes its final checkpoint, and only
// then the server: the address answers until the query has stopped and
// not after wsql exits.
func TestServeStopsAfterTheQueriesOnSIGTERM(t *testing.T) {
	c := startServed(t)
	c.waitFor(t, "a checkpoint", func(m map[string]float64) bool { return m["wsql_checkpoint_id"+q1] > 0 })
	addr := strings.TrimPrefix(c.base, "http://")
	stderr := c.stop(t)
	checkpointed := strings.Index(stderr, "wsql: stopped; checkpoint ")
	interrupted := strings.Index(stderr, "wsql: interrupted")
	stopped := strings.Index(stderr, "wsql: stopped serving on "+addr+"\n")
	require.True(t, checkpointed >= 0 && interrupted > checkpointed && stopped > interrupted,
		"the final checkpoint, then the end of the run, then the server's:\n%s", stderr)
	require.NotContains(t, stderr, "error:")
	_, err := net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err, "nothing listens once wsql has exited")
}

// An address wsql cannot listen on is an error before any query runs.
func TestServeRefusesAnAddressItCannotListenOn(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"--serve", "127.0.0.1:notaport", "-e", "SELECT 1;"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 1, code)
	require.Contains(t, stderr.String(), "error: --serve: listen tcp")
	require.Empty(t, stdout.String(), "the query did not run")
}
