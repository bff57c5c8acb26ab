package exec

import (
	"errors"
	"fmt"
	"time"

	"github.com/wsql/wsql/checkpoint"
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

// ErrCheckpointUnsupported marks a query that cannot be checkpointed yet.
var ErrCheckpointUnsupported = errors.New("checkpoints are not supported")

// CommittingWriter is a ResultWriter whose output becomes visible only at
// checkpoints (PartFileWriter): PreCommit before the checkpoint is taken,
// State into it, Commit once it is durable.
type CommittingWriter interface {
	ResultWriter
	PreCommit() error
	State(e *checkpoint.Encoder)
	Commit() error
}

// checkpointable reports why the job cannot be checkpointed, or nil.
func (j *Job) checkpointable() error {
	for jj := j; jj != nil; jj = jj.Input {
		switch {
		case jj.Count != nil:
			return fmt.Errorf("%w for COUNT windows yet", ErrCheckpointUnsupported)
		case jj.LateDataPath != "":
			return fmt.Errorf("%w together with 'wsql.late-data.path' yet", ErrCheckpointUnsupported)
		case jj.Window != nil && jj.Window.Clock != nil && jj.Window.Emit.EarlyFireDelay+jj.Window.Emit.LateFireDelay > 0:
			return fmt.Errorf("%w for periodic early or late firing yet (a delay of 0 s is supported)", ErrCheckpointUnsupported)
		}
		if jj.Input != nil {
			continue
		}
		s := jj.Source
		switch {
		case s.Stream != nil || s.Input != nil:
			name := s.StreamName
			if s.Input != nil {
				name = s.Input.Name
			}
			return fmt.Errorf("%w: the query reads %s, a stream that cannot be read again after a restart; checkpoints need files", ErrCheckpointUnsupported, name)
		case s.Connector != nil:
			return fmt.Errorf("%w for the source %s: it cannot resume from a position yet; checkpoints need files", ErrCheckpointUnsupported, s.Connector.Explain())
		case s.MonitorInterval > 0:
			return fmt.Errorf("%w for files followed with 'source.monitor-interval' yet", ErrCheckpointUnsupported)
		}
	}
	return nil
}

// checkpointer takes the checkpoints of one run.
type checkpointer struct {
	cfg    *Checkpointing
	p      *pipeline
	sink   *WriterSink
	commit CommittingWriter // nil: the writer's output is at-least-once
	id     uint64           // of the next checkpoint
	last   time.Time
}

func newCheckpointer(cfg *Checkpointing, p *pipeline, sink *WriterSink, w ResultWriter) *checkpointer {
	c := &checkpointer{cfg: cfg, p: p, sink: sink, id: 1, last: time.Now()}
	c.commit, _ = w.(CommittingWriter)
	if cfg.Restore != nil {
		c.id = cfg.Restore.ID + 1
	}
	return c
}

// afterStep takes a periodic checkpoint when one is due.
func (c *checkpointer) afterStep() error {
	if c.cfg.Interval <= 0 || time.Since(c.last) < c.cfg.Interval {
		return nil
	}
	return c.take(false)
}

// take writes a checkpoint: the sink's in-progress output is made ready to
// commit, every part's state is written, the file is saved durably, and
// only then does the sink commit.
func (c *checkpointer) take(finished bool) error {
	if c.commit != nil {
		if err := c.commit.PreCommit(); err != nil {
			return err
		}
	}
	snap := &checkpoint.Snapshot{ID: c.id, Query: c.cfg.Query, Finished: finished, Parts: map[string][]byte{}}
	part := func(name string, save func(e *checkpoint.Encoder) error) error {
		var e checkpoint.Encoder
		if err := save(&e); err != nil {
			return fmt.Errorf("checkpoint %d: %s: %w", c.id, name, err)
		}
		snap.Parts[name] = e.Data()
		return nil
	}
	if err := part("source", c.p.reader.(stateReader).saveState); err != nil {
		return err
	}
	if err := part("pipeline", c.savePipeline); err != nil {
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
	if err := checkpoint.Save(c.cfg.Path, snap); err != nil {
		return err
	}
	if c.commit != nil {
		if err := c.commit.Commit(); err != nil {
			return err
		}
	}
	if c.cfg.OnCheckpoint != nil {
		c.cfg.OnCheckpoint(c.id, finished)
	}
	c.id++
	c.last = time.Now()
	return nil
}

// savePipeline writes the watermark assigner's and the computed columns'
// state.
func (c *checkpointer) savePipeline(e *checkpoint.Encoder) error {
	if a := c.p.assigner; a != nil {
		e.Bool(true)
		a.saveState(e)
	} else {
		e.Bool(false)
	}
	if cc := c.p.computed; cc != nil {
		e.Bool(true)
		e.Int(cc.skipped)
		e.Int(cc.passed)
	} else {
		e.Bool(false)
	}
	return nil
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
	if err := read("pipeline", c.restorePipeline); err != nil {
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

func (c *checkpointer) restorePipeline(d *checkpoint.Decoder) error {
	if has := d.Bool(); has != (c.p.assigner != nil) {
		d.Fail("the watermark assigner changed")
	} else if has {
		c.p.assigner.restoreState(d)
	}
	if has := d.Bool(); has != (c.p.computed != nil) {
		d.Fail("the computed columns changed")
	} else if has {
		c.p.computed.skipped = d.Int()
		c.p.computed.passed = d.Int()
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

// stateReader is a BatchReader whose position a checkpoint records.
type stateReader interface {
	saveState(e *checkpoint.Encoder) error
}

// stateStage is a window stage whose state a checkpoint records.
type stateStage interface {
	saveState(e *checkpoint.Encoder) error
	restoreState(d *checkpoint.Decoder) error
}

func (s timeWindowStage) saveState(e *checkpoint.Encoder) error {
	return s.WindowOperator.SnapshotState(e)
}

func (s timeWindowStage) restoreState(d *checkpoint.Decoder) error {
	return s.WindowOperator.RestoreState(d)
}

func (p *plainStage) saveState(e *checkpoint.Encoder) error {
	e.Int(p.rows)
	return nil
}

func (p *plainStage) restoreState(d *checkpoint.Decoder) error {
	p.rows = d.Int()
	return d.Err()
}

var (
	_ stateStage = timeWindowStage{}
	_ stateStage = (*plainStage)(nil)
)
