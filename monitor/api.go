package monitor

import (
	"encoding/json"
	"net/http"
	"time"
)

// queriesView is the answer of /api/queries, which the status page polls.
type queriesView struct {
	Now     int64       `json:"now"`              // Unix milliseconds
	Failed  string      `json:"failed,omitempty"` // the error that ended the run
	Queries []queryView `json:"queries"`
}

// queryView is one query in /api/queries. Numbers a query does not have
// are null, as they are absent from /metrics.
type queryView struct {
	ID              int             `json:"id"`
	SQL             string          `json:"sql"`
	Plan            string          `json:"plan"`
	State           string          `json:"state"`
	Error           string          `json:"error,omitempty"`
	Started         int64           `json:"started"` // Unix milliseconds
	ElapsedSeconds  float64         `json:"elapsedSeconds"`
	RowsRead        int64           `json:"rowsRead"`
	ResultRows      int64           `json:"resultRows"`
	LateRowsDropped int64           `json:"lateRowsDropped"`
	BadRowsSkipped  int64           `json:"badRowsSkipped"`
	Watermark       *int64          `json:"watermark"` // Unix milliseconds
	LagSeconds      *float64        `json:"lagSeconds"`
	OpenWindows     *int            `json:"openWindows"`
	StateBytes      *int64          `json:"stateBytes"`
	Checkpoint      *checkpointView `json:"checkpoint"`
	History         []sample        `json:"history"`
}

type checkpointView struct {
	ID              uint64  `json:"id"`
	DurationSeconds float64 `json:"durationSeconds"`
	Bytes           int64   `json:"bytes"`
	AgeSeconds      float64 `json:"ageSeconds"`
}

// view is the queries as /api/queries shows them at now.
func (m *Monitor) view(now time.Time) queriesView {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := queriesView{Now: now.UnixMilli(), Failed: m.failed, Queries: []queryView{}}
	for _, q := range m.queries {
		p := q.last
		running := q.state == stateRunning
		elapsed := p.Elapsed
		if running {
			elapsed = now.Sub(q.started)
		}
		qv := queryView{ID: q.id, SQL: q.sql, Plan: q.plan, State: q.state, Error: q.err,
			Started: q.started.UnixMilli(), ElapsedSeconds: elapsed.Seconds(),
			RowsRead: p.RowsRead, ResultRows: p.ResultRows, LateRowsDropped: p.LateRowsDropped, BadRowsSkipped: p.BadRowsSkipped,
			History: append([]sample{}, q.history...)}
		if hasWatermark(p.Watermark) {
			wm := p.Watermark
			qv.Watermark = &wm
		}
		if lag, ok := watermarkLag(p.Watermark, now); ok && running {
			qv.LagSeconds = &lag
		}
		if p.HasOpenWindows && running {
			n := p.OpenWindows
			qv.OpenWindows = &n
		}
		if p.HasStateBytes && running {
			n := p.StateBytes
			qv.StateBytes = &n
		}
		if c := p.Checkpoint; c != nil {
			qv.Checkpoint = &checkpointView{ID: c.ID, DurationSeconds: c.Duration.Seconds(), Bytes: c.Bytes, AgeSeconds: now.Sub(c.Done).Seconds()}
		}
		v.Queries = append(v.Queries, qv)
	}
	return v
}

func (m *Monitor) serveQueries(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(m.view(time.Now()))
}
