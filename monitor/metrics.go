package monitor

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metric is one metric family: its description and the labels beyond
// query.
type metric struct {
	desc *prometheus.Desc
	kind prometheus.ValueType
}

func newMetric(name, help string, kind prometheus.ValueType, labels ...string) metric {
	return metric{prometheus.NewDesc(name, help, append([]string{"query"}, labels...), nil), kind}
}

// The metrics, as docs/monitoring.md lists them. Gauges of what a query
// holds now (lags, open windows, state) are left out once it has ended.
var (
	mRunning       = newMetric("wsql_query_running", "1 while the query runs, 0 once it has ended.", prometheus.GaugeValue)
	mRowsRead      = newMetric("wsql_rows_read_total", "Rows the query's source read (rows in).", prometheus.CounterValue)
	mResultRows    = newMetric("wsql_result_rows_total", "Rows the query wrote to its sink or results (rows out).", prometheus.CounterValue)
	mLateRows      = newMetric("wsql_late_rows_dropped_total", "Rows dropped because every window they belong to had closed.", prometheus.CounterValue)
	mBadRows       = newMetric("wsql_bad_rows_skipped_total", "Input rows skipped as bad (ignore-parse-errors, event times out of range).", prometheus.CounterValue)
	mWatermark     = newMetric("wsql_watermark_seconds", "The query's watermark, in seconds since the Unix epoch.", prometheus.GaugeValue)
	mWatermarkLag  = newMetric("wsql_watermark_lag_seconds", "Now minus the query's watermark, in seconds.", prometheus.GaugeValue)
	mSplitWM       = newMetric("wsql_split_watermark_seconds", "A source split's own watermark, in seconds since the Unix epoch.", prometheus.GaugeValue, "split")
	mSplitWMLag    = newMetric("wsql_split_watermark_lag_seconds", "Now minus a source split's own watermark, in seconds.", prometheus.GaugeValue, "split")
	mSplitIdle     = newMetric("wsql_split_idle", "1 while a source split is idle (left out of the watermark), else 0.", prometheus.GaugeValue, "split")
	mSplitLag      = newMetric("wsql_split_lag_records", "Records a split's read is behind the end of its source: a Kafka partition's consumer lag (high watermark minus next offset).", prometheus.GaugeValue, "split", "name")
	mOpenWindows   = newMetric("wsql_open_windows", "(key, window) states the query's innermost window operator holds.", prometheus.GaugeValue)
	mStateBytes    = newMetric("wsql_state_bytes", "Estimated bytes of the query's state: windows and the rows joins, Top-N and OVER keep.", prometheus.GaugeValue)
	mCheckpointID  = newMetric("wsql_checkpoint_id", "Number of the query's last durable checkpoint.", prometheus.GaugeValue)
	mCheckpointDur = newMetric("wsql_checkpoint_duration_seconds", "How long the last checkpoint took, until durable.", prometheus.GaugeValue)
	mCheckpointLen = newMetric("wsql_checkpoint_size_bytes", "Size of the last checkpoint's file.", prometheus.GaugeValue)
	mCheckpointAge = newMetric("wsql_checkpoint_age_seconds", "Seconds since the last checkpoint was durable.", prometheus.GaugeValue)
)

var metrics = []metric{mRunning, mRowsRead, mResultRows, mLateRows, mBadRows, mWatermark, mWatermarkLag,
	mSplitWM, mSplitWMLag, mSplitIdle, mSplitLag, mOpenWindows, mStateBytes,
	mCheckpointID, mCheckpointDur, mCheckpointLen, mCheckpointAge}

// collector is the Monitor as a prometheus.Collector: it reads the
// queries' latest snapshots at each scrape.
type collector struct{ m *Monitor }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range metrics {
		ch <- m.desc
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	c.m.mu.Lock()
	defer c.m.mu.Unlock()
	now := time.Now()
	for _, q := range c.m.queries {
		collectQuery(ch, q, now)
	}
}

func collectQuery(ch chan<- prometheus.Metric, q *query, now time.Time) {
	id := strconv.Itoa(q.id)
	emit := func(m metric, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(m.desc, m.kind, v, append([]string{id}, labels...)...)
	}
	p := &q.last
	running := q.state == stateRunning
	emit(mRunning, b2f(running))
	emit(mRowsRead, float64(p.RowsRead))
	emit(mResultRows, float64(p.ResultRows))
	emit(mLateRows, float64(p.LateRowsDropped))
	emit(mBadRows, float64(p.BadRowsSkipped))
	if hasWatermark(p.Watermark) {
		emit(mWatermark, float64(p.Watermark)/1000)
	}
	if lag, ok := watermarkLag(p.Watermark, now); ok && running {
		emit(mWatermarkLag, lag)
	}
	for _, s := range p.Splits {
		split := strconv.Itoa(s.Split)
		if hasWatermark(s.Watermark) {
			emit(mSplitWM, float64(s.Watermark)/1000, split)
		}
		if !running {
			continue
		}
		if lag, ok := watermarkLag(s.Watermark, now); ok {
			emit(mSplitWMLag, lag, split)
		}
		emit(mSplitIdle, b2f(s.Idle), split)
	}
	if c := p.Checkpoint; c != nil {
		emit(mCheckpointID, float64(c.ID))
		emit(mCheckpointDur, c.Duration.Seconds())
		if c.Bytes > 0 {
			emit(mCheckpointLen, float64(c.Bytes))
		}
		if running {
			emit(mCheckpointAge, now.Sub(c.Done).Seconds())
		}
	}
	if !running {
		return
	}
	for _, l := range p.Lags {
		emit(mSplitLag, float64(l.Records), strconv.Itoa(l.Split), l.Name)
	}
	if p.HasOpenWindows {
		emit(mOpenWindows, float64(p.OpenWindows))
	}
	if p.HasStateBytes {
		emit(mStateBytes, float64(p.StateBytes))
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
