package exec

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// unionMerge is where the inputs of a UNION ALL meet. When every input
// forwards watermarks (timed), it passes rows on in one order that does
// not depend on how the inputs were cut into batches or read in turn:
// by the watermark each row arrived under, then by input, then in the
// input's order. A row waits until no input can still send a row before
// it: every other input's watermark is past the row's (or equal, for a
// later input), or that input has ended. Each row keeps its own watermark,
// and the union's watermark is the minimum of the inputs' (an ended input
// counts as +∞), forwarded once the rows before it are out; so a window
// after the union sees every row before the watermark that closes it,
// however far one input runs ahead of another.
//
// Without watermarks on every input (a table without WATERMARK, processing
// time) rows pass on as they come and no watermark is forwarded: the
// union has no event time.
type unionMerge struct {
	next      pipeline.Operator
	mem       memory.Allocator
	timed     bool
	inputs    []unionQueue
	forwarded int64 // the last watermark forwarded
}

// unionQueue is one input's state: its last watermark, whether it ended,
// and the rows it sent that wait for the other inputs.
type unionQueue struct {
	wm      int64
	ended   bool
	pending []pendingRows
	spare   [][]int64 // watermark slices of batches passed on, to reuse
}

// pendingRows is a retained batch of one input with the watermark of each
// row; rows before off were passed on.
type pendingRows struct {
	rec arrow.RecordBatch
	wms []int64
	off int
}

func newUnionMerge(n int, timed bool, mem memory.Allocator, next pipeline.Operator) *unionMerge {
	m := &unionMerge{next: next, mem: mem, timed: timed, inputs: make([]unionQueue, n), forwarded: rowtime.MinWatermark}
	for i := range m.inputs {
		m.inputs[i].wm = rowtime.MinWatermark
	}
	return m
}

// input is the operator input i's pipeline ends in.
func (m *unionMerge) input(i int) pipeline.Operator { return &unionInput{m: m, i: i} }

type unionInput struct {
	m *unionMerge
	i int
}

func (u *unionInput) ProcessBatch(b pipeline.Batch) error { return u.m.batch(u.i, b) }
func (u *unionInput) ProcessWatermark(wm int64) error     { return u.m.watermark(u.i, wm) }
func (u *unionInput) ProcessEnd() error                   { return u.m.endInput(u.i) }
func (u *unionInput) Close()                              {}

// The merge itself is the stage drive feeds: the union's reader hands it
// no batches or watermarks (those come through the inputs), only the end.
func (m *unionMerge) ProcessBatch(b pipeline.Batch) error { return m.next.ProcessBatch(b) }
func (m *unionMerge) ProcessWatermark(wm int64) error     { return nil }
func (m *unionMerge) Close()                              { m.release() }

// ProcessEnd ends the union, once every input has ended: the rows still
// waiting go out in order, then the end.
func (m *unionMerge) ProcessEnd() error {
	for i := range m.inputs {
		m.inputs[i].ended = true
	}
	if err := m.pass(); err != nil {
		return err
	}
	return m.next.ProcessEnd()
}

func (m *unionMerge) batch(i int, b pipeline.Batch) error {
	n := int(b.Record.NumRows())
	if n == 0 {
		return nil
	}
	if !m.timed {
		return m.pass1(i, pipeline.Batch{Record: b.Record})
	}
	q := &m.inputs[i]
	last := q.wm
	if k := len(q.pending); k > 0 {
		p := q.pending[k-1]
		last = max(last, p.wms[len(p.wms)-1])
	}
	wms := q.takeSpare(n)
	for r := range wms {
		w := last
		if b.Watermarks != nil {
			w = max(b.Watermarks[r], last)
		}
		wms[r], last = w, w
	}
	if len(q.pending) == 0 && m.free(i, last) {
		// every row may go, and before any other input's (free is
		// monotone in the watermark, the last row's is the highest): the
		// batch passes on at once, unretained; the slice is reused as the
		// next operator keeps no Watermarks it does not copy
		if err := m.pass1(i, pipeline.Batch{Record: b.Record, Watermarks: wms}); err != nil {
			return err
		}
		q.spare = append(q.spare, wms)
		return m.pass()
	}
	b.Record.Retain()
	q.pending = append(q.pending, pendingRows{rec: b.Record, wms: wms})
	return m.pass()
}

// takeSpare is a slice of n watermarks, a spare one when it is long
// enough: a slice made per batch was a third of the merge's own time in
// Nexmark q7.
func (q *unionQueue) takeSpare(n int) []int64 {
	if k := len(q.spare); k > 0 {
		w := q.spare[k-1]
		q.spare = q.spare[:k-1]
		if cap(w) >= n {
			return w[:n]
		}
	}
	return make([]int64, n)
}

func (m *unionMerge) watermark(i int, wm int64) error {
	if !m.timed {
		return nil
	}
	q := &m.inputs[i]
	if wm <= q.wm {
		return nil
	}
	q.wm = wm
	return m.pass()
}

func (m *unionMerge) endInput(i int) error {
	if m.inputs[i].ended {
		return nil
	}
	m.inputs[i].ended = true
	if !m.timed {
		return nil
	}
	return m.pass()
}

// pass passes on every row no input can still precede, then the union's
// watermark if it advanced.
func (m *unionMerge) pass() error {
	for {
		i := m.head()
		if i < 0 {
			break
		}
		q := &m.inputs[i]
		p := &q.pending[0]
		// the rows' watermarks never fall and free is monotone in the
		// watermark: the rows that may go are a prefix
		end := p.off + sort.Search(len(p.wms)-p.off, func(r int) bool { return !m.free(i, p.wms[p.off+r]) })
		if end == p.off {
			break
		}
		if err := m.emit(i, p, end); err != nil {
			return err
		}
		if p.off == len(p.wms) {
			p.rec.Release()
			q.spare = append(q.spare, p.wms)
			q.pending[0] = pendingRows{}
			q.pending = q.pending[1:]
		}
	}
	wm := rowtime.MaxWatermark
	for _, q := range m.inputs {
		if !q.ended {
			wm = min(wm, q.wm)
		}
	}
	if wm == rowtime.MaxWatermark || wm <= m.forwarded {
		return nil
	}
	m.forwarded = wm
	return m.next.ProcessWatermark(wm)
}

// head is the input whose first waiting row comes first (by watermark,
// then input), or -1 when no row waits.
func (m *unionMerge) head() int {
	best := -1
	var bw int64
	for i, q := range m.inputs {
		if len(q.pending) == 0 {
			continue
		}
		p := q.pending[0]
		if w := p.wms[p.off]; best < 0 || w < bw {
			best, bw = i, w
		}
	}
	return best
}

// free reports whether the row of input i that arrived under watermark w
// may go: no other input can still send a row ordered before it.
func (m *unionMerge) free(i int, w int64) bool {
	for j, q := range m.inputs {
		if j == i {
			continue
		}
		next := q.wm // the earliest watermark a row of j still to come can have
		if len(q.pending) > 0 {
			p := q.pending[0]
			next = p.wms[p.off]
		} else if q.ended {
			continue
		}
		if next < w || next == w && j < i {
			return false
		}
	}
	return true
}

// emit passes rows [p.off, end) of input i's p on with their watermarks.
func (m *unionMerge) emit(i int, p *pendingRows, end int) error {
	rec := p.rec
	if p.off > 0 || end < len(p.wms) {
		rec = rec.NewSlice(int64(p.off), int64(end))
		defer rec.Release()
	}
	wms := p.wms[p.off:end]
	p.off = end
	return m.pass1(i, pipeline.Batch{Record: rec, Watermarks: wms})
}

// pass1 passes a batch of input i on: to a join as that input's, to a
// union's projection as its rows.
func (m *unionMerge) pass1(i int, b pipeline.Batch) error {
	if two, ok := m.next.(pipeline.TwoInput); ok {
		return two.ProcessInput(i, b)
	}
	return m.next.ProcessBatch(b)
}

// release drops the waiting rows.
func (m *unionMerge) release() {
	for i := range m.inputs {
		for _, p := range m.inputs[i].pending {
			p.rec.Release()
		}
		m.inputs[i].pending = nil
	}
}

// saveState writes each input's watermark, end and waiting rows (as an
// Arrow IPC stream), and the watermark forwarded.
func (m *unionMerge) saveState(e *checkpoint.Encoder) error {
	e.Int(m.forwarded)
	e.Uint(uint64(len(m.inputs)))
	for _, q := range m.inputs {
		e.Int(q.wm)
		e.Bool(q.ended)
		var rows []int64
		var buf bytes.Buffer
		if len(q.pending) > 0 {
			w := ipc.NewWriter(&buf, ipc.WithSchema(q.pending[0].rec.Schema()), ipc.WithAllocator(m.mem))
			for _, p := range q.pending {
				rec := p.rec.NewSlice(int64(p.off), int64(len(p.wms)))
				err := w.Write(rec)
				rec.Release()
				if err != nil {
					return err
				}
				rows = append(rows, p.wms[p.off:]...)
			}
			if err := w.Close(); err != nil {
				return err
			}
		}
		e.Uint(uint64(len(rows)))
		for _, w := range rows {
			e.Int(w)
		}
		e.Bytes(buf.Bytes())
	}
	return nil
}

// restoreState reads what saveState wrote, before the first step.
func (m *unionMerge) restoreState(d *checkpoint.Decoder) error {
	m.forwarded = d.Int()
	if n := d.Len(1); d.Err() == nil && n != len(m.inputs) {
		d.Fail("the union has %d inputs, the checkpoint %d", len(m.inputs), n)
	}
	for i := range m.inputs {
		if d.Err() != nil {
			break
		}
		q := &m.inputs[i]
		q.wm, q.ended = d.Int(), d.Bool()
		wms := make([]int64, d.Len(1))
		for r := range wms {
			wms[r] = d.Int()
		}
		data := d.Bytes()
		if d.Err() != nil || len(wms) == 0 {
			continue
		}
		r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(m.mem))
		if err != nil {
			return fmt.Errorf("union input %d: %w", i, err)
		}
		off := 0
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			n := int(rec.NumRows())
			if off+n > len(wms) {
				rec.Release()
				r.Release()
				return fmt.Errorf("union input %d: more rows than watermarks", i)
			}
			q.pending = append(q.pending, pendingRows{rec: rec, wms: wms[off : off+n : off+n]}) // capped: reused once passed on
			off += n
		}
		err = r.Err()
		r.Release()
		if err != nil {
			return fmt.Errorf("union input %d: %w", i, err)
		}
	}
	return d.Err()
}
