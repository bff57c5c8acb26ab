package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// lateRows collects, per batch, the rows that missed a window because it
// was late, and sends them to Config.LateSink with the missed window and
// the watermark at arrival. Without a sink they are only counted (Stats).
type lateRows struct {
	sink   pipeline.Operator
	schema *arrow.Schema
	mem    memory.Allocator
	rows   []int
	wins   []Window
	wms    []int64
}

func (l *lateRows) init(cfg Config, mem memory.Allocator) {
	l.sink, l.mem = cfg.LateSink, mem
	if l.sink != nil {
		l.schema = cfg.LateSchema()
	}
}

func (l *lateRows) begin() {
	l.rows, l.wins, l.wms = l.rows[:0], l.wins[:0], l.wms[:0]
}

// add records that row i missed window w (late rows are rare: this is off
// the hot path).
func (l *lateRows) add(i int, w Window, wm int64) {
	if l.sink == nil {
		return
	}
	l.rows = append(l.rows, i)
	l.wins = append(l.wins, w)
	l.wms = append(l.wms, wm)
}

// flush sends the late rows of rec to the sink as one batch.
func (l *lateRows) flush(rec arrow.RecordBatch) error {
	if l.sink == nil || len(l.rows) == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, l.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for _, col := range rec.Columns() {
		parts := make([]arrow.Array, len(l.rows))
		for j, r := range l.rows {
			parts[j] = array.NewSlice(col, int64(r), int64(r)+1)
		}
		c, err := array.Concatenate(parts, l.mem)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return err
		}
		cols = append(cols, c)
	}
	n := len(l.schema.Fields())
	start := array.NewTimestampBuilder(l.mem, l.schema.Field(n-3).Type.(*arrow.TimestampType))
	end := array.NewTimestampBuilder(l.mem, l.schema.Field(n-2).Type.(*arrow.TimestampType))
	wm := array.NewTimestampBuilder(l.mem, l.schema.Field(n-1).Type.(*arrow.TimestampType))
	for j := range l.rows {
		start.Append(arrow.Timestamp(l.wins[j].Start))
		end.Append(arrow.Timestamp(l.wins[j].End))
		wm.Append(arrow.Timestamp(l.wms[j]))
	}
	for _, b := range []*array.TimestampBuilder{start, end, wm} {
		cols = append(cols, b.NewArray())
		b.Release()
	}
	out := array.NewRecordBatch(l.schema, cols, int64(len(l.rows)))
	defer out.Release()
	return l.sink.ProcessBatch(pipeline.Batch{Record: out})
}

func (l *lateRows) release() {}
