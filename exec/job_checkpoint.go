package exec

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/exec/progress"
)

// Checkpointing is how one run of a job takes checkpoints: periodically,
// when the run is stopped (its context cancelled) and when the input ends.
// Each is a consistent snapshot taken between two reader steps, when every
// batch read so far has gone all the way through the pipeline: per split
// the byte position after the last row delivered, the watermarks, each
// window operator's state and the sink's progress.
type Checkpointing struct {
	Path     string        // the checkpoint file, replaced by each checkpoint
	Interval time.Duration // between periodic checkpoints; 0 takes none
	// Query identifies the query the state belongs to; a checkpoint of
	// another query is refused.
	Query string
	// Restore is the checkpoint to continue from; nil starts afresh.
	Restore *checkpoint.Snapshot
	// OnCheckpoint, if set, is told each checkpoint once it is durable.
	OnCheckpoint func(id uint64, finished bool)
}

// CrashPoint, when set, is called at each step of taking a checkpoint
// with the step's name ("drained", "pre-committed", "saved",
// "committed") and the checkpoint's number. It is nil except in crash
// tests, which end the process there to check that a restart recovers
// from a crash at every step.
var CrashPoint func(step string, id uint64)

func (c *checkpointer) crashPoint(step string) {
	if CrashPoint != nil {
		CrashPoint(step, c.id)
	}
}

// PausePoint, when set, is called after each periodic checkpoint (one
// taken mid-run, never the final one) with the run's context and the
// checkpoint's number. It is nil except in tests that must act while a
// run is surely in progress: a hook that waits for ctx to end holds the
// run there until it is cancelled, as SIGTERM does, so the signal cannot
// arrive after the input is read.
var PausePoint func(ctx context.Context, id uint64)

// ErrCheckpointUnsupported marks a query that cannot be checkpointed yet.
var ErrCheckpointUnsupported = errors.New("checkpoints are not supported")

// CommittingWriter is a writer.ResultWriter whose output becomes visible only at
// checkpoints (the filesystem connector's part files): PreCommit before the
// checkpoint is taken, State into it, Commit once it is durable.
type CommittingWriter interface {
	writer.ResultWriter
	PreCommit() error
	State(e *checkpoint.Encoder)
	Commit() error
}

// CheckpointListener is a BatchReader told when the checkpoint its last
// SaveState went into is durable, as Flink's notifyCheckpointComplete:
// the kafka source then commits that checkpoint's offsets to its consumer
// group, for monitoring.
type CheckpointListener interface {
	CheckpointComplete()
}

// ownedWriter is a CommittingWriter that claims its directory (the
// filesystem connector's part files): its claim goes into each checkpoint.
type ownedWriter interface {
	OwnerState(e *checkpoint.Encoder) bool
}

// checkpointable reports why the job cannot be checkpointed, or nil: its
// source must be one that can be read again from a position.
func (j *Job) checkpointable() error {
	for j.Input != nil {
		j = j.Input
	}
	for _, b := range j.Union {
		if err := b.checkpointable(); err != nil {
			return err
		}
	}
	if j.Union != nil {
		return nil
	}
	return j.Source.Checkpointable()
}

// checkpointer takes the checkpoints of one run.
type checkpointer struct {
	cfg    *Checkpointing
	p      *chain
	sink   *WriterSink
	commit CommittingWriter // nil: the writer's output is at-least-once
	id     uint64           // of the next checkpoint
	last   time.Time
	done   progress.Checkpoint // the last durable checkpoint, for Progress
}

func newCheckpointer(cfg *Checkpointing, p *chain, sink *WriterSink, w writer.ResultWriter) *checkpointer {
	c := &checkpointer{cfg: cfg, p: p, sink: sink, id: 1, last: time.Now()}
	c.commit, _ = w.(CommittingWriter)
	if cfg.Restore != nil {
		c.id = cfg.Restore.ID + 1
	}
	return c
}

// afterStep takes a periodic checkpoint when one is due.
func (c *checkpointer) afterStep(ctx context.Context) error {
	if c.cfg.Interval <= 0 || time.Since(c.last) < c.cfg.Interval {
		return nil
	}
	if err := c.take(false); err != nil {
		return err
	}
	if PausePoint != nil {
		PausePoint(ctx, c.id-1)
	}
	return nil
}

// take writes a checkpoint: the sink's in-progress output is made ready to
// commit, every part's state is written, the file is saved durably, and
// only then does the sink commit.
func (c *checkpointer) take(finished bool) error {
	began := time.Now()
	// Results still in flight go to the sink first: they must be in the
	// output this checkpoint commits, since the state saved below has
	// emitted them.
	for _, w := range c.p.windows {
		if d, ok := w.(interface{ drain() error }); ok {
			if err := d.drain(); err != nil {
				return err
			}
		}
	}
	c.crashPoint("drained")
	if c.commit != nil {
		if err := c.commit.PreCommit(); err != nil {
			return err
		}
	}
	c.crashPoint("pre-committed")
	snap := &checkpoint.Snapshot{ID: c.id, Query: c.cfg.Query, Finished: finished, Parts: map[string][]byte{}}
	part := func(name string, save func(e *checkpoint.Encoder) error) error {
		var e checkpoint.Encoder
		if err := save(&e); err != nil {
			return fmt.Errorf("checkpoint %d: %s: %w", c.id, name, err)
		}
		snap.Parts[name] = e.Data()
		return nil
	}
	if err := part("source", c.p.reader.(StateReader).SaveState); err != nil {
		return err
	}
	if err := part("pipeline", func(e *checkpoint.Encoder) error { c.p.savePipeline(e); return nil }); err != nil {
		return err
	}
	for i, w := range c.p.windows {
		if err := part(fmt.Sprintf("window/%d", i), w.(stateStage).saveState); err != nil {
			return err
		}
	}
	if err := part("sink", c.saveSink); err != nil {
		return err
	}
	if c.commit != nil {
		var e checkpoint.Encoder
		c.commit.State(&e)
		snap.Parts["sink-files"] = e.Data()
	}
	if o, ok := c.commit.(ownedWriter); ok {
		var e checkpoint.Encoder
		if o.OwnerState(&e) {
			snap.Parts["sink-owner"] = e.Data()
		}
	}
	size, err := checkpoint.Write(c.cfg.Path, snap)
	if err != nil {
		return err
	}
	durable := time.Now()
	c.crashPoint("saved")
	if c.commit != nil {
		if err := c.commit.Commit(); err != nil {
			return err
		}
	}
	c.crashPoint("committed")
	if l, ok := c.p.reader.(CheckpointListener); ok {
		l.CheckpointComplete()
	}
	if c.cfg.OnCheckpoint != nil {
		c.cfg.OnCheckpoint(c.id, finished)
	}
	c.last = time.Now()
	c.done = progress.Checkpoint{ID: c.id, Done: durable, Duration: durable.Sub(began), Bytes: int64(size)}
	c.id++
	return nil
}

// savePipeline writes the watermark assigner's and the computed columns'
// state.
func (p *chain) savePipeline(e *checkpoint.Encoder) {
	if a := p.assigner; a != nil {
		e.Bool(true)
		a.saveState(e)
	} else {
		e.Bool(false)
	}
	if cc := p.computed; cc != nil {
		e.Bool(true)
		e.Int(cc.skipped)
		e.Int(cc.passed)
	} else {
		e.Bool(false)
	}
}

func (c *checkpointer) saveSink(e *checkpoint.Encoder) error {
	e.Int(c.sink.rows)
	e.Bool(c.commit != nil)
	return nil
}

// restore reads a checkpoint's state into a freshly built pipeline (the
// source was opened at its positions already). The sink's own state went
// to the writer when it was created (SinkState).
func (c *checkpointer) restore(s *checkpoint.Snapshot) error {
	if s.Query != c.cfg.Query {
		return fmt.Errorf("%w: %s was written by another query (or the tables it reads changed); remove it to start afresh", checkpoint.ErrIncompatible, c.cfg.Path)
	}
	read := func(name string, load func(d *checkpoint.Decoder) error) error {
		b, ok := s.Parts[name]
		if !ok {
			return fmt.Errorf("%w: %s has no %s state", checkpoint.ErrIncompatible, c.cfg.Path, name)
		}
		d := checkpoint.NewDecoder(b)
		err := load(d)
		if err == nil {
			err = d.Finish()
		}
		if err != nil {
			return fmt.Errorf("checkpoint %s: %s: %w", c.cfg.Path, name, err)
		}
		return nil
	}
	if err := read("pipeline", c.p.restorePipeline); err != nil {
		return err
	}
	for i, w := range c.p.windows {
		if err := read(fmt.Sprintf("window/%d", i), w.(stateStage).restoreState); err != nil {
			return err
		}
	}
	return read("sink", func(d *checkpoint.Decoder) error {
		c.sink.rows = d.Int()
		if committing := d.Bool(); committing != (c.commit != nil) && d.Err() == nil {
			d.Fail("the sink's kind changed")
		}
		return d.Err()
	})
}

func (p *chain) restorePipeline(d *checkpoint.Decoder) error {
	if has := d.Bool(); has != (p.assigner != nil) {
		d.Fail("the watermark assigner changed")
	} else if has {
		p.assigner.restoreState(d)
	}
	if has := d.Bool(); has != (p.computed != nil) {
		d.Fail("the computed columns changed")
	} else if has {
		p.computed.skipped = d.Int()
		p.computed.passed = d.Int()
	}
	return d.Err()
}

// SinkState returns a decoder of the committing writer's state in a
// checkpoint (what CommittingWriter.State wrote), or nil when the
// checkpoint has none: the writer is created from it before the run.
func SinkState(s *checkpoint.Snapshot) *checkpoint.Decoder {
	b, ok := s.Parts["sink-files"]
	if !ok {
		return nil
	}
	return checkpoint.NewDecoder(b)
}

// stateStage is a window stage whose state a checkpoint records.
type stateStage interface {
	saveState(e *checkpoint.Encoder) error
	restoreState(d *checkpoint.Decoder) error
}

func (s timeWindowStage) saveState(e *checkpoint.Encoder) error {
	if err := s.WindowOperator.SnapshotState(e); err != nil {
		return err
	}
	e.Bool(s.late != nil)
	if s.late != nil {
		return s.late.saveState(e)
	}
	return nil
}

func (s timeWindowStage) restoreState(d *checkpoint.Decoder) error {
	if err := s.WindowOperator.RestoreState(d); err != nil {
		return err
	}
	if has := d.Bool(); has != (s.late != nil) {
		d.Fail("'wsql.late-data.path' was set or unset")
	} else if has {
		return s.late.restoreState(d)
	}
	return d.Err()
}

func (s countWindowStage) saveState(e *checkpoint.Encoder) error {
	return s.CountWindowOperator.SnapshotState(e)
}

func (s countWindowStage) restoreState(d *checkpoint.Decoder) error {
	return s.CountWindowOperator.RestoreState(d)
}

func (s rankStage) saveState(e *checkpoint.Encoder) error {
	inner, ok := s.windowStage.(stateStage)
	if !ok {
		return fmt.Errorf("%w: this query's stages keep no checkpoint", ErrCheckpointUnsupported)
	}
	if err := inner.saveState(e); err != nil {
		return err
	}
	return s.rank.SnapshotState(e)
}

func (s rankStage) restoreState(d *checkpoint.Decoder) error {
	inner, ok := s.windowStage.(stateStage)
	if !ok {
		return fmt.Errorf("%w: this query's stages keep no checkpoint", ErrCheckpointUnsupported)
	}
	if err := inner.restoreState(d); err != nil {
		return err
	}
	return s.rank.RestoreState(d)
}

func (s groupStage) saveState(e *checkpoint.Encoder) error {
	return s.GroupOperator.SnapshotState(e)
}

func (s groupStage) restoreState(d *checkpoint.Decoder) error {
	return s.GroupOperator.RestoreState(d)
}

func (p *plainStage) saveState(e *checkpoint.Encoder) error {
	e.Int(p.rows)
	return nil
}

func (p *plainStage) restoreState(d *checkpoint.Decoder) error {
	p.rows = d.Int()
	return d.Err()
}

// drain forwards the results of every step in flight, so that no
// partition holds work: the checkpointer calls it before the sink
// pre-commits.
func (p *partitionedWindow) drain() error {
	for p.merged < p.dispatched {
		if _, err := p.mergeNext(true); err != nil {
			return err
		}
	}
	return nil
}

// saveState writes each partition's operator state, once drained. The
// partitions are idle then: each finished its last step before sending
// its results, which the driver has received.
func (p *partitionedWindow) saveState(e *checkpoint.Encoder) error {
	if p.merged < p.dispatched {
		return fmt.Errorf("window partitions: %d steps in flight", p.dispatched-p.merged)
	}
	e.Int(p.lastWM)
	e.Uint(uint64(len(p.parts)))
	for _, wp := range p.parts {
		var pe checkpoint.Encoder
		if err := wp.op.SnapshotState(&pe); err != nil {
			return err
		}
		e.Bytes(pe.Data())
	}
	return nil
}

// restoreState restores every partition before the first step. Rows go
// to partitions by their keys' hash modulo the partition count, so the
// count must be the checkpoint's.
func (p *partitionedWindow) restoreState(d *checkpoint.Decoder) error {
	p.lastWM = d.Int()
	n := d.Len(1)
	if d.Err() != nil {
		return d.Err()
	}
	if n != len(p.parts) {
		return fmt.Errorf("%w: the checkpoint was taken with 'parallelism.default' %d, this run has %d; run with %d to resume",
			checkpoint.ErrIncompatible, n, len(p.parts), n)
	}
	for _, wp := range p.parts {
		pd := checkpoint.NewDecoder(d.Bytes())
		if err := wp.op.RestoreState(pd); err != nil {
			return err
		}
		if err := pd.Finish(); err != nil {
			return err
		}
	}
	return d.Err()
}

var (
	_ stateStage = (*partitionedWindow)(nil)
	_ stateStage = timeWindowStage{}
	_ stateStage = countWindowStage{}
	_ stateStage = groupStage{}
	_ stateStage = rankStage{}
	_ stateStage = (*plainStage)(nil)
)
