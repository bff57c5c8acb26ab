package overop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Config describes an OVER aggregation: every aggregate shares one window
// (Flink requires it). It is immutable plan data.
type Config struct {
	Input       *arrow.Schema
	PartitionBy []int // partition key columns; none: one partition
	Aggs        []windowop.AggSpec
	// Time is the ORDER BY time attribute's column: the rowtime, whose
	// rows wait for the watermark; with ProcTime rows are processed as
	// they come and Time is ignored (the clock gives their time).
	Time     int
	ProcTime bool
	// Rows: a ROWS frame (each row its own frame end, peers by arrival);
	// otherwise RANGE (rows of one time are peers and share their
	// results).
	Rows bool
	// Unbounded: UNBOUNDED PRECEDING; otherwise Preceding rows (ROWS) or
	// milliseconds (RANGE) before the current row are in the frame.
	Unbounded bool
	Preceding int64
	// StateTTL ('table.exec.state.ttl', ms): a partition's state is
	// dropped once no row has come for it for that long, read on Clock;
	// 0 keeps it.
	StateTTL int64
	Clock    rowtime.Clock
}

// FrameText is the frame as Flink writes it in EXPLAIN.
func (c Config) FrameText() string {
	kind := "RANGE"
	if c.Rows {
		kind = "ROWS"
	}
	start := "UNBOUNDED PRECEDING"
	switch {
	case c.Unbounded:
	case c.Rows:
		start = fmt.Sprintf("%d PRECEDING", c.Preceding)
	default:
		start = rowtime.MillisText(c.Preceding) + " PRECEDING"
	}
	return kind + " BETWEEN " + start + " AND CURRENT ROW"
}

func (c Config) check() error {
	if c.Input == nil {
		return fmt.Errorf("over aggregate: no input schema")
	}
	for _, k := range c.PartitionBy {
		if k < 0 || k >= c.Input.NumFields() {
			return fmt.Errorf("over aggregate: partition column %d out of range", k)
		}
	}
	if !c.ProcTime {
		if c.Time < 0 || c.Time >= c.Input.NumFields() || c.Input.Field(c.Time).Type.ID() != arrow.TIMESTAMP {
			return fmt.Errorf("over aggregate: no event-time column %d", c.Time)
		}
		if u := c.Input.Field(c.Time).Type.(*arrow.TimestampType).Unit; u != arrow.Millisecond {
			return fmt.Errorf("over aggregate: event time in %s, expected milliseconds", u)
		}
	}
	if c.Preceding < 0 {
		return fmt.Errorf("over aggregate: %d PRECEDING", c.Preceding)
	}
	if len(c.Aggs) == 0 {
		return fmt.Errorf("over aggregate: no aggregate")
	}
	return nil
}

// OutputSchema is the operator's output: the input columns, then one
// column per aggregate.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	aggs, err := windowop.NewOverAggs(c.Input, c.PartitionBy, c.Aggs, !c.Unbounded)
	if err != nil {
		return nil, err
	}
	fields := append(append([]arrow.Field(nil), c.Input.Fields()...), aggs.ResultFields()...)
	return arrow.NewSchema(fields, nil), nil
}
