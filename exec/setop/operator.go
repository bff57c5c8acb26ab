package setop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Stats counts what an Operator did.
type Stats struct {
	RowsIn, ResultRows int64
}

// Operator runs a Config's set operation row by row in arrival order, so
// its output depends on the rows and their order alone, never on batch
// size. Per distinct row it counts the left and right rows equal to it;
// each row that changes how many copies the operation keeps (by one)
// emits itself as +I (a copy more) or -D (a copy less), as Flink's
// aggregation-based INTERSECT and EXCEPT retract.
type Operator struct {
	cfg    Config
	out    pipeline.Operator
	schema *arrow.Schema
	mem    memory.Allocator
	keys   rankop.RowKeys
	index  map[string]int32
	counts [][2]int64 // by row id: left and right rows
	order  []string   // row ids' keys, in order, for a snapshot
	stats  Stats
	// forwarded is the last watermark sent on: only a larger one goes
	forwarded int64

	// per batch, reused
	bufs  [][]byte
	rows  []int32
	kinds []windowop.RowKind
}

// New builds the running operator for cfg, sending results to out.
func New(cfg Config, mem memory.Allocator, out pipeline.Operator) (*Operator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	cols := make([]int, cfg.Input.NumFields()-1)
	for i := range cols {
		cols[i] = i
	}
	return &Operator{cfg: cfg, out: out, schema: schema, mem: mem, keys: rankop.NewRowKeys(cols), index: map[string]int32{},
		forwarded: rowtime.MinWatermark}, nil
}

// Schema returns the schema of the batches the operator emits.
func (o *Operator) Schema() *arrow.Schema { return o.schema }

// Stats returns the operator's counters so far.
func (o *Operator) Stats() Stats { return o.stats }

// ProcessBatch counts every row in order and emits the changes.
func (o *Operator) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	o.stats.RowsIn += int64(n)
	for len(o.bufs) < n {
		o.bufs = append(o.bufs, nil)
	}
	o.keys.Encode(rec, o.bufs)
	side := rec.Column(int(rec.NumCols()) - 1).(*array.Boolean)
	o.rows, o.kinds = o.rows[:0], o.kinds[:0]
	for i := 0; i < n; i++ {
		id, ok := o.index[string(o.bufs[i])]
		if !ok {
			id = int32(len(o.counts))
			key := string(o.bufs[i])
			o.index[key] = id
			o.order = append(o.order, key)
			o.counts = append(o.counts, [2]int64{})
		}
		c := &o.counts[id]
		before := o.cfg.Kind.copies(c[0], c[1])
		if side.Value(i) {
			c[1]++
		} else {
			c[0]++
		}
		switch after := o.cfg.Kind.copies(c[0], c[1]); {
		case after > before:
			o.rows, o.kinds = append(o.rows, int32(i)), append(o.kinds, windowop.Insert)
		case after < before:
			o.rows, o.kinds = append(o.rows, int32(i)), append(o.kinds, windowop.Delete)
		}
	}
	if len(o.rows) == 0 {
		return nil
	}
	return o.send(rec)
}

// send emits the batch's rows o.rows with their kinds.
func (o *Operator) send(rec arrow.RecordBatch) error {
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	cols = append(cols, windowop.RowKindColumn(o.mem, o.kinds))
	for c := 0; c < o.schema.NumFields()-1; c++ {
		col, err := expr.Take(rec.Column(c), o.rows, o.mem)
		if err != nil {
			return err
		}
		cols = append(cols, col)
	}
	out := array.NewRecordBatch(o.schema, cols, int64(len(o.rows)))
	defer out.Release()
	o.stats.ResultRows += int64(len(o.rows))
	return o.out.ProcessBatch(pipeline.Batch{Record: out})
}

// ProcessWatermark forwards a watermark larger than the last: the output
// has no time attribute, but what reads it may wait for the watermark.
func (o *Operator) ProcessWatermark(wm int64) error {
	if wm <= o.forwarded {
		return nil
	}
	o.forwarded = wm
	return o.out.ProcessWatermark(wm)
}

// ProcessEnd forwards the end.
func (o *Operator) ProcessEnd() error { return o.out.ProcessEnd() }

// Close releases nothing: the state holds no Arrow memory.
func (o *Operator) Close() {}

var _ pipeline.Operator = (*Operator)(nil)
