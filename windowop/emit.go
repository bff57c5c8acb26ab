package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RowKind is the change a result row carries in an update stream, as in
// Flink: +I insert, -U the old value of an update, +U the new value, -D a
// row taken away.
type RowKind string

const (
	Insert       RowKind = "+I"
	UpdateBefore RowKind = "-U"
	UpdateAfter  RowKind = "+U"
	Delete       RowKind = "-D"
)

// RowKindColumn builds the op column of kinds, every value two bytes,
// straight into its buffers.
func RowKindColumn(mem memory.Allocator, kinds []RowKind) arrow.Array {
	n := len(kinds)
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((n + 1) * 4)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	data := memory.NewResizableBuffer(mem)
	data.Resize(2 * n)
	d := data.Bytes()
	for i, k := range kinds {
		offs[i] = int32(2 * i)
		d[2*i], d[2*i+1] = k[0], k[1]
	}
	offs[n] = int32(2 * n)
	ad := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{nil, offsets, data}, nil, 0, 0)
	offsets.Release()
	data.Release()
	defer ad.Release()
	return array.NewStringData(ad)
}

// emitWindowResult turns the accumulators of key k's window w (held in
// slot s) into an output row (Flink's emitWindowResult). In an update
// stream it emits +I the first time, then -U/+U only when the value
// changed, remembering what it emitted in a shadow slot.
func (op *WindowOperator) emitWindowResult(k uint32, w Window, s int32) {
	if !op.updates {
		op.appendRow(Insert, k, w, s)
		return
	}
	wk := windowKey{key: k, w: w}
	sh, ok := op.shadow[wk]
	if !ok {
		sh = op.slots.alloc()
		op.shadow[wk] = sh
		op.copyResultSlot(sh, s)
		op.appendRow(Insert, k, w, s)
		return
	}
	if op.sameSlot(sh, s) {
		return
	}
	op.appendRow(UpdateBefore, k, w, sh)
	op.appendRow(UpdateAfter, k, w, s)
	op.copyResultSlot(sh, s)
}

// forgetEmitted drops the shadow of a window whose state is cleaned up.
func (op *WindowOperator) forgetEmitted(k uint32, w Window) {
	if !op.updates {
		return
	}
	wk := windowKey{key: k, w: w}
	if sh, ok := op.shadow[wk]; ok {
		op.slots.release(sh)
		delete(op.shadow, wk)
	}
}

// appendRow appends one result row. The aggregates are appended at once
// (the slot may change or be freed right after); the op, key and window
// columns are only recorded and built a column at a time by buildResults.
func (op *WindowOperator) appendRow(kind RowKind, k uint32, w Window, s int32) {
	c := op.firstAggField()
	if op.pending == 0 && op.lastBatch > 1 {
		// firings come in bursts of about one row per key: growing the
		// builders once beats doubling (and copying) them every batch
		for i := range op.accs {
			op.builder.Field(c + i).Reserve(op.lastBatch)
		}
	}
	if op.updates {
		op.resKinds = append(op.resKinds, kind)
	}
	op.resKeys = append(op.resKeys, k)
	op.resWins = append(op.resWins, w)
	op.oneSlot[0] = s
	for _, a := range op.accs {
		a.appendResults(op.oneSlot[:], op.builder.Field(c))
		c++
	}
	op.pending++
	op.stats.ResultRows++
	if op.pending >= resultBatchRows && op.emitErr == nil {
		op.emitErr = op.flush()
	}
}

// resultBatchRows caps a result batch. A watermark that closes a window
// of every key fires millions of results at once (Nexmark q5's HOP per
// auction: 3M rows): sent as one batch, its pending columns grew by
// copying and it was held whole by every operator after this one.
const resultBatchRows = 1 << 15

// firstAggField is the builder index of the first aggregate column.
func (op *WindowOperator) firstAggField() int {
	c := len(op.keys.cols) + 3
	if op.updates {
		c++
	}
	return c
}

// buildResults appends the recorded op, key and window columns of the
// pending result rows.
func (op *WindowOperator) buildResults() {
	n := len(op.resKeys)
	c := 0
	if op.updates {
		b := op.builder.Field(0).(*array.StringBuilder)
		b.Reserve(n)
		b.ReserveData(2 * n)
		for _, kind := range op.resKinds {
			b.Append(string(kind))
		}
		c = 1
	}
	for _, col := range op.keys.cols {
		col.appendTo(op.resKeys, op.builder.Field(c))
		c++
	}
	starts := op.builder.Field(c).(*array.TimestampBuilder)
	ends := op.builder.Field(c + 1).(*array.TimestampBuilder)
	times := op.builder.Field(c + 2).(*array.TimestampBuilder)
	op.resTimes = grow(op.resTimes, 3*n)
	st, en, tm := op.resTimes[:n], op.resTimes[n:2*n], op.resTimes[2*n:]
	for i, w := range op.resWins {
		st[i], en[i], tm[i] = arrow.Timestamp(w.Start), arrow.Timestamp(w.End), arrow.Timestamp(op.epoch(w.MaxTimestamp()))
	}
	starts.AppendValues(st, nil)
	ends.AppendValues(en, nil)
	times.AppendValues(tm, nil)
	op.resKinds, op.resKeys, op.resWins = op.resKinds[:0], op.resKeys[:0], op.resWins[:0]
}

// copyResultSlot copies what slot src shows into the shadow slot dst.
func (op *WindowOperator) copyResultSlot(dst, src int32) {
	op.meter.touch(dst)
	for _, a := range op.accs {
		copyResult(a, dst, src)
	}
}

func (op *WindowOperator) mergeSlot(dst, src int32) {
	op.meter.touch(dst)
	for _, a := range op.accs {
		a.merge(dst, src)
	}
}

func (op *WindowOperator) sameSlot(x, y int32) bool {
	for _, a := range op.accs {
		if !a.sameResult(x, y) {
			return false
		}
	}
	return true
}
