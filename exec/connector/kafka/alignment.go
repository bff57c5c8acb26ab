package kafka

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// The keys of Flink's watermark alignment.
const (
	keyAlignGroup    = "scan.watermark.alignment.group"
	keyAlignDrift    = "scan.watermark.alignment.max-drift"
	keyAlignInterval = "scan.watermark.alignment.update-interval"
)

var alignmentOptions = []connector.Option{
	{Key: keyAlignGroup, Type: "string", Scope: connector.Source, Description: "align the partitions' event time: a partition further ahead of the slowest than the max drift is paused"},
	{Key: keyAlignDrift, Type: "duration", Scope: connector.Source, Description: "how far a partition's event time may run ahead of the slowest partition's"},
	{Key: keyAlignInterval, Type: "duration", Default: "1 s", Scope: connector.Source, Description: "accepted for Flink's DDL: wsql checks the drift at every batch"},
}

// alignment is Flink's watermark alignment within one read: a partition
// whose event time is further ahead of the slowest partition's than the
// max drift is not fetched until the others catch up, so a backlog read
// from the start does not buffer the fast partitions' windows while the
// slow ones hold the watermark back. Event time here is a partition's
// latest rowtime handed out: the splits' watermarks are that less the
// same delay, so their differences are the same. A partition that ended,
// or that gave no record for the idle timeout, is not waited for.
type alignment struct {
	col   int   // the rowtime column, in the batches the read hands out
	drift int64 // milliseconds
	idle  time.Duration
}

// readAlignment reads the alignment options of table t; nil without a
// group.
func readAlignment(t *catalog.Table, schema *arrow.Schema, idle time.Duration) (*alignment, error) {
	g, ok := t.Options.Lookup(keyAlignGroup)
	if !ok {
		for _, k := range []string{keyAlignDrift, keyAlignInterval} {
			if o, ok := t.Options.Lookup(k); ok {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' needs '%s'", o.Key, keyAlignGroup)
			}
		}
		return nil, nil
	}
	d, ok := t.Options.Lookup(keyAlignDrift)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, g.At, "'%s' needs '%s': how far a partition may run ahead", keyAlignGroup, keyAlignDrift)
	}
	drift, err := connector.Duration(d)
	if err != nil {
		return nil, err
	}
	if o, ok := t.Options.Lookup(keyAlignInterval); ok {
		if _, err := connector.Duration(o); err != nil {
			return nil, err
		}
	}
	if t.Watermark == nil {
		return nil, sql.Errorf(sql.ErrInvalid, g.At, "watermark alignment needs event time, but table %s declares no WATERMARK", t.Name)
	}
	col := schema.FieldIndices(t.Watermark.Column)
	if len(col) != 1 || schema.Field(col[0]).Type.ID() != arrow.TIMESTAMP {
		return nil, sql.Errorf(sql.ErrUnsupported, g.At, "watermark alignment reads the rowtime column as the read hands it out, but %s of table %s is computed; align on a physical or metadata column", t.Watermark.Column, t.Name)
	}
	return &alignment{col: col[0], drift: drift.Milliseconds(), idle: idle}, nil
}

// latestTime is the greatest time of column col of rec in milliseconds,
// or MinInt64 for none.
func latestTime(rec arrow.RecordBatch, col int) int64 {
	a, ok := rec.Column(col).(*array.Timestamp)
	if !ok {
		return math.MinInt64
	}
	unit := a.DataType().(*arrow.TimestampType).Unit
	latest := int64(math.MinInt64)
	for i, v := range a.TimestampValues() {
		if a.IsValid(i) {
			latest = max(latest, int64(v))
		}
	}
	if latest == math.MinInt64 {
		return latest
	}
	switch unit {
	case arrow.Second:
		return latest * 1000
	case arrow.Microsecond:
		return latest / 1000
	case arrow.Nanosecond:
		return latest / 1_000_000
	}
	return latest
}

// align pauses the splits too far ahead and resumes those back within
// the drift.
func (r *reader) align(now time.Time) {
	a := r.src.align
	slowest := int64(math.MaxInt64)
	for _, sp := range r.splits {
		if sp.endQueued || a.idle > 0 && now.Sub(sp.lastRecord) >= a.idle {
			continue
		}
		slowest = min(slowest, sp.latest)
	}
	pause, resume := map[string][]int32{}, map[string][]int32{}
	for _, sp := range r.splits {
		if sp.endQueued {
			continue // no longer fetched
		}
		ahead := slowest != math.MaxInt64 && slowest != math.MinInt64 && sp.latest > slowest+a.drift
		if slowest == math.MinInt64 && sp.latest != math.MinInt64 {
			ahead = true // a partition without records yet holds the others back, as in Flink
		}
		switch {
		case ahead && !sp.paused:
			pause[sp.topic] = append(pause[sp.topic], sp.partition)
			sp.paused = true
			r.pauses++
		case !ahead && sp.paused:
			resume[sp.topic] = append(resume[sp.topic], sp.partition)
			sp.paused = false
		}
	}
	if r.cl != nil && len(pause) > 0 {
		r.cl.PauseFetchPartitions(pause)
	}
	if r.cl != nil && len(resume) > 0 {
		r.cl.ResumeFetchPartitions(resume)
	}
}
