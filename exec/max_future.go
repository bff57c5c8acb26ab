package exec

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/badrows"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/rowtime"
)

// MaxFuture is 'scan.watermark.max-future' as the job runs it: a row whose
// event time lies more than Bound beyond the largest event time its split
// accepted so far is a bad row. One clock typo (a year 2099 row) would
// otherwise raise the watermark past every open window and close them all.
// The check runs in the watermark assigner, before a row can move the
// watermark; it depends only on the rows of the split in order, never on
// batch size or wall clock. The first row of a split has no bound.
type MaxFuture struct {
	Bound  time.Duration
	Table  string // names the table in the bad-rows file
	Column string // the rowtime column
}

// futureFilter drops the bad rows of event time before they can move the
// watermark: every row outside the event times wsql accepts
// (rowtime.MinEventTime to MaxEventTime), whatever the table's options,
// and with a MaxFuture bound the rows too far beyond their split. It keeps
// the largest accepted event time per split, counts the rows skipped, and
// writes them with their reason to the bad-rows file.
type futureFilter struct {
	spec     MaxFuture
	bound    int64   // ms; 0: no 'scan.watermark.max-future', only the range
	splitMax []int64 // per split: rowtime.MinWatermark before the first accepted row
	mem      memory.Allocator
	skipped  int64
	keep     []int32 // scratch: indexes of the rows kept

	// bad-rows file: the reader's ('wsql.bad-rows.path'), or its own for a
	// source that has none; nil when the path is not set
	bad     *badrows.File
	ownBad  bool
	rowText func(b []byte, rec arrow.RecordBatch, i, columns int) []byte // nil: CSV fields
	columns int                                                          // the source's physical columns, the part of a row written
	line    []byte
}

// newFutureFilter returns the filter of one read. spec.Bound 0 checks only
// the range of event times.
func newFutureFilter(spec MaxFuture, src *SourceSpec, reader BatchReader, mem memory.Allocator) (*futureFilter, error) {
	f := &futureFilter{spec: spec, bound: spec.Bound.Milliseconds(), mem: mem, rowText: src.BadRowText, columns: src.Schema.NumFields()}
	if r, ok := reader.(BadRowsReader); ok {
		f.bad = r.BadRows()
	}
	if f.bad == nil && src.BadRowsPath != "" {
		bad, err := badrows.Create(src.BadRowsPath)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSource, err)
		}
		f.bad, f.ownBad = bad, true
	}
	return f, nil
}

// filter returns rec without the rows too far in the future of split (rec
// itself, not retained again, when every row is kept), and their event
// times. The caller releases a record that differs from rec.
func (f *futureFilter) filter(rec arrow.RecordBatch, index, split int) (arrow.RecordBatch, error) {
	for len(f.splitMax) <= split {
		f.splitMax = append(f.splitMax, rowtime.MinWatermark)
	}
	col := rec.Column(index)
	ts, err := rowtime.Millis(col)
	if err != nil {
		return nil, err
	}
	nulls := col.NullN() > 0
	m := f.splitMax[split]
	if hi, ok := f.allGood(ts, m); ok && !nulls {
		f.splitMax[split] = max(m, hi)
		return rec, nil
	}
	f.keep = f.keep[:0]
	firstBad := -1
	for i, t := range ts {
		if nulls && col.IsNull(i) {
			if firstBad >= 0 {
				f.keep = append(f.keep, int32(i))
			}
			continue
		}
		outside := !rowtime.InEventTimeRange(t)
		if outside || (f.bound > 0 && m != rowtime.MinWatermark && t > satAdd(m, f.bound)) {
			if firstBad < 0 {
				firstBad = i
				for k := range i {
					f.keep = append(f.keep, int32(k))
				}
			}
			f.skipped++
			if f.bad != nil {
				f.writeBad(rec, index, i, t, m, outside)
			}
			continue
		}
		m = max(m, t)
		if firstBad >= 0 {
			f.keep = append(f.keep, int32(i))
		}
	}
	f.splitMax[split] = m
	if firstBad < 0 {
		return rec, nil
	}
	return expr.TakeRecord(rec, f.keep, f.mem)
}

// allGood reports whether every one of the event times ts (none of them
// NULL) is kept by a split whose largest accepted time is m, and their
// largest. A branch-free pass for the minimum and maximum decides most
// batches; the row-by-row loop is for a batch that has a bad row, or may.
func (f *futureFilter) allGood(ts []int64, m int64) (hi int64, ok bool) {
	if len(ts) == 0 {
		return m, true
	}
	lo, hi := rowtime.MinMax(ts)
	if !rowtime.InEventTimeRange(lo) || !rowtime.InEventTimeRange(hi) {
		return hi, false
	}
	if f.bound == 0 {
		return hi, true
	}
	// each row is checked against the largest time before it, at least m
	// or, with no row accepted yet, the first row's time
	if m == rowtime.MinWatermark {
		m = ts[0]
	}
	return hi, hi <= satAdd(m, f.bound)
}

// writeBad writes row i to the bad-rows file: a comment line with the
// reason, then the row in the source's format (CSV fields or a JSON
// object), so the file can be fixed and read again.
func (f *futureFilter) writeBad(rec arrow.RecordBatch, index, i int, t, m int64, outside bool) {
	zoned := false
	if tt, ok := rec.Column(index).DataType().(*arrow.TimestampType); ok {
		zoned = tt.TimeZone != ""
	}
	b := append(f.line[:0], "# "...)
	if outside {
		b = append(b, f.rangeReason(rec.Schema().Field(index).Name, t, zoned)...)
	} else {
		b = append(b, f.reason(t, m, zoned)...)
	}
	b = append(b, '\n')
	columns := min(f.columns, int(rec.NumCols()))
	if f.rowText != nil {
		b = f.rowText(b, rec, i, columns)
	} else {
		b = format.AppendRow(b, rec, i, columns, false, 0)
	}
	f.line = b
	f.bad.WriteLine(b)
}

// reason says why a row is bad: the column, its value and the bound.
func (f *futureFilter) reason(t, m int64, zoned bool) string {
	return fmt.Sprintf("table %s, column %s: %s is past the bound %s (the latest accepted event time of its split, %s, plus 'scan.watermark.max-future' = '%s')",
		f.spec.Table, f.spec.Column, millisText(t, zoned), millisText(satAdd(m, f.bound), zoned), millisText(m, zoned), durationWords(f.spec.Bound))
}

// rangeReason says why a row's event time is not accepted at all. The
// column is the record's: the filter may run without a MaxFuture spec.
func (f *futureFilter) rangeReason(column string, t int64, zoned bool) string {
	return fmt.Sprintf("table %s, column %s: %d ms (%s) is outside the event times wsql accepts, %s to %s",
		f.spec.Table, column, t, millisText(t, zoned), millisText(rowtime.MinEventTime, zoned), millisText(rowtime.MaxEventTime, zoned))
}

// millisText shows epoch milliseconds as a timestamp literal (UTC for a
// zoned TIMESTAMP_LTZ, said so).
func millisText(ms int64, zoned bool) string {
	s := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
	if zoned {
		s += " UTC"
	}
	return s
}

// durationWords shows a bound as the option's syntax would write it.
func durationWords(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + " " + u.name
		}
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
}

// close flushes a bad-rows file the filter opened itself.
func (f *futureFilter) close() error {
	if f.ownBad && f.bad != nil {
		return f.bad.Close()
	}
	return nil
}

// err is the first error writing the bad-rows file.
func (f *futureFilter) err() error {
	if f.bad != nil {
		return f.bad.Err()
	}
	return nil
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// BadRowsReader is a BatchReader that writes a bad-rows file: the future
// filter writes to the same file rather than a second one.
type BadRowsReader interface {
	BadRows() *badrows.File
}
