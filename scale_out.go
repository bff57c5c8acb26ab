package wsql

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
)

// A scaled-out query reads a Kafka table with 'wsql.scale-out' set: the
// instances of the query (wsql processes running the same script with
// the same group) share the topic's partitions through Kafka's consumer
// group. An instance runs the query once per partition it is assigned,
// each run with its own checkpoint in the shared checkpoint directory, so
// the instance a partition moves to after a rebalance resumes that
// partition's windows and offsets from its last checkpoint, and its
// transactional sink aborts what the last owner left uncommitted
// (docs/kafka.md, "Scale-out").

// groupSourceOf is the read a query's instances share, or nil; a shared
// read anywhere but as the query's one source is refused.
func groupSourceOf(p *planner.Plan, job *exec.Job) (exec.GroupSource, error) {
	var shared exec.GroupSource
	var nested bool
	job.Walk(func(j *exec.Job) {
		if gs, ok := j.Source.(exec.GroupSource); ok && gs.GroupName() != "" {
			if j == job && j.Input == nil && j.Union == nil {
				shared = gs
			} else {
				nested = true
			}
		}
	})
	if nested {
		return nil, fmt.Errorf("a scaled-out read ('wsql.scale-out') must be the query's only source: joins, unions and subqueries over one are not supported yet")
	}
	return shared, nil
}

// coPartitioned refuses a query whose state is not per partition: its
// groups must each lie in one partition, so the GROUP BY keys must
// include the columns the records are partitioned by (the table's
// 'key.fields'). A query without state (filter and project) runs on any
// partitioning.
func coPartitioned(p *planner.Plan, gs exec.GroupSource) error {
	if p.Plain {
		return nil
	}
	table := p.Source.Spec().Table
	if p.Rank != nil || p.SetOp != nil || p.Over != nil || p.Window.Kind == 0 && !p.Group {
		return fmt.Errorf("a scaled-out read of table %s runs filters, projections, windows and GROUP BY per partition; this query's other operators over it are not supported yet", table)
	}
	by := gs.PartitionedBy()
	if len(by) == 0 {
		return fmt.Errorf("table %s declares no 'key.fields', so wsql cannot tell which partition holds a group's rows; a scaled-out query groups by the record key, or needs a repartition stage, which is not built yet", table)
	}
	sourceColumns := p.Source.Spec().Schema.NumFields()
	var keys []string
	for _, k := range p.Keys {
		if k < sourceColumns {
			keys = append(keys, p.Stream.Field(k).Name)
		}
	}
	for _, c := range by {
		if !slices.Contains(keys, c) {
			return fmt.Errorf("the query groups by %s, which does not include %s, a key column of table %s: a group's rows may then be in several partitions. A scaled-out query groups by the record key ('key.fields'); a repartition stage by other keys is not built yet",
				orNone(keys), c, table)
		}
	}
	return nil
}

func orNone(keys []string) string {
	if len(keys) == 0 {
		return "no column"
	}
	return strings.Join(keys, ", ")
}

// scaleOut is an instance's share of a scaled-out query: a run per
// partition it holds.
type scaleOut struct {
	r        *runner
	p        *planner.Plan
	gs       exec.GroupSource
	ctx      context.Context
	fail     context.CancelCauseFunc
	dir      string // the partitions' checkpoints
	query    string
	interval time.Duration
	// results is a SELECT's writer, shared by the runs; nil for an INSERT.
	results *sharedWriter

	mu      sync.Mutex
	runs    map[exec.GroupPartition]*partitionRun
	stats   exec.Stats
	closing bool
}

// partitionRun is the run of one partition.
type partitionRun struct {
	stop context.CancelFunc
	done chan struct{}
}

// runScaledOut runs the n-th query p, which reads gs, as a member of its
// group until ctx ends or a partition's run fails.
func (r *runner) runScaledOut(ctx context.Context, p *planner.Plan, gs exec.GroupSource, unlock func()) error {
	if err := coPartitioned(p, gs); err != nil {
		return err
	}
	dir, interval, err := r.checkpointSettings(p)
	if err != nil {
		return err
	}
	if dir == "" {
		return fmt.Errorf("table %s is read scaled out ('wsql.scale-out'): each partition's state is checkpointed for the instance the group gives it to next, so set a checkpoint directory all instances share (--checkpoint-dir or '%s')", p.Source.Spec().Table, setting.CheckpointDir)
	}
	if p.Sink == nil && r.out.File != nil {
		return fmt.Errorf("a scaled-out query writes its results to stdout or to a sink table (INSERT INTO), not to --output")
	}
	if p.Sink != nil {
		if _, files := p.Sink.Target.(connector.PathSink); files {
			return fmt.Errorf("a scaled-out query writing files is not supported yet: write to Kafka, or to stdout")
		}
	}
	query := queryID(p, r.queries)
	s := &scaleOut{r: r, p: p, gs: gs, query: query, interval: interval, runs: map[exec.GroupPartition]*partitionRun{},
		dir: filepath.Join(dir, "query-"+strconv.Itoa(r.queries)+"-"+query[:12]+".partitions")}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint directory: %w", err)
	}
	if p.Sink == nil {
		w, err := r.writer(p.Schema())
		if err != nil {
			return err
		}
		s.results = &sharedWriter{w: w}
	}
	unlock()
	s.ctx, s.fail = context.WithCancelCause(ctx)
	leave, err := gs.JoinGroup(s.assigned, s.revoked)
	if err == nil {
		<-s.ctx.Done()
		s.mu.Lock()
		s.closing = true // no partition starts from here on
		s.mu.Unlock()
		s.stopAll() // each run takes its last checkpoint before the group moves its partition
		leave()
	}
	if s.results != nil {
		if cerr := s.results.w.Close(); err == nil {
			err = cerr
		}
	}
	if r.out.OnSummary != nil {
		r.out.OnSummary(summaryOf(&s.stats, p))
	}
	if err != nil {
		return err
	}
	if cause := context.Cause(s.ctx); !errors.Is(cause, context.Canceled) {
		return cause // a partition's run failed
	}
	return ctx.Err()
}

func (s *scaleOut) assigned(ps []exec.GroupPartition) {
	for _, gp := range ps {
		s.start(gp)
	}
}

// revoked stops the runs of partitions ps, which the group gives to
// other instances: each takes its last checkpoint first.
func (s *scaleOut) revoked(ps []exec.GroupPartition) {
	for _, gp := range ps {
		s.stop(gp)
	}
}

func (s *scaleOut) stopAll() {
	s.mu.Lock()
	ps := make([]exec.GroupPartition, 0, len(s.runs))
	for gp := range s.runs {
		ps = append(ps, gp)
	}
	s.mu.Unlock()
	s.revoked(ps)
}

func (s *scaleOut) start(gp exec.GroupPartition) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, running := s.runs[gp]; running || s.closing {
		return
	}
	ctx, stop := context.WithCancel(s.ctx)
	run := &partitionRun{stop: stop, done: make(chan struct{})}
	s.runs[gp] = run
	go func() {
		defer close(run.done)
		stats, err := s.runPartition(ctx, gp)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stats.Merge(&stats)
		if err != nil && ctx.Err() == nil {
			s.fail(fmt.Errorf("partition %s: %w", gp, err))
		}
	}()
}

func (s *scaleOut) stop(gp exec.GroupPartition) {
	s.mu.Lock()
	run := s.runs[gp]
	delete(s.runs, gp)
	s.mu.Unlock()
	if run != nil {
		run.stop()
		<-run.done
	}
}

// lockWait is how long a run waits for the checkpoint of its partition
// to be let go by the instance that had the partition before.
const lockWait = time.Minute

// runPartition runs the query on partition gp, from its checkpoint.
func (s *scaleOut) runPartition(ctx context.Context, gp exec.GroupPartition) (exec.Stats, error) {
	var stats exec.Stats
	job, err := s.p.Job()
	if err != nil {
		return stats, err
	}
	job.Source = s.gs.Partition(gp)
	path := filepath.Join(s.dir, gp.String()+".ckpt")
	var cp *exec.Checkpointing
	for waited := time.Duration(0); ; waited += 100 * time.Millisecond {
		cp, err = s.r.openCheckpoint(path, s.query, s.interval, func() error { return nil })
		if err == nil || waited >= lockWait {
			break
		}
		select {
		case <-ctx.Done():
			return stats, nil
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err != nil {
		return stats, err
	}
	defer s.r.doneCheckpointing(cp)
	if cp.Restore != nil && cp.Restore.Finished {
		return stats, nil
	}
	var w ResultWriter = s.results
	if s.p.Sink != nil {
		if w, err = s.r.openSink(ctx, s.p.Sink, cp, gp.String()); err != nil {
			return stats, err
		}
	}
	stats, err = s.r.runJob(ctx, job, cp, w, "", func() {})
	if s.p.Sink != nil {
		if a, ok := w.(interface{ Abort() }); ok && err != nil {
			a.Abort()
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		err = nil // stopped: the group moved the partition, or the instance ends
	}
	return stats, err
}

// sharedWriter is a SELECT's result writer, written by the runs of all
// partitions one batch at a time and closed once they all ended.
type sharedWriter struct {
	mu sync.Mutex
	w  ResultWriter
}

func (w *sharedWriter) WriteBatch(rec RecordBatch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.WriteBatch(rec)
}

func (w *sharedWriter) Close() error { return nil }
