package exec

import (
	"cmp"
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/temporalsort"
	"github.com/wsql/wsql/windowop"
)

// SortKey is one key of ORDER BY over a job's result columns.
type SortKey = temporalsort.Key

// OrderSpec ends a job's result rows: ORDER BY a time attribute (Keys,
// Flink's temporal sort) and LIMIT.
type OrderSpec struct {
	Keys  []SortKey // nil: no ORDER BY
	Limit int64     // -1: no LIMIT
}

// errLimitReached is how the limit stage ends a run once its rows are out:
// the end of input has been sent downstream, nothing more is read.
var errLimitReached = errors.New("LIMIT reached")

// limitStage passes on the first Limit rows, then ends the output.
type limitStage struct {
	next  pipeline.Operator
	left  int64
	ended bool
}

func (l *limitStage) ProcessBatch(b pipeline.Batch) error {
	if l.left <= 0 {
		return l.end()
	}
	n := b.Record.NumRows()
	if n > l.left {
		cut := b.Record.NewSlice(0, l.left)
		defer cut.Release()
		b.Record = cut
		if b.Watermarks != nil {
			b.Watermarks = b.Watermarks[:l.left]
		}
		n = l.left
	}
	l.left -= n
	if err := l.next.ProcessBatch(b); err != nil {
		return err
	}
	if l.left == 0 {
		return l.end()
	}
	return nil
}

// end sends the end of input once and stops the run.
func (l *limitStage) end() error {
	if !l.ended {
		l.ended = true
		if err := l.next.ProcessEnd(); err != nil {
			return err
		}
	}
	return errLimitReached
}

func (l *limitStage) ProcessWatermark(wm int64) error {
	if l.ended {
		return nil
	}
	return l.next.ProcessWatermark(wm)
}

func (l *limitStage) ProcessEnd() error {
	if l.ended {
		return nil
	}
	l.ended = true
	return l.next.ProcessEnd()
}

func (l *limitStage) Close() {}

// orderedStage is a job's window stage (or plain pass-through) with the
// sort and the limit its projection feeds: they are one stage for the
// summary and for checkpoints.
type orderedStage struct {
	windowStage
	sort  *temporalsort.Operator // nil without ORDER BY
	limit *limitStage            // nil without LIMIT
}

// orderedWindowStage builds the sort and limit after the projection, then
// the window stage in front of them.
func (j *Job) orderedWindowStage(mem memory.Allocator, sink pipeline.Operator, restoring bool) (windowStage, error) {
	o := j.Order
	if o == nil {
		return j.windowStage(mem, sink, restoring)
	}
	st := &orderedStage{}
	if o.Limit >= 0 {
		st.limit = &limitStage{next: sink, left: o.Limit}
		sink = st.limit
	}
	if len(o.Keys) > 0 {
		sort, err := temporalsort.New(temporalsort.Config{Input: j.Schema(), Keys: o.Keys}, mem, sink)
		if err != nil {
			return nil, err
		}
		st.sort, sink = sort, sort
	}
	w, err := j.windowStage(mem, sink, restoring)
	if err != nil {
		st.Close()
		return nil, err
	}
	st.windowStage = w
	return st, nil
}

func (s *orderedStage) Close() {
	if s.windowStage != nil {
		s.windowStage.Close()
	}
	if s.sort != nil {
		s.sort.Close()
	}
}

// stats counts the rows the sort dropped as late with the late rows.
func (s *orderedStage) stats() windowop.Stats {
	st := s.windowStage.stats()
	if s.sort != nil {
		st.LateRowsDropped += s.sort.Late()
	}
	return st
}

func (s *orderedStage) drain() error {
	if d, ok := s.windowStage.(interface{ drain() error }); ok {
		return d.drain()
	}
	return nil
}

func (s *orderedStage) saveState(e *checkpoint.Encoder) error {
	if err := s.windowStage.(stateStage).saveState(e); err != nil {
		return err
	}
	if s.sort != nil {
		if err := s.sort.SnapshotState(e); err != nil {
			return err
		}
	}
	if s.limit != nil {
		e.Int(s.limit.left)
	}
	return nil
}

func (s *orderedStage) restoreState(d *checkpoint.Decoder) error {
	if err := s.windowStage.(stateStage).restoreState(d); err != nil {
		return err
	}
	if s.sort != nil {
		if err := s.sort.RestoreState(d); err != nil {
			return err
		}
	}
	if s.limit != nil {
		s.limit.left = d.Int()
	}
	return d.Err()
}

var _ stateStage = (*orderedStage)(nil)

// limitFeed stands before a chain whose every stage emits at most one row
// per row it reads (plain queries, no sort): it hands each batch on in
// slices no longer than the rows LIMIT still wants, so the run stops
// exactly at the row that completes the limit and the summary counts the
// rows read up to it, whatever the batch size.
type limitFeed struct {
	next   pipeline.Operator
	limits []*limitStage
	unread int64 // rows of the last batch never handed on
}

func (f *limitFeed) want() int64 {
	w := f.limits[0].left
	for _, l := range f.limits[1:] {
		w = min(w, l.left)
	}
	return w
}

func (f *limitFeed) ProcessBatch(b pipeline.Batch) error {
	n := b.Record.NumRows()
	for off := int64(0); off < n; {
		take := min(n-off, f.want())
		if take <= 0 {
			f.unread = n - off
			return f.limits[0].end()
		}
		part := pipeline.Batch{Record: b.Record}
		if take < n {
			part.Record = b.Record.NewSlice(off, off+take)
			if b.Watermarks != nil {
				part.Watermarks = b.Watermarks[off : off+take]
			}
		} else {
			part.Watermarks = b.Watermarks
		}
		err := f.next.ProcessBatch(part)
		if take < n {
			part.Record.Release()
		}
		off += take
		if err != nil {
			f.unread = n - off
			return err
		}
	}
	return nil
}

func (f *limitFeed) ProcessWatermark(wm int64) error { return f.next.ProcessWatermark(wm) }
func (f *limitFeed) ProcessEnd() error               { return f.next.ProcessEnd() }
func (f *limitFeed) Close()                          {}

// feedLimits puts a limitFeed before the chain when every job of j is a
// plain query with a LIMIT somewhere and no ORDER BY.
func (p *chain) feedLimits(j *Job) {
	var limits []*limitStage
	for i, jj := 0, j; jj != nil; i, jj = i+1, jj.Input {
		if jj.Window != nil || jj.Count != nil || jj.Group != nil || jj.Rank != nil {
			return
		}
		if o, ok := p.windows[i].(*orderedStage); ok {
			if o.sort != nil {
				return
			}
			if o.limit != nil {
				limits = append(limits, o.limit)
			}
		}
	}
	if len(limits) > 0 {
		p.feed = &limitFeed{next: p.first, limits: limits}
		p.first = p.feed
	}
}

// drive runs the chain (drive); a LIMIT that has its rows ends the run
// as the end of the input does. LIMIT 0 reads nothing.
func (p *chain) drive(ctx context.Context, afterBatch func(), afterStep func() error) error {
	var err error
	if l := p.limitDone(); l != nil {
		err = l.end()
	} else {
		var flushErr error // input_wait.go: the error ends the run after the step
		p.flushBeforeWait(&flushErr)
		err = drive(ctx, p.reader, p.first, p.assigner, afterBatch, func() error {
			if flushErr != nil || afterStep == nil {
				return flushErr
			}
			return afterStep()
		})
		err = cmp.Or(err, flushErr)
	}
	if errors.Is(err, errLimitReached) {
		return nil
	}
	return err
}

// limitDone is a LIMIT of the chain that wants no more rows, or nil.
func (p *chain) limitDone() *limitStage {
	for _, w := range p.windows {
		if o, ok := w.(*orderedStage); ok && o.limit != nil && o.limit.left <= 0 {
			return o.limit
		}
	}
	return nil
}

// unreadRows are the rows the source read that a LIMIT never let in.
func (p *chain) unreadRows() int64 {
	if p.feed == nil || p.computed != nil { // the computed columns count only what they saw
		return 0
	}
	return p.feed.unread
}
