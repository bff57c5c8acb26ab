package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// RowKind is the change a result row carries in an update stream, as in
// Flink: +I insert, -U the old value of an update, +U the new value.
type RowKind string

const (
	Insert       RowKind = "+I"
	UpdateBefore RowKind = "-U"
	UpdateAfter  RowKind = "+U"
)

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
		op.copySlot(sh, s)
		op.appendRow(Insert, k, w, s)
		return
	}
	if op.sameSlot(sh, s) {
		return
	}
	op.appendRow(UpdateBefore, k, w, sh)
	op.appendRow(UpdateAfter, k, w, s)
	op.copySlot(sh, s)
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

// appendRow appends one result row: op, keys, window bounds, aggregates.
func (op *WindowOperator) appendRow(kind RowKind, k uint32, w Window, s int32) {
	c := 0
	if op.updates {
		op.builder.Field(0).(*array.StringBuilder).Append(string(kind))
		c = 1
	}
	op.oneKey[0], op.oneSlot[0] = k, s
	for _, col := range op.keys.cols {
		col.appendTo(op.oneKey[:], op.builder.Field(c))
		c++
	}
	op.builder.Field(c).(*array.TimestampBuilder).Append(arrow.Timestamp(w.Start))
	op.builder.Field(c + 1).(*array.TimestampBuilder).Append(arrow.Timestamp(w.End))
	op.builder.Field(c + 2).(*array.TimestampBuilder).Append(arrow.Timestamp(op.epoch(w.MaxTimestamp())))
	c += 3
	for _, a := range op.accs {
		a.appendResults(op.oneSlot[:], op.builder.Field(c))
		c++
	}
	op.pending++
	op.stats.Results++
}

func (op *WindowOperator) copySlot(dst, src int32) {
	for _, a := range op.accs {
		a.copyTo(dst, src)
	}
}

func (op *WindowOperator) mergeSlot(dst, src int32) {
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
