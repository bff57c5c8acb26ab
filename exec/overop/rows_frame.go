package overop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/windowop"
)

// processRows is process for a bounded ROWS frame, where each row enters
// its partition's frame and, once the frame is full, pushes its oldest
// row out. First every row of the round takes its place and names the
// row it pushes out; then the aggregates with a sliding form (SUM, AVG,
// COUNT) compute the whole round in one pass each
// (windowop.OverAggs.Slide), and the others go by segments of distinct
// partitions as in process. A leaving row's round is released only at
// the end: its values are read until then.
func (op *Over) processRows(rec arrow.RecordBatch) error {
	defer rec.Release()
	n := len(op.ready)
	rid := op.addRound(op.frameOf(rec))
	op.rounds[rid].refs++ // held while processing
	op.rowSlots = grow(op.rowSlots, n)
	op.leavingOf = grow(op.leavingOf, n)
	for r := range op.ready {
		pr := &op.ready[r]
		st := &op.parts[pr.part]
		if st.slot < 0 {
			st.slot = op.aggs.Alloc()
		}
		op.rowSlots[r] = st.slot
		op.push(st, frameRow{round: rid, row: int32(r)}, pr.ts)
		op.leavingOf[r] = windowop.OverRow{Rec: -1}
		if int64(st.size) > op.cfg.Preceding+1 {
			fr := st.pop()
			op.leavingOf[r] = windowop.OverRow{Rec: fr.round, Row: fr.row}
		}
		st.lastTs = pr.ts
	}
	op.recs = op.recs[:0]
	for i := range op.rounds {
		op.recs = append(op.recs, op.rounds[i].rec)
	}
	op.aggs.Slide(rec, op.rowSlots[:n], op.leavingOf[:n], op.recs, op.mem, op.results)
	clear(op.recs) // keeps no record alive
	if op.general {
		if err := op.processRowsGeneral(rec, n); err != nil {
			return err
		}
	}
	for _, l := range op.leavingOf[:n] {
		if l.Rec >= 0 {
			op.rounds[l.Rec].refs--
			op.releaseIfDone(l.Rec)
		}
	}
	return op.emit(rec, rid, n)
}

// frameOf is what a round keeps of rec while its rows are in frames:
// rec, or its columns FrameColumns when every aggregate slides (SUM(v)
// keeps v alone, a fifth of the bytes of BenchmarkOverRows100's rounds,
// which live as long as 35 rounds go by). It is a new reference.
func (op *Over) frameOf(rec arrow.RecordBatch) arrow.RecordBatch {
	if op.frameCols == nil {
		rec.Retain()
		return rec
	}
	cols := make([]arrow.Array, len(op.frameCols))
	for i, c := range op.frameCols {
		cols[i] = rec.Column(c)
	}
	return array.NewRecordBatch(op.frameSch, cols, rec.NumRows())
}

// inputOf is the rows a round keeps in the input's schema, for a
// checkpoint: the columns no aggregate reads are NULL. It is a new
// reference.
func (op *Over) inputOf(rid int32) arrow.RecordBatch {
	rec := op.rounds[rid].rec
	if op.frameCols == nil {
		rec.Retain()
		return rec
	}
	n := int(rec.NumRows())
	cols := make([]arrow.Array, op.cfg.Input.NumFields())
	for c, f := range op.cfg.Input.Fields() {
		cols[c] = array.MakeArrayOfNull(op.mem, f.Type, n)
	}
	for i, c := range op.frameCols {
		cols[c].Release()
		cols[c] = rec.Column(i)
		cols[c].Retain()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(op.cfg.Input, cols, int64(n))
}

// processRowsGeneral runs the aggregates without a sliding form over the
// round's n rows, by segments in which no partition repeats: each
// segment's rows are folded in, the rows they push out taken out, and
// the segment's results appended.
func (op *Over) processRowsGeneral(rec arrow.RecordBatch, n int) error {
	for len(op.seen) < len(op.parts) {
		op.seen = append(op.seen, 0)
	}
	for i := range op.builders {
		if !op.aggs.Slides(i) {
			op.builders[i].Reserve(n)
		}
	}
	for from := 0; from < n; {
		op.nextSegment()
		i := from
		for ; i < n; i++ {
			p := op.ready[i].part
			if op.seen[p] == op.segment {
				break
			}
			op.seen[p] = op.segment
			if l := op.leavingOf[i]; l.Rec >= 0 {
				op.mark(frameRow{round: l.Rec, row: l.Row}, op.rowSlots[i])
			}
		}
		if err := op.aggs.Update(rec, op.rowSlots, from, i); err != nil {
			return err
		}
		op.retractLeaving(false)
		op.aggs.AppendResults(op.rowSlots[from:i], op.builders)
		from = i
	}
	return nil
}
