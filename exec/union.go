package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

// A UNION ALL job (Job.Union) runs one pipeline per query of the union,
// each from its own source through its own watermark assigner, filter,
// window and projection, into one unionMerge (union_merge.go) that feeds
// the union's projection and whatever reads the union:
//
//	source 1 ─▶ assigner ─▶ ... ─▶ project ─┐
//	                                        ├─▶ union ─▶ project ─▶ [outer window] ─▶ sink
//	source 2 ─▶ assigner ─▶ ... ─▶ project ─┘
//
// One goroutine drives them all, a step of one input's reader at a time
// (unionReader): the input whose watermark is lowest, so the rows the
// union holds back stay few; without watermarks, the first input that has
// not ended. An input with nothing new for now (a followed file) lets the
// next one take a step. Which input is read when never changes the
// union's output: the merge orders rows by their watermarks.
// A windowed sub-plan queries share runs once (shared_subplan.go).

// buildUnion builds the pipelines of the union's queries into next. at,
// when set, is the union's state in a checkpoint (unionReader.SaveState).
func (j *Job) buildUnion(mem memory.Allocator, next pipeline.Operator, at *checkpoint.Decoder) (*chain, error) {
	timed := true
	for _, b := range j.Union {
		timed = timed && b.forwardsWatermarks()
	}
	var join *joinStage
	if j.Join != nil {
		var err error
		if join, err = j.joinStage(mem, next); err != nil {
			return nil, err
		}
		next = join
	}
	m := newUnionMerge(len(j.Union), timed, mem, next)
	u := &unionReader{merge: m, ended: make([]bool, len(j.Union))}
	p := &chain{reader: u, first: m}
	if join != nil {
		p.windows = append(p.windows, join)
	}
	fail := func(err error) (*chain, error) {
		u.Close()
		for _, c := range u.branches {
			for _, w := range c.windows {
				w.Close()
			}
		}
		return nil, err
	}
	var reuse *subplanReuse
	if timed {
		// an untimed union passes rows on as its queries are read, one
		// after the other: sharing would interleave them
		var err error
		if reuse, err = sharedSubplans(j.Union); err != nil {
			return fail(err)
		}
	}
	if at != nil {
		if n := at.Len(1); at.Err() == nil && n != len(j.Union) {
			return fail(fmt.Errorf("%w: the checkpoint's union has %d queries, this one %d", checkpoint.ErrIncompatible, n, len(j.Union)))
		}
	}
	for i, b := range j.Union {
		var readAt, pipeAt *checkpoint.Decoder
		var read []byte
		if at != nil {
			read = at.Bytes()
			readAt, pipeAt = checkpoint.NewDecoder(read), checkpoint.NewDecoder(at.Bytes())
			u.ended[i] = at.Bool()
			if err := at.Err(); err != nil {
				return fail(err)
			}
		}
		c, err := b.buildWith(mem, m.input(i), readAt, nil, reuse)
		if err != nil {
			return fail(err)
		}
		u.branches = append(u.branches, c)
		if len(read) > 0 && c.reader == nil {
			return fail(fmt.Errorf("%w: the checkpoint's query %d reads its own input, this one shares another query's", checkpoint.ErrIncompatible, i+1))
		}
		p.windows = append(p.windows, c.windows...)
		if pipeAt != nil {
			if err := c.restorePipeline(pipeAt); err != nil {
				return fail(err)
			}
		}
	}
	if at != nil {
		if err := m.restoreState(at); err != nil {
			return fail(err)
		}
	}
	for _, c := range u.branches {
		if _, ok := c.reader.(Follower); ok {
			p.reader = followingUnionReader{u}
		}
	}
	return p, nil
}

// Walk calls f with j and every job j reads rows from: its Input, the
// queries of its union, and theirs.
func (j *Job) Walk(f func(*Job)) {
	f(j)
	if j.Input != nil {
		j.Input.Walk(f)
	}
	for _, b := range j.Union {
		b.Walk(f)
	}
}

// forwardsWatermarks reports whether the job's result rows come with
// watermarks: its innermost sources generate them.
func (j *Job) forwardsWatermarks() bool {
	switch {
	case j.Union != nil:
		for _, b := range j.Union {
			if !b.forwardsWatermarks() {
				return false
			}
		}
		return true
	case j.Input != nil:
		return j.Input.forwardsWatermarks()
	}
	return j.RowtimeIndex >= 0
}

// unionReader is the reader drive reads a union through: each Next takes
// one step of one query's pipeline, then reports nothing new; io.EOF once
// every query's input has ended.
type unionReader struct {
	branches []*chain
	merge    *unionMerge
	ended    []bool
	last     int
	waited   bool // the last step found nothing new
	ctx      context.Context
	// afterBatch, if set, runs after each batch a query's pipeline took
	// (the run's progress).
	afterBatch func()
}

// CheckpointComplete tells each query's reader that listens.
func (u *unionReader) CheckpointComplete() {
	for _, c := range u.branches {
		if l, ok := c.reader.(CheckpointListener); ok {
			l.CheckpointComplete()
		}
	}
}

func (u *unionReader) Next() (SplitBatch, error) {
	i := u.pick()
	if i < 0 {
		return SplitBatch{}, io.EOF
	}
	c := u.branches[i]
	_, follows := c.reader.(Follower)
	if u.ctx != nil && !follows {
		if err := u.ctx.Err(); err != nil {
			return SplitBatch{}, err
		}
	}
	b, err := c.reader.Next()
	u.last = i
	u.waited = err == nil && b.Record == nil && !b.End && !b.HasWatermark && !b.Idle
	switch err := takeStep(b, err, c.reader, c.first, c.assigner, u.afterBatch); err {
	case nil:
	case errEnded:
		u.ended[i] = true
	default:
		return SplitBatch{}, err
	}
	return SplitBatch{}, nil
}

// pick is the input to take a step of: after one that found nothing new,
// the next in turn; otherwise the one whose watermark is lowest (the
// first when there are none), or -1 when all have ended.
func (u *unionReader) pick() int {
	n := len(u.branches)
	if u.waited {
		for k := 1; k <= n; k++ {
			if i := (u.last + k) % n; u.steppable(i) {
				return i
			}
		}
		return -1
	}
	best := -1
	for i := range u.branches {
		if !u.steppable(i) {
			continue
		}
		if best < 0 || u.merge.timed && u.merge.inputs[i].wm < u.merge.inputs[best].wm {
			best = i
		}
	}
	return best
}

// steppable reports whether query i has a reader of its own that has
// not ended: a query fed through another's tee (shared_subplan.go) has
// none, its input ends with the other's.
func (u *unionReader) steppable(i int) bool {
	return !u.ended[i] && u.branches[i].reader != nil
}

func (u *unionReader) NumSplits() int { return 1 }

// Stats sums what the queries' sources read, as the run counts a single
// source's: rows passed by the computed columns and the event-time check.
// A source two queries share is read, and counted, once.
func (u *unionReader) Stats() SourceStats {
	var s SourceStats
	for _, c := range u.branches {
		if c.reader == nil {
			continue
		}
		r := c.sourceStats()
		s.Rows += r.Rows
		s.Skipped += r.Skipped
		s.Rotated += r.Rotated
		s.Truncated += r.Truncated
	}
	return s
}

// Close closes each query's reader and watermark assigner; their windows
// are the chain's, which closes them.
func (u *unionReader) Close() error {
	for _, c := range u.branches {
		if c.assigner != nil {
			c.assigner.Close()
		}
		if c.reader != nil {
			c.reader.Close()
		}
	}
	u.merge.Close()
	return nil
}

// SaveState writes, per query, its reader's position and its pipeline's
// state and whether it ended, then the merge's state. The queries' window
// states are the chain's windows, which the checkpointer saves. A query
// fed through another's tee has no position of its own: its reader's
// state is empty.
func (u *unionReader) SaveState(e *checkpoint.Encoder) error {
	e.Uint(uint64(len(u.branches)))
	for i, c := range u.branches {
		var re, pe checkpoint.Encoder
		if c.reader != nil {
			sr, ok := c.reader.(StateReader)
			if !ok {
				return fmt.Errorf("%w: a query of the union reads a source that cannot report its position", ErrCheckpointUnsupported)
			}
			if err := sr.SaveState(&re); err != nil {
				return err
			}
		}
		c.savePipeline(&pe)
		e.Bytes(re.Data())
		e.Bytes(pe.Data())
		e.Bool(u.ended[i])
	}
	return u.merge.saveState(e)
}

// unionOf returns the union r reads, or nil.
func unionOf(r BatchReader) *unionReader {
	switch u := r.(type) {
	case *unionReader:
		return u
	case followingUnionReader:
		return u.unionReader
	}
	return nil
}

// followingUnionReader is a union with a query that follows its input.
type followingUnionReader struct{ *unionReader }

func (u followingUnionReader) Follow(ctx context.Context) {
	u.ctx = ctx
	for _, c := range u.branches {
		if f, ok := c.reader.(Follower); ok {
			f.Follow(ctx)
		}
	}
}
