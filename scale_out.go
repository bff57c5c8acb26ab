package wsql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/scaleout"
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
func groupSourceOf(p *planner.Plan, job *exec.Job) (scaleout.GroupSource, error) {
	var shared scaleout.GroupSource
	var nested bool
	job.Walk(func(j *exec.Job) {
		if gs, ok := j.Source.(scaleout.GroupSource); ok && gs.GroupName() != "" {
			if j == job && j.Input == nil && j.Union == nil {
				shared = gs
			} else {
				nested = true
			}
		}
	})
	if nested {
		return nil, fmt.Errorf("a scaled-out read ('wsql.scale-out') must be the query's only source, read directly: a join, union, subquery or OVER aggregation over one is not supported yet")
	}
	return shared, nil
}

// stages decides how a scaled-out query runs: in one stage, a run per
// partition of the table, when its state is per partition (no state, or
// GROUP BY keys that include the columns the records are partitioned by,
// the table's 'key.fields'); else in two, through a repartition topic
// keyed by the grouping keys (columns of the table or expressions, which
// the first stage computes). It returns the keys to repartition by.
func stages(p *planner.Plan, gs scaleout.GroupSource) (keys []int, repartition bool, err error) {
	if p.Plain {
		return nil, false, nil
	}
	table := p.Source.Spec().Table
	if p.Rank != nil || p.SetOp != nil || p.Over != nil || p.Expand != nil || p.Lateral != nil || p.Window.Kind == 0 && !p.Group {
		return nil, false, fmt.Errorf("a scaled-out read of table %s runs filters, projections, windows and GROUP BY per partition; this query's other operators over it are not supported yet", table)
	}
	var names []string
	for _, k := range p.Keys {
		names = append(names, p.Stream.Field(k).Name)
	}
	by := gs.PartitionedBy()
	for _, c := range by {
		if !slices.Contains(names, c) {
			return p.Keys, true, nil // a group's rows may be in several partitions
		}
	}
	if len(by) == 0 {
		return p.Keys, true, nil // unknown partitioning
	}
	return nil, false, nil
}

// repartitionName names a query's repartition topic (after its group):
// by the plan, so every instance of the query finds the same.
func repartitionName(p *planner.Plan) string {
	sum := sha256.Sum256([]byte(p.Identity()))
	return "q" + hex.EncodeToString(sum[:6])
}

// firstStage is the job of a first-stage run: the table's partition read,
// its computed columns and watermark, WHERE, and the expressions the
// window reads (grouping keys, aggregate arguments); each row left is
// written on with every column. Filtering here, before the shuffle, is
// what Kafka Streams does too: the rows WHERE drops still moved the
// watermark, which the first stage sends on its own.
func firstStage(job *exec.Job, src exec.Source) *exec.Job {
	schema := src.Spec().Schema
	switch {
	case job.PreWindow != nil:
		schema = job.PreWindow.Schema
	case job.Computed != nil:
		schema = job.Computed.Schema
	}
	cols := make([]int, schema.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return &exec.Job{Source: src, Computed: job.Computed, RowtimeIndex: job.RowtimeIndex, DelayMillis: job.DelayMillis,
		WatermarkExpr: job.WatermarkExpr, SourceWatermarks: job.SourceWatermarks, Clock: job.Clock,
		Where: job.Where, PreWindow: job.PreWindow,
		Project: exec.ProjectSpec{Columns: cols, Schema: schema}}
}

// secondStage makes job a second-stage run's: it reads the rows as the
// first stage computed and filtered them, with the first stage's
// watermarks.
func secondStage(job *exec.Job, src exec.Source) {
	job.Source, job.Computed, job.Where, job.PreWindow = src, nil, nil, nil
	job.WatermarkExpr, job.DelayMillis, job.SourceWatermarks = nil, 0, true
}

// scaleOut is an instance's share of a scaled-out query: a run per
// partition it holds.
type scaleOut struct {
	r        *runner
	p        *planner.Plan
	gs       scaleout.GroupSource
	ctx      context.Context
	fail     context.CancelCauseFunc
	dir      string // the partitions' checkpoints
	query    string
	interval time.Duration
	// results is a SELECT's writer, shared by the runs; nil for an INSERT.
	results *sharedWriter
	// rep is the repartition topic of a query in two stages; nil for one.
	rep scaleout.Repartition
	// progress merges the runs' snapshots; nil without Output.OnProgress.
	progress *scaledProgress

	mu      sync.Mutex
	runs    map[scaleout.GroupPartition]*partitionRun
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
func (r *runner) runScaledOut(ctx context.Context, p *planner.Plan, gs scaleout.GroupSource, unlock func()) error {
	keys, repartition, err := stages(p, gs)
	if err != nil {
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
	s := &scaleOut{r: r, p: p, gs: gs, query: query, interval: interval, runs: map[scaleout.GroupPartition]*partitionRun{},
		dir: checkpoint.Join(dir, "query-"+strconv.Itoa(r.queries)+"-"+query[:12]+".partitions")}
	if err := checkpoint.MakeDir(s.dir); err != nil {
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
	if repartition {
		job, err := p.Job()
		if err != nil {
			return err
		}
		schema := firstStage(job, gs).Project.Schema
		if s.rep, err = gs.Repartition(repartitionName(p), schema, keys); err != nil {
			return err
		}
	}
	if r.out.OnProgress != nil {
		s.progress = newScaledProgress(r.out.OnProgress)
	}
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
	if cause := context.Cause(s.ctx); err == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = cause // a partition's run failed
	}
	if s.progress != nil {
		s.progress.finish(err)
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

func (s *scaleOut) assigned(ps []scaleout.GroupPartition) {
	for _, gp := range ps {
		s.start(gp)
	}
}

// revoked stops the runs of partitions ps, which the group gives to
// other instances: each takes its last checkpoint first.
func (s *scaleOut) revoked(ps []scaleout.GroupPartition) {
	for _, gp := range ps {
		s.stop(gp)
	}
}

func (s *scaleOut) stopAll() {
	s.mu.Lock()
	ps := make([]scaleout.GroupPartition, 0, len(s.runs))
	for gp := range s.runs {
		ps = append(ps, gp)
	}
	s.mu.Unlock()
	s.revoked(ps)
}

func (s *scaleOut) start(gp scaleout.GroupPartition) {
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
		mergeStats(&s.stats, &stats)
		if err != nil && ctx.Err() == nil {
			s.fail(fmt.Errorf("partition %s: %w", gp, err))
		}
	}()
}

func (s *scaleOut) stop(gp scaleout.GroupPartition) {
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
func (s *scaleOut) runPartition(ctx context.Context, gp scaleout.GroupPartition) (exec.Stats, error) {
	var stats exec.Stats
	job, err := s.p.Job()
	if err != nil {
		return stats, err
	}
	second := s.rep != nil && gp.Topic == s.rep.Topic()
	switch {
	case second:
		secondStage(job, s.rep.Partition(gp))
	case s.rep != nil:
		job = firstStage(job, s.gs.Partition(gp))
	default:
		job.Source = s.gs.Partition(gp)
	}
	path := checkpoint.Join(s.dir, gp.String()+".ckpt")
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
	owned := s.p.Sink != nil // closed here, not shared
	switch {
	case s.rep != nil && !second:
		w, err = s.rep.Writer(ctx, cp, gp)
		owned = true
	case s.p.Sink != nil:
		w, err = s.r.openSink(ctx, s.p.Sink, cp, gp.String())
	}
	if err != nil {
		return stats, err
	}
	if s.progress != nil {
		job.Progress, job.ProgressEvery = s.progress.of(gp), s.r.out.ProgressEvery
		defer s.progress.endRun(gp)
	}
	stats, err = s.r.runJob(ctx, job, cp, w, "", func() {})
	if owned {
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
	switch {
	case second:
		stats.RowsRead = 0 // the first stage counted them
	case s.rep != nil:
		stats.ResultRows = 0 // rows for the second stage, not results
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

// explainScaleOut describes for EXPLAIN how a scaled-out query runs: its
// group, its stages and their topics; "" for other queries and for one
// its run will refuse.
func explainScaleOut(p *planner.Plan) string {
	gs, ok := p.Source.(scaleout.GroupSource)
	if !ok || gs.GroupName() == "" {
		return ""
	}
	keys, repartition, err := stages(p, gs)
	if err != nil {
		return ""
	}
	var b strings.Builder
	topics := strings.Join(gs.Topics(), ";")
	fmt.Fprintf(&b, "ScaleOut(consumer group=[%s], state=[checkpointed per partition])\n", gs.GroupName())
	if !repartition {
		fmt.Fprintf(&b, "+- stage 1: a run per partition of topic [%s]: the plan above\n", topics)
		return b.String()
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = p.Stream.Field(k).Name
	}
	rep := gs.RepartitionTopic(repartitionName(p))
	fmt.Fprintf(&b, "+- stage 1: a run per partition of topic [%s]: the plan above up to its window (scan, computed columns, watermark, WHERE, Calc) -> topic [%s] by the hash of [%s], each run's watermark into every partition\n", topics, rep, strings.Join(names, ", "))
	fmt.Fprintf(&b, "+- stage 2: a run per partition of topic [%s], its watermark the least of the stage 1 runs': the rest of the plan above\n", rep)
	return b.String()
}

// mergeStats adds the counts of o, the stats of another partition's run
// of the same query, to s: the elapsed time is the longest; the
// watermark, each run's own, is left as it is.
func mergeStats(s, o *exec.Stats) {
	s.RowsRead += o.RowsRead
	s.BadRowsSkipped += o.BadRowsSkipped
	s.LateRowsDropped += o.LateRowsDropped
	s.LateForWindow += o.LateForWindow
	s.NoWindowRows += o.NoWindowRows
	s.ResultRows += o.ResultRows
	s.Elapsed = max(s.Elapsed, o.Elapsed)
	s.FilesRotated += o.FilesRotated
	s.FilesTruncated += o.FilesTruncated
	s.UnfilledCountRows += o.UnfilledCountRows
	s.Lateness.Merge(&o.Lateness)
	s.StateExpired += o.StateExpired
	s.StateSpilled += o.StateSpilled
	s.LookupHits += o.LookupHits
	s.LookupMisses += o.LookupMisses
}
