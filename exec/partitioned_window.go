package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/keyhash"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// partitionedWindow runs a window aggregation on several goroutines: each
// partition has its own WindowOperator over the group keys that hash to
// it, as Flink's keyBy splits a keyed stream over parallel subtasks. Every
// row keeps the watermark it arrived under and every partition sees every
// watermark, so each key's results, lateness and firing are exactly those
// of a single-threaded run.
//
// The driver dispatches each step (a batch's rows split by partition, a
// watermark, the end) to all partitions without waiting, and forwards the
// steps' results downstream in step order, within a step partition by
// partition and, inside a partition, in the operator's own order (time,
// key, window). So the output order is deterministic — it does not depend
// on timing — but is not the single-threaded order across keys of
// different partitions. Everything after the window (HAVING, projection,
// sink) runs on the driver's goroutine, as with one partition.
type partitionedWindow struct {
	parts  []*windowPartition
	keys   []int
	mem    memory.Allocator
	next   pipeline.Operator
	lastWM int64

	dispatched, merged int                 // steps sent to the partitions, and forwarded
	stash              [][]partitionResult // per partition: results received, not forwarded

	hashes []uint64
	rows   [][]int32
	err    error
	closed bool
}

// maxStepsInFlight bounds how far the partitions may run behind the
// driver: the batches in flight, and the memory they hold.
const maxStepsInFlight = 16

type windowPartition struct {
	op  *windowop.WindowOperator
	col *stepCollector
	in  chan partitionStep
	out chan partitionResult
}

type partitionStep struct {
	batch arrow.RecordBatch // the partition's rows, or nil
	wms   []int64
	wm    int64 // a watermark to process, when > MinWatermark
	end   bool
}

// partitionResult is what one partition emitted during one step.
type partitionResult struct {
	batches []arrow.RecordBatch
	wm      int64 // the last watermark the operator forwarded
	end     bool
	err     error
}

// newPartitionedWindow starts n partitions of cfg's window operator;
// results go to next.
func newPartitionedWindow(cfg windowop.Config, n int, mem memory.Allocator, next pipeline.Operator) (*partitionedWindow, error) {
	p := &partitionedWindow{keys: cfg.KeyIndexes, mem: mem, next: next, lastWM: rowtime.MinWatermark,
		stash: make([][]partitionResult, n), rows: make([][]int32, n)}
	for range n {
		col := &stepCollector{res: partitionResult{wm: rowtime.MinWatermark}}
		c := cfg
		if cfg.Local != nil {
			c.Local = cfg.Local.Clone() // its caches are per goroutine
		}
		op, err := windowop.NewWindowOperator(c, mem, col)
		if err != nil {
			p.Close()
			return nil, err
		}
		wp := &windowPartition{op: op, col: col, in: make(chan partitionStep, maxStepsInFlight), out: make(chan partitionResult, maxStepsInFlight)}
		p.parts = append(p.parts, wp)
		go wp.run()
	}
	return p, nil
}

// run processes the partition's steps in order.
func (wp *windowPartition) run() {
	defer close(wp.out)
	failed := false
	for st := range wp.in {
		var err error
		if !failed {
			err = wp.step(st)
		}
		if st.batch != nil {
			st.batch.Release()
		}
		failed = failed || err != nil
		wp.out <- wp.col.take(err)
	}
}

// step processes one step; a panic of the operator becomes the step's
// error (the driver stops the run with it) instead of ending the process.
func (wp *windowPartition) step(st partitionStep) (err error) {
	defer pipeline.CatchPanic(&err)
	switch {
	case st.batch != nil:
		return wp.op.ProcessBatch(pipeline.Batch{Record: st.batch, Watermarks: st.wms})
	case st.end:
		return wp.op.ProcessEnd()
	default:
		return wp.op.ProcessWatermark(st.wm)
	}
}

func (p *partitionedWindow) ProcessBatch(b pipeline.Batch) error {
	if p.err != nil {
		return p.err
	}
	n := int(b.Record.NumRows())
	if n == 0 {
		return nil
	}
	if cap(p.hashes) < n {
		p.hashes = make([]uint64, n)
	}
	if err := keyhash.Rows(b.Record, p.keys, p.hashes[:n]); err != nil {
		return err
	}
	for i := range p.rows {
		p.rows[i] = p.rows[i][:0]
	}
	np := uint64(len(p.parts))
	for i, h := range p.hashes[:n] {
		k := h % np
		p.rows[k] = append(p.rows[k], int32(i))
	}
	steps := make([]partitionStep, len(p.parts))
	for k, idx := range p.rows {
		if len(idx) == 0 {
			continue // the partition still takes the step, empty
		}
		rec, err := expr.TakeRecord(b.Record, idx, p.mem)
		if err != nil {
			releaseSteps(steps)
			return err
		}
		st := partitionStep{batch: rec}
		if b.Watermarks != nil {
			st.wms = make([]int64, len(idx)) // the partition keeps it past this call
			for j, i := range idx {
				st.wms[j] = b.Watermarks[i]
			}
		}
		steps[k] = st
	}
	for k, st := range steps {
		if st.batch == nil {
			st.wm = rowtime.MinWatermark // nothing to do but keep the step count
		}
		steps[k] = st
	}
	return p.dispatch(steps)
}

func releaseSteps(steps []partitionStep) {
	for _, st := range steps {
		if st.batch != nil {
			st.batch.Release()
		}
	}
}

func (p *partitionedWindow) ProcessWatermark(wm int64) error {
	if p.err != nil {
		return p.err
	}
	steps := make([]partitionStep, len(p.parts))
	for k := range steps {
		steps[k] = partitionStep{wm: wm}
	}
	return p.dispatch(steps)
}

// ProcessEnd ends every partition and forwards all their results, then the
// end of input.
func (p *partitionedWindow) ProcessEnd() error {
	if p.err != nil {
		return p.err
	}
	steps := make([]partitionStep, len(p.parts))
	for k := range steps {
		steps[k] = partitionStep{end: true}
	}
	if err := p.dispatch(steps); err != nil {
		return err
	}
	for p.merged < p.dispatched {
		if _, err := p.mergeNext(true); err != nil {
			return err
		}
	}
	return p.next.ProcessEnd()
}

// dispatch sends one step to every partition, then forwards the results
// of the steps that are complete, waiting when too many are in flight.
func (p *partitionedWindow) dispatch(steps []partitionStep) error {
	for p.dispatched-p.merged >= maxStepsInFlight {
		if _, err := p.mergeNext(true); err != nil {
			releaseSteps(steps)
			return err
		}
	}
	for k, st := range steps {
		p.parts[k].in <- st
	}
	p.dispatched++
	for p.merged < p.dispatched {
		done, err := p.mergeNext(false)
		if err != nil || !done {
			return err
		}
	}
	return nil
}

// mergeNext forwards the results of the oldest step not merged yet, once
// every partition has finished it; without wait it reports false at once
// when one has not.
func (p *partitionedWindow) mergeNext(wait bool) (bool, error) {
	if done, err := p.collectNext(wait); !done || err != nil {
		return done, err
	}
	wm := rowtime.MinWatermark
	var firstErr error
	for _, res := range p.takeNext() {
		if res.err != nil && firstErr == nil {
			firstErr = res.err
		}
		for _, rec := range res.batches {
			if firstErr == nil {
				firstErr = p.next.ProcessBatch(pipeline.Batch{Record: rec})
			}
			rec.Release()
		}
		wm = max(wm, res.wm)
	}
	if firstErr != nil {
		p.err = firstErr
		return true, firstErr
	}
	if wm > p.lastWM {
		p.lastWM = wm
		return true, p.next.ProcessWatermark(wm)
	}
	return true, nil
}

// collectNext receives every partition's results of the oldest step not
// merged yet; without wait it reports false at once when one is not done.
func (p *partitionedWindow) collectNext(wait bool) (bool, error) {
	for k, wp := range p.parts {
		for len(p.stash[k]) == 0 {
			var res partitionResult
			var ok bool
			if wait {
				res, ok = <-wp.out
			} else {
				select {
				case res, ok = <-wp.out:
				default:
					return false, nil
				}
			}
			if !ok {
				return false, fmt.Errorf("window partition %d stopped", k)
			}
			p.stash[k] = append(p.stash[k], res)
		}
	}
	return true, nil
}

// takeNext removes the collected results of the oldest step, partition by
// partition, and counts the step as merged.
func (p *partitionedWindow) takeNext() []partitionResult {
	p.merged++
	out := make([]partitionResult, len(p.parts))
	for k := range p.parts {
		out[k] = p.stash[k][0]
		p.stash[k][0] = partitionResult{}
		p.stash[k] = p.stash[k][1:]
	}
	return out
}

// Close stops the partitions and releases what they still hold.
func (p *partitionedWindow) Close() {
	if p.closed {
		return
	}
	p.closed = true
	for _, wp := range p.parts {
		close(wp.in)
	}
	for k, wp := range p.parts {
		for res := range wp.out {
			p.stash[k] = append(p.stash[k], res)
		}
		for _, res := range p.stash[k] {
			for _, rec := range res.batches {
				rec.Release()
			}
		}
		p.stash[k] = nil
		wp.op.Close()
	}
}

// stats sums the partitions' counts, once the steps in flight are done.
// When the input failed, results of the steps sent before the failure are
// still forwarded, as a single-threaded run emits them before it stops.
func (p *partitionedWindow) stats() windowop.Stats {
	for p.merged < p.dispatched && !p.closed && p.err == nil {
		if _, err := p.mergeNext(true); err != nil {
			break
		}
	}
	for p.merged < p.dispatched && !p.closed {
		if done, _ := p.collectNext(true); !done {
			break
		}
		for _, res := range p.takeNext() {
			for _, rec := range res.batches {
				rec.Release()
			}
		}
	}
	var s windowop.Stats
	for _, wp := range p.parts {
		st := wp.op.Stats()
		s.RowsIn += st.RowsIn
		s.ResultRows += st.ResultRows
		s.LateRowsDropped += st.LateRowsDropped
		s.LateForWindow += st.LateForWindow
		s.NoWindowRows += st.NoWindowRows
		s.Lateness.Merge(&st.Lateness)
	}
	return s
}

// stepCollector is a partition operator's downstream: it keeps what the
// operator emits during one step for the driver to forward.
type stepCollector struct {
	res partitionResult
}

func (c *stepCollector) ProcessBatch(b pipeline.Batch) error {
	b.Record.Retain()
	c.res.batches = append(c.res.batches, b.Record)
	return nil
}

func (c *stepCollector) ProcessWatermark(wm int64) error {
	c.res.wm = max(c.res.wm, wm)
	return nil
}

func (c *stepCollector) ProcessEnd() error {
	c.res.end = true
	return nil
}

func (c *stepCollector) Close() {}

// take hands out the step's results and starts the next step.
func (c *stepCollector) take(err error) partitionResult {
	res := c.res
	res.err = err
	c.res = partitionResult{wm: rowtime.MinWatermark}
	return res
}

var _ pipeline.Operator = (*partitionedWindow)(nil)
