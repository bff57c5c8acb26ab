package monitor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/internal/leakcheck"
)

// serve starts m's server on a free port and shuts it down at the end of
// the test, checking that it leaves no goroutine behind.
func serve(t *testing.T, m *Monitor) string {
	t.Helper()
	before := runtime.NumGoroutine()
	s, err := m.Serve("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() {
		http.DefaultClient.CloseIdleConnections()
		require.NoError(t, s.Shutdown(context.Background()))
		leakcheck.Goroutines(t, before)
	})
	return "http://" + s.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// scrape reads /metrics into series name{labels} -> value, leaving out
// the Go runtime's and the process's.
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	code, body := get(t, base+"/metrics")
	require.Equal(t, http.StatusOK, code)
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "wsql_") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		out[line[:i]] = v
	}
	return out
}

// clicks writes a CSV of clicks (one late) and returns the DDL over it.
func clicks(t *testing.T, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "clicks.csv")
	require.NoError(t, os.WriteFile(path, []byte(`2024-03-01 09:00:01.000,alice,1.5
2024-03-01 09:00:30.000,bob,2
2024-03-01 09:01:10.000,alice,3
2024-03-01 09:00:40.000,bob,1
2024-03-01 09:02:20.000,carol,4
`+extra), 0o644))
	return `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
`
}

// run runs script on an engine whose output m observes, as the CLI does.
func run(t *testing.T, m *Monitor, script string) error {
	t.Helper()
	var results bytes.Buffer
	out := wsql.Output{
		NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(&results, r.Schema, time.UTC), nil
		},
		ProgressEvery: time.Nanosecond,
	}
	m.Observe(&out)
	err := wsql.New(wsql.WithBatchSize(1)).Run(context.Background(), script, out)
	m.Ended(err)
	return err
}

// A finished query keeps its final counts and watermark in /metrics; what
// it held while running (lag, open windows, state) is gone, and it is no
// longer running.
func TestMetricsOfAFinishedQuery(t *testing.T) {
	m := New()
	base := serve(t, m)
	require.Empty(t, scrape(t, base), "no query yet, no series")
	require.NoError(t, run(t, m, clicks(t, "")+`SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`))

	got := scrape(t, base)
	require.Equal(t, 0.0, got[`wsql_query_running{query="1"}`])
	require.Equal(t, 5.0, got[`wsql_rows_read_total{query="1"}`])
	require.Equal(t, 1.0, got[`wsql_late_rows_dropped_total{query="1"}`], "bob's click at 09:00:40 came after 09:01:05")
	require.Equal(t, 0.0, got[`wsql_bad_rows_skipped_total{query="1"}`])
	require.Equal(t, 4.0, got[`wsql_result_rows_total{query="1"}`], "alice and bob at 09:00, alice at 09:01, carol at 09:02")
	wm := time.Date(2024, 3, 1, 9, 2, 15, 0, time.UTC)
	require.Equal(t, float64(wm.Unix()), got[`wsql_watermark_seconds{query="1"}`], "the last row's time less 5 s")
	require.Equal(t, float64(wm.Unix()), got[`wsql_split_watermark_seconds{query="1",split="0"}`])
	for _, gone := range []string{`wsql_watermark_lag_seconds{query="1"}`, `wsql_open_windows{query="1"}`, `wsql_state_bytes{query="1"}`, `wsql_split_idle{query="1",split="0"}`} {
		require.NotContains(t, got, gone)
	}
	code, body := get(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ok\n", body)
}

// A query that fails turns /healthz to 503 with the error, and the page's
// JSON shows the query failed with its plan.
func TestHealthzIsUnavailableAfterAQueryFailed(t *testing.T) {
	m := New()
	base := serve(t, m)
	code, _ := get(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
	err := run(t, m, clicks(t, "2024-03-01 09:03:00.000,dave,not a number\n")+`SELECT usr, amount FROM clicks;`)
	require.Error(t, err)

	code, body := get(t, base+"/healthz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Contains(t, body, "failed: ")
	require.Contains(t, body, "not a number")

	_, body = get(t, base+"/api/queries")
	var v queriesView
	require.NoError(t, json.Unmarshal([]byte(body), &v))
	require.Len(t, v.Queries, 1)
	q := v.Queries[0]
	require.Equal(t, stateFailed, q.State)
	require.Contains(t, q.Error, "not a number")
	require.Equal(t, "SELECT usr, amount FROM clicks", q.SQL)
	require.Contains(t, q.Plan, "TableSourceScan(table=[clicks]")
	require.Equal(t, int64(5), q.RowsRead, "the rows before the bad one")
	require.Nil(t, q.OpenWindows, "no window")
	require.Equal(t, 0.0, scrape(t, base)[`wsql_query_running{query="1"}`])
}

// The page and its script are served from the binary.
func TestStatusPageIsEmbedded(t *testing.T) {
	base := serve(t, New())
	code, body := get(t, base+"/")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `<script src="app.js"></script>`)
	code, body = get(t, base+"/app.js")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "api/queries")
}

// queryStates is each query's state in /api/queries.
func queryStates(t *testing.T, base string) []string {
	t.Helper()
	_, body := get(t, base+"/api/queries")
	var v queriesView
	require.NoError(t, json.Unmarshal([]byte(body), &v))
	var states []string
	for _, q := range v.Queries {
		states = append(states, q.State)
	}
	return states
}

// An error after a query finished (in a later statement) is the run's, not
// the query's: the query stays finished while /healthz reports the error.
func TestAnErrorAfterAQueryIsNotTheQuerys(t *testing.T) {
	m := New()
	base := serve(t, m)
	err := run(t, m, clicks(t, "")+`SELECT usr FROM clicks;
SELECT nope FROM clicks;`)
	require.ErrorContains(t, err, "nope")
	require.Equal(t, []string{stateFinished}, queryStates(t, base))
	code, body := get(t, base+"/healthz")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Contains(t, body, "nope")
}

// A query stopped by its context (SIGINT, SIGTERM in the CLI) is stopped,
// not failed: /healthz stays ok.
func TestAStoppedQueryIsNotAFailure(t *testing.T) {
	m := New()
	base := serve(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var results bytes.Buffer
	out := wsql.Output{
		NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(&results, r.Schema, time.UTC), nil
		},
		OnProgress:    func(wsql.Progress) { cancel() },
		ProgressEvery: time.Nanosecond,
	}
	m.Observe(&out)
	err := wsql.New().Run(ctx, `CREATE TABLE g (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT n FROM g;`, out)
	m.Ended(err)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, []string{stateStopped}, queryStates(t, base))
	code, _ := get(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
}

// A UNION ALL of two tables has the watermark the union forwards: the
// minimum over its inputs.
func TestMetricsOfAUnionHaveItsWatermark(t *testing.T) {
	m := New()
	base := serve(t, m)
	ddl := clicks(t, "")
	require.NoError(t, run(t, m, ddl+strings.ReplaceAll(ddl, "TABLE clicks", "TABLE more")+
		`SELECT usr, COUNT(*) AS n FROM (SELECT * FROM clicks UNION ALL SELECT * FROM more) GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`))
	got := scrape(t, base)
	require.Equal(t, 10.0, got[`wsql_rows_read_total{query="1"}`])
	require.Contains(t, got, `wsql_watermark_seconds{query="1"}`)
	require.Equal(t, 0.0, scrape(t, base)[`wsql_query_running{query="1"}`])
	wm := got[`wsql_watermark_seconds{query="1"}`]
	require.GreaterOrEqual(t, wm, float64(time.Date(2024, 3, 1, 8, 59, 56, 0, time.UTC).Unix()), "at least the first row less 5 s")
	require.LessOrEqual(t, wm, float64(time.Date(2024, 3, 1, 9, 2, 15, 0, time.UTC).Unix()), "at most the last row less 5 s")
}
