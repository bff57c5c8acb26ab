package monitor

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/rowtime"
)

// Query states, as /api/queries and the page show them.
const (
	stateRunning  = "running"
	stateFinished = "finished"
	stateFailed   = "failed"
	stateStopped  = "stopped"
)

// historyLen is how many samples of a query the charts keep: ten minutes
// at one a second.
const historyLen = 600

// Monitor keeps what the queries of a process did and do. Its methods are
// safe for concurrent use: queries report from their own goroutines while
// the server reads.
type Monitor struct {
	mu      sync.Mutex
	queries []*query
	current *query // the query the hooks report about
	failed  string // the error that ended the run; "" while healthy
}

// query is one query the process ran or runs.
type query struct {
	id      int // its label: the order of start in the process, from 1
	sql     string
	plan    string
	started time.Time
	state   string
	err     string
	last    wsql.Progress // the latest snapshot, or the summary's counts
	history []sample
	// the rows read at the last sample, for the throughput between samples
	sampledRows int64
	sampledAt   time.Time
}

// sample is one point of a query's charts.
type sample struct {
	At         int64    `json:"t"`             // Unix milliseconds
	RowsPerSec float64  `json:"rps"`           // rows read per second since the previous sample
	LagSeconds *float64 `json:"lag,omitempty"` // now minus the watermark; absent before the first
}

// New returns a Monitor with no queries.
func New() *Monitor { return &Monitor{} }

// Observe hooks m into out, keeping the hooks out already has: m learns
// about each query out's Run starts, its progress and its summary. The
// queries of one Output run one after another, so the hooks report about
// the query started last.
func (m *Monitor) Observe(out *wsql.Output) {
	start, progress, summary := out.OnQueryStart, out.OnProgress, out.OnSummary
	out.OnQueryStart = func(q wsql.QueryInfo) {
		m.start(q, time.Now())
		if start != nil {
			start(q)
		}
	}
	out.OnProgress = func(p wsql.Progress) {
		m.progress(p)
		if progress != nil {
			progress(p)
		}
	}
	out.OnSummary = func(s wsql.Summary) {
		m.finish(s)
		if summary != nil {
			summary(s)
		}
	}
}

// Ended records how a Run ended: an error other than a stop (SIGINT,
// SIGTERM: a cancelled context) is a failure, which /healthz reports from
// then on, also when no query failed (an error in the SQL). The query that
// failed, if one did, said so itself (Progress.Err).
func (m *Monitor) Ended(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil && !errors.Is(err, context.Canceled) && m.failed == "" {
		m.failed = err.Error()
	}
}

func (m *Monitor) start(info wsql.QueryInfo, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := &query{id: len(m.queries) + 1, sql: info.SQL, plan: info.Plan, started: now, state: stateRunning, sampledAt: now}
	q.last.Watermark = rowtime.MinWatermark
	m.queries = append(m.queries, q)
	m.current = q
}

func (m *Monitor) progress(p wsql.Progress) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.current
	switch {
	case q == nil:
	case p.Err == nil:
		q.last = p
	case errors.Is(p.Err, context.Canceled):
		q.state = stateStopped // by SIGINT or SIGTERM
	default:
		// the run's last call: only the error, the numbers stay
		q.state, q.err = stateFailed, p.Err.Error()
		m.failed = q.err
	}
}

// finish takes the summary's counts, which are final, and marks the query
// finished unless its end said it failed or was stopped.
func (m *Monitor) finish(s wsql.Summary) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.current
	if q == nil {
		return
	}
	q.last.RowsRead, q.last.ResultRows = s.RowsRead, s.ResultRows
	q.last.LateRowsDropped, q.last.BadRowsSkipped = s.LateRowsDropped, s.BadRowsSkipped
	q.last.Elapsed = s.Elapsed
	if q.state == stateRunning {
		q.state = stateFinished
	}
}

// sample adds a point to the charts of every running query.
func (m *Monitor) sample(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, q := range m.queries {
		if q.state != stateRunning {
			continue
		}
		s := sample{At: now.UnixMilli()}
		if dt := now.Sub(q.sampledAt).Seconds(); dt > 0 {
			s.RowsPerSec = float64(q.last.RowsRead-q.sampledRows) / dt
		}
		if lag, ok := watermarkLag(q.last.Watermark, now); ok {
			s.LagSeconds = &lag
		}
		q.sampledRows, q.sampledAt = q.last.RowsRead, now
		if len(q.history) == historyLen {
			q.history = append(q.history[:0], q.history[1:]...)
		}
		q.history = append(q.history, s)
	}
}

// health is "" while no run failed, else the error.
func (m *Monitor) health() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed
}

// hasWatermark reports whether wm is a watermark rather than the mark of
// none yet.
func hasWatermark(wm int64) bool { return wm > rowtime.MinWatermark && wm < rowtime.MaxWatermark }

// watermarkLag is now minus the watermark wm, in seconds.
func watermarkLag(wm int64, now time.Time) (float64, bool) {
	if !hasWatermark(wm) {
		return 0, false
	}
	return float64(now.UnixMilli()-wm) / 1000, true
}
