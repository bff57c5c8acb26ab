package temporalsort

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// Key is one key of ORDER BY: a column of the input, descending or not.
type Key struct {
	Column int
	Desc   bool
}

// Config configures the sort. Keys[0] is the time attribute, a TIMESTAMP
// column sorted ascending; the other keys order rows of one time.
type Config struct {
	Input *arrow.Schema
	Keys  []Key
}

// Operator is the temporal sort (see the package doc).
type Operator struct {
	cfg        Config
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	wm         int64 // the last watermark received
	// buf holds the rows waiting for the watermark, in arrival order; each
	// record is retained by the operator.
	buf  []arrow.RecordBatch
	late int64
	// scratch, reused between releases
	keep, ready []int32
	cmps        []compareFunc
}

// New returns the sort, sending ordered rows to next.
func New(cfg Config, mem memory.Allocator, next pipeline.Operator) (*Operator, error) {
	if len(cfg.Keys) == 0 || cfg.Keys[0].Column < 0 || cfg.Keys[0].Column >= cfg.Input.NumFields() {
		return nil, fmt.Errorf("temporal sort: the first key must be a column of the input")
	}
	if cfg.Keys[0].Desc {
		return nil, fmt.Errorf("temporal sort: the time attribute sorts ascending")
	}
	if _, ok := cfg.Input.Field(cfg.Keys[0].Column).Type.(*arrow.TimestampType); !ok {
		return nil, fmt.Errorf("temporal sort: column %s is %s, not a time attribute", cfg.Input.Field(cfg.Keys[0].Column).Name, cfg.Input.Field(cfg.Keys[0].Column).Type)
	}
	return &Operator{cfg: cfg, mem: mem, next: next, wm: minWatermark}, nil
}

// Late counts the rows dropped because the watermark had passed their
// time when they arrived.
func (o *Operator) Late() int64 { return o.late }

// Buffered counts the rows waiting for the watermark.
func (o *Operator) Buffered() int64 {
	var n int64
	for _, r := range o.buf {
		n += r.NumRows()
	}
	return n
}

// ProcessBatch buffers the rows of b that are not late. A row is late when
// its time is at or before the watermark it arrived under (b.Watermarks,
// or the last watermark received), or NULL.
func (o *Operator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	ts := rec.Column(o.cfg.Keys[0].Column).(*array.Timestamp)
	vals := ts.TimestampValues()
	o.keep = o.keep[:0]
	for i := 0; i < n; i++ {
		wm := o.wm
		if b.Watermarks != nil {
			wm = b.Watermarks[i]
		}
		if ts.IsValid(i) && int64(vals[i]) > wm {
			o.keep = append(o.keep, int32(i))
		}
	}
	o.late += int64(n - len(o.keep))
	switch len(o.keep) {
	case 0:
		return nil
	case n:
		rec.Retain()
		o.buf = append(o.buf, rec)
		return nil
	}
	kept, err := expr.TakeRecord(rec, o.keep, o.mem)
	if err != nil {
		return err
	}
	o.buf = append(o.buf, kept)
	return nil
}

// ProcessWatermark releases, in order, the rows whose time the watermark
// has reached, then passes the watermark on.
func (o *Operator) ProcessWatermark(wm int64) error {
	if !o.watermarks.Advance(wm) {
		return nil
	}
	o.wm = wm
	if err := o.release(wm); err != nil {
		return err
	}
	return o.next.ProcessWatermark(wm)
}

// ProcessEnd releases every row held, as Flink's final watermark does.
func (o *Operator) ProcessEnd() error {
	if err := o.release(math.MaxInt64); err != nil {
		return err
	}
	return o.next.ProcessEnd()
}

// release sends the buffered rows with a time at or before wm downstream,
// sorted by the keys (rows equal in every key in arrival order), and keeps
// the others.
func (o *Operator) release(wm int64) error {
	if len(o.buf) == 0 {
		return nil
	}
	all, err := o.concat()
	if err != nil {
		return err
	}
	defer all.Release()
	vals := all.Column(o.cfg.Keys[0].Column).(*array.Timestamp).TimestampValues()
	o.ready, o.keep = o.ready[:0], o.keep[:0]
	for i, v := range vals {
		if int64(v) <= wm {
			o.ready = append(o.ready, int32(i))
		} else {
			o.keep = append(o.keep, int32(i))
		}
	}
	if len(o.ready) == 0 {
		return nil
	}
	if err := o.sortReady(all, vals); err != nil {
		return err
	}
	out, err := expr.TakeRecord(all, o.ready, o.mem)
	if err != nil {
		return err
	}
	var rest arrow.RecordBatch
	if len(o.keep) > 0 {
		if rest, err = expr.TakeRecord(all, o.keep, o.mem); err != nil {
			out.Release()
			return err
		}
	}
	o.clearBuf()
	if rest != nil {
		o.buf = append(o.buf, rest)
	}
	defer out.Release()
	return o.next.ProcessBatch(pipeline.Batch{Record: out})
}

// sortReady orders o.ready by time, then by the other keys; a stable sort
// keeps rows equal in every key in arrival order.
func (o *Operator) sortReady(all arrow.RecordBatch, vals []arrow.Timestamp) error {
	o.cmps = o.cmps[:0]
	for _, k := range o.cfg.Keys[1:] {
		c, err := columnCompare(all.Column(k.Column))
		if err != nil {
			return err
		}
		if k.Desc {
			asc := c
			c = func(i, j int) int { return asc(j, i) }
		}
		o.cmps = append(o.cmps, c)
	}
	cmps := o.cmps
	slices.SortStableFunc(o.ready, func(a, b int32) int {
		if va, vb := vals[a], vals[b]; va != vb {
			if va < vb {
				return -1
			}
			return 1
		}
		for _, c := range cmps {
			if r := c(int(a), int(b)); r != 0 {
				return r
			}
		}
		return 0
	})
	return nil
}

// concat is the buffered rows as one record (retained for the caller).
func (o *Operator) concat() (arrow.RecordBatch, error) {
	if len(o.buf) == 1 {
		o.buf[0].Retain()
		return o.buf[0], nil
	}
	cols := make([]arrow.Array, o.cfg.Input.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	parts := make([]arrow.Array, len(o.buf))
	var rows int64
	for _, r := range o.buf {
		rows += r.NumRows()
	}
	for c := range cols {
		for i, r := range o.buf {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, o.mem)
		if err != nil {
			return nil, err
		}
		cols[c] = a
	}
	return array.NewRecordBatch(o.cfg.Input, cols, rows), nil
}

func (o *Operator) clearBuf() {
	for _, r := range o.buf {
		r.Release()
	}
	o.buf = o.buf[:0]
}

// Close releases the rows held.
func (o *Operator) Close() { o.clearBuf() }

var _ pipeline.Operator = (*Operator)(nil)

// minWatermark is the watermark before the first: every time is after it.
const minWatermark = math.MinInt64
