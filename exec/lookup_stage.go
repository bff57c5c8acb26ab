package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// LookupJoin is a processing-time temporal join (FOR SYSTEM_TIME AS OF a
// PROCTIME() column) with a table of files: Config joins the job's rows,
// and Table is the job that reads the whole table, run to its end when the
// join starts and again when the table's files change. With Keyed, the
// table is queried by key instead (joinop.LookupKeyJoin), and Table is nil.
type LookupJoin struct {
	Config joinop.LookupFileConfig
	Table  *Job
	Keyed  *lookup.Plan
	// Name is the table's, for errors.
	Name string
}

// lookupStage is the lookup join where a window would be: it joins each
// batch as it comes and keeps no rows, only the table.
type lookupStage struct {
	joinop.LookupOperator
}

// lookupStage builds the job's lookup join, sending its rows to next.
func (j *Job) lookupStage(mem memory.Allocator, next pipeline.Operator) (*lookupStage, error) {
	cfg := j.Lookup.Config
	if cfg.Clock == nil {
		cfg.Clock = j.Clock
	}
	var op joinop.LookupOperator
	var err error
	if k := j.Lookup.Keyed; k != nil {
		op, err = joinop.NewLookupKeyJoin(joinop.LookupKeyConfig{LookupFileConfig: cfg, Source: k.Source, Cache: k.Cache}, mem, next)
	} else {
		cfg.Load = j.Lookup.load
		op, err = joinop.NewLookupFileJoin(cfg, mem, next)
	}
	if err != nil {
		return nil, err
	}
	return &lookupStage{op}, nil
}

// load runs the table's job to its end and gathers its rows in one batch.
// A bad row in the table's files fails the load: the join would miss its
// key without a trace.
func (l *LookupJoin) load(mem memory.Allocator) (arrow.RecordBatch, error) {
	var w joinop.TableRows
	defer w.Release()
	stats, err := l.Table.Run(context.Background(), mem, &w)
	if err != nil {
		return nil, err
	}
	if stats.BadRowsSkipped > 0 {
		return nil, fmt.Errorf("%d rows of table %s are bad; a lookup join reads every row of its table", stats.BadRowsSkipped, l.Name)
	}
	return w.Concat(mem, l.Table.Schema())
}

// stats counts the probe rows, the rows joined and the cache's hits and
// misses.
func (s *lookupStage) stats() windowop.Stats {
	st := s.Stats()
	return windowop.Stats{RowsIn: st.RowsIn, ResultRows: st.ResultRows, LookupHits: st.LookupHits, LookupMisses: st.LookupMisses}
}

func (s *lookupStage) saveState(e *checkpoint.Encoder) error    { return s.SnapshotState(e) }
func (s *lookupStage) restoreState(d *checkpoint.Decoder) error { return s.RestoreState(d) }

var _ stateStage = (*lookupStage)(nil)
