package windowtvf

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Operator appends the window columns to each row, once per window, in
// Flink's order: HOP windows by decreasing start, CUMULATE windows by
// increasing end. It keeps no state; watermarks pass through.
type Operator struct {
	cfg    Config
	schema *arrow.Schema
	mem    memory.Allocator
	next   pipeline.Operator
	gate   pipeline.WatermarkGate

	// scratch reused across batches: a row index, start and end per
	// output row, the local times of the batch, the output columns
	rows   []int32
	starts []int64
	ends   []int64
	local  []int64
	wms    []int64
	cols   []arrow.Array
}

// New returns the operator sending its rows to next.
func New(cfg Config, mem memory.Allocator, next pipeline.Operator) (*Operator, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	return &Operator{cfg: cfg, schema: schema, mem: mem, next: next, cols: make([]arrow.Array, schema.NumFields())}, nil
}

// Schema is the schema of the rows the operator sends.
func (o *Operator) Schema() *arrow.Schema { return o.schema }

// ProcessBatch sends the rows of b with their windows.
func (o *Operator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	ts, err := rowtime.Millis(rec.Column(o.cfg.RowtimeIndex))
	if err != nil {
		return err
	}
	if o.cfg.Local != nil {
		o.local = grow(o.local, n)
		o.cfg.Local.ToLocalColumn(ts, o.local)
		ts = o.local
	}
	o.assign(ts)
	out := len(o.rows)
	clear(o.cols)
	defer expr.ReleaseAll(o.cols)
	in := rec.NumCols()
	identity := out == n && o.cfg.Kind == Tumble
	for c := 0; c < int(in); c++ {
		if identity {
			o.cols[c] = rec.Column(c)
			o.cols[c].Retain()
			continue
		}
		if o.cols[c], err = expr.Take(rec.Column(c), o.rows, o.mem); err != nil {
			return err
		}
	}
	o.cols[in] = o.timestamps(o.schema.Field(int(in)).Type, o.starts, 0, false)
	o.cols[in+1] = o.timestamps(o.schema.Field(int(in)+1).Type, o.ends, 0, false)
	o.cols[in+2] = o.timestamps(o.schema.Field(int(in)+2).Type, o.ends, -1, o.cfg.Local != nil)
	wms := b.Watermarks
	if wms != nil && !identity {
		o.wms = grow(o.wms, out)
		for j, r := range o.rows {
			o.wms[j] = b.Watermarks[r]
		}
		wms = o.wms
	}
	res := array.NewRecordBatch(o.schema, o.cols, int64(out))
	defer res.Release()
	return o.next.ProcessBatch(pipeline.Batch{Record: res, Watermarks: wms})
}

// assign fills rows, starts and ends with every (row, window) pair of the
// batch whose (local) event times are ts.
func (o *Operator) assign(ts []int64) {
	// locals, not the fields, in the loops: no write barrier per row
	rows, starts, ends := o.rows[:0], o.starts[:0], o.ends[:0]
	c := o.cfg
	switch c.Kind {
	case Tumble:
		for i, t := range ts {
			s := windowop.WindowStart(t, c.Offset, c.Size)
			rows, starts, ends = append(rows, int32(i)), append(starts, s), append(ends, s+c.Size)
		}
	case Hop:
		for i, t := range ts {
			for s := windowop.WindowStart(t, c.Offset, c.Slide); s > t-c.Size; s -= c.Slide {
				rows, starts, ends = append(rows, int32(i)), append(starts, s), append(ends, s+c.Size)
			}
		}
	case Cumulate:
		for i, t := range ts {
			s := windowop.WindowStart(t, c.Offset, c.Size)
			for e := windowop.WindowStart(t, c.Offset, c.Step) + c.Step; e <= s+c.Size; e += c.Step {
				rows, starts, ends = append(rows, int32(i)), append(starts, s), append(ends, e)
			}
		}
	}
	o.rows, o.starts, o.ends = rows, starts, ends
}

// timestamps makes a timestamp column of v[j] + shift; toEpoch turns the
// window-local times into instants (window_time over TIMESTAMP_LTZ).
func (o *Operator) timestamps(dt arrow.DataType, v []int64, shift int64, toEpoch bool) arrow.Array {
	buf, out := expr.NewValues[int64](o.mem, len(v))
	for j, x := range v {
		out[j] = x + shift
	}
	if toEpoch {
		for j, x := range out {
			out[j] = o.cfg.Local.ToEpochForTimer(x)
		}
	}
	return expr.NewArray(dt, len(v), nil, 0, buf)
}

// ProcessWatermark forwards an advancing watermark.
func (o *Operator) ProcessWatermark(wm int64) error {
	if !o.gate.Advance(wm) {
		return nil
	}
	return o.next.ProcessWatermark(wm)
}

// ProcessEnd forwards the end of input.
func (o *Operator) ProcessEnd() error { return o.next.ProcessEnd() }

// Close releases nothing: the operator holds no Arrow memory between
// calls.
func (o *Operator) Close() {}

func grow(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	return s[:n]
}

var _ pipeline.Operator = (*Operator)(nil)
