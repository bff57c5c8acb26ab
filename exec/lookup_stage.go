package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// LookupJoin is a processing-time temporal join (FOR SYSTEM_TIME AS OF a
// PROCTIME() column) with a table of files: Config joins the job's rows,
// and Table is the job that reads the whole table, run to its end when the
// join starts and again when the table's files change.
type LookupJoin struct {
	Config joinop.LookupFileConfig
	Table  *Job
	// Name is the table's, for errors.
	Name string
}

// lookupStage is the lookup join where a window would be: it joins each
// batch as it comes and keeps no rows, only the table.
type lookupStage struct {
	*joinop.LookupFileJoin
}

// lookupStage builds the job's lookup join, sending its rows to next.
func (j *Job) lookupStage(mem memory.Allocator, next pipeline.Operator) (*lookupStage, error) {
	cfg := j.Lookup.Config
	if cfg.Clock == nil {
		cfg.Clock = j.Clock
	}
	cfg.Load = j.Lookup.load
	op, err := joinop.NewLookupFileJoin(cfg, mem, next)
	if err != nil {
		return nil, err
	}
	return &lookupStage{op}, nil
}

// load runs the table's job to its end and gathers its rows in one batch.
// A bad row in the table's files fails the load: the join would miss its
// key without a trace.
func (l *LookupJoin) load(mem memory.Allocator) (arrow.RecordBatch, error) {
	var w batchCollector
	defer w.release()
	stats, err := l.Table.Run(context.Background(), mem, &w)
	if err != nil {
		return nil, err
	}
	if stats.BadRowsSkipped > 0 {
		return nil, fmt.Errorf("%d rows of table %s are bad; a lookup join reads every row of its table", stats.BadRowsSkipped, l.Name)
	}
	return w.concat(mem, l.Table.Schema())
}

// batchCollector is a result writer that keeps the batches written.
type batchCollector struct {
	batches []arrow.RecordBatch
}

func (c *batchCollector) WriteBatch(rec arrow.RecordBatch) error {
	rec.Retain()
	c.batches = append(c.batches, rec)
	return nil
}

func (c *batchCollector) Close() error { return nil }

func (c *batchCollector) release() {
	for _, b := range c.batches {
		b.Release()
	}
	c.batches = nil
}

// concat is the batches as one batch of schema, column by column.
func (c *batchCollector) concat(mem memory.Allocator, schema *arrow.Schema) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, col := range cols {
			if col != nil {
				col.Release()
			}
		}
	}()
	rows := int64(0)
	for _, b := range c.batches {
		rows += b.NumRows()
	}
	for i, f := range schema.Fields() {
		if len(c.batches) == 0 {
			cols[i] = array.MakeArrayOfNull(mem, f.Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(c.batches))
		for k, b := range c.batches {
			parts[k] = b.Column(i)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = col
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}

// stats counts the probe rows and the rows joined.
func (s *lookupStage) stats() windowop.Stats {
	st := s.Stats()
	return windowop.Stats{RowsIn: st.RowsIn, ResultRows: st.ResultRows}
}

func (s *lookupStage) saveState(e *checkpoint.Encoder) error    { return s.SnapshotState(e) }
func (s *lookupStage) restoreState(d *checkpoint.Decoder) error { return s.RestoreState(d) }

var _ stateStage = (*lookupStage)(nil)
