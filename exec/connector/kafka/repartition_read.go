package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/scaleout"
)

// repartitionSource is a second-stage run's read of one partition of the
// repartition topic: a split per first-stage run, whose watermarks it
// hands out as they come (the job takes them as the source's own).
type repartitionSource struct {
	exec.SourceSpec
	r         *repartition
	partition int32
}

// Partition is the read of partition p of the topic.
func (r *repartition) Partition(p scaleout.GroupPartition) exec.Source {
	spec := r.src.SourceSpec
	spec.Schema, spec.MaxFuture, spec.BadRowsPath, spec.BadRowText = r.schema, nil, "", nil
	return &repartitionSource{SourceSpec: spec, r: r, partition: p.Partition}
}

func (s *repartitionSource) NumSplits() int { return s.r.Writers() }

func (s *repartitionSource) Explain() string {
	return fmt.Sprintf("connector=[%s], topic=[%s], partition=[%d], splits=[one per writer: %d]", Name, s.r.topic, s.partition, s.r.Writers())
}

func (s *repartitionSource) Checkpointable() error { return nil }

func (s *repartitionSource) Identity(b *strings.Builder) {
	fmt.Fprintf(b, "kafka repartition %s", s.r.topic)
}

func (s *repartitionSource) Open(mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	rd := &repartitionReader{s: s, mem: mem, ctx: context.Background(), watermarks: make([]int64, s.r.Writers()), handed: make([]int64, s.r.Writers())}
	for i := range rd.watermarks {
		rd.watermarks[i], rd.handed[i] = minWatermark, minWatermark
	}
	if at != nil {
		rd.next = at.Int()
		for i := range at.Len(1) {
			if wm := at.Int(); i < len(rd.watermarks) {
				rd.watermarks[i], rd.handed[i] = wm, wm
				// handed out again: the job's watermark comes from them
				rd.push(exec.SplitBatch{Split: i, HasWatermark: true, Watermark: wm}, rd.next)
			}
		}
		if err := at.Err(); err != nil {
			return nil, err
		}
	}
	opts, err := s.r.src.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	opts = append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{s.r.topic: {s.partition: kgo.NewOffset().At(rd.next)}}),
		kgo.FetchMaxWait(pollWait), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.DisableFetchSessions())
	opts = append(opts, s.r.src.cfg.fetchOpts()...)
	if rd.cl, err = kgo.NewClient(opts...); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return rd, nil
}

type repartitionReader struct {
	s     *repartitionSource
	mem   memory.Allocator
	ctx   context.Context
	cl    *kgo.Client
	next  int64 // the offset after the records handed out
	queue []exec.SplitBatch
	// offsets are the offsets after the queued steps, in step
	offsets    []int64
	watermarks []int64 // each writer's latest, queued
	handed     []int64 // and handed out
	stats      exec.SourceStats
}

var _ exec.StateReader = (*repartitionReader)(nil)

func (r *repartitionReader) Follow(ctx context.Context) { r.ctx = ctx }
func (r *repartitionReader) NumSplits() int             { return len(r.watermarks) }
func (r *repartitionReader) Stats() exec.SourceStats    { return r.stats }

func (r *repartitionReader) Next() (exec.SplitBatch, error) {
	for len(r.queue) == 0 {
		if err := r.ctx.Err(); err != nil {
			return exec.SplitBatch{}, err
		}
		got, err := r.poll()
		if err != nil || !got {
			return exec.SplitBatch{}, err // nothing new for now
		}
	}
	step := r.queue[0]
	r.queue = r.queue[1:]
	if step.HasWatermark {
		r.handed[step.Split] = step.Watermark
	}
	r.next, r.offsets = r.offsets[0], r.offsets[1:]
	return step, nil
}

// poll queues the steps of the records the brokers have.
func (r *repartitionReader) poll() (bool, error) {
	ctx, cancel := context.WithTimeout(r.ctx, pollWait)
	fetches := r.cl.PollRecords(ctx, 1024)
	cancel()
	if fetches.IsClientClosed() {
		return false, fmt.Errorf("table %s: the Kafka client closed", r.s.Table)
	}
	for _, fe := range fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			continue
		}
		return false, fmt.Errorf("table %s: repartition topic %s partition %d: %w", r.s.Table, fe.Topic, fe.Partition, fe.Err)
	}
	var err error
	fetches.EachRecord(func(rec *kgo.Record) {
		if err == nil {
			err = r.queueRecord(rec)
		}
	})
	return len(r.queue) > 0, err
}

// queueRecord queues a record's rows, or its writer's watermark.
func (r *repartitionReader) queueRecord(rec *kgo.Record) error {
	from, wm := -1, ""
	for _, h := range rec.Headers {
		switch h.Key {
		case headerFrom:
			from, _ = strconv.Atoi(string(h.Value))
		case headerWatermark:
			wm = string(h.Value)
		}
	}
	if from < 0 || from >= len(r.watermarks) {
		return fmt.Errorf("table %s: repartition topic %s partition %d offset %d: a record of no writer of this query (%d writers): was the topic written by another query?",
			r.s.Table, r.s.r.topic, rec.Partition, rec.Offset, len(r.watermarks))
	}
	if wm != "" {
		v, err := strconv.ParseInt(wm, 10, 64)
		if err != nil {
			return fmt.Errorf("table %s: repartition topic %s partition %d offset %d: watermark %q", r.s.Table, r.s.r.topic, rec.Partition, rec.Offset, wm)
		}
		if v > r.watermarks[from] {
			r.watermarks[from] = v
			r.push(exec.SplitBatch{Split: from, HasWatermark: true, Watermark: v}, rec.Offset+1)
		}
		return nil
	}
	ir, err := ipc.NewReader(bytes.NewReader(rec.Value), ipc.WithAllocator(r.mem), ipc.WithSchema(r.s.Schema))
	if err != nil {
		return fmt.Errorf("table %s: repartition topic %s partition %d offset %d: %w", r.s.Table, r.s.r.topic, rec.Partition, rec.Offset, err)
	}
	defer ir.Release()
	for ir.Next() {
		b := ir.RecordBatch()
		b.Retain()
		r.stats.Rows += b.NumRows()
		r.push(exec.SplitBatch{Split: from, Record: b}, rec.Offset+1)
	}
	return ir.Err()
}

func (r *repartitionReader) push(step exec.SplitBatch, next int64) {
	r.queue = append(r.queue, step)
	r.offsets = append(r.offsets, next)
}

// SaveState records the offset after the records handed out and each
// writer's latest watermark.
func (r *repartitionReader) SaveState(e *checkpoint.Encoder) error {
	e.Int(r.next)
	e.Uint(uint64(len(r.handed)))
	for _, wm := range r.handed {
		e.Int(wm)
	}
	return nil
}

func (r *repartitionReader) Close() error {
	for _, step := range r.queue {
		if step.Record != nil {
			step.Record.Release()
		}
	}
	r.queue = nil
	if r.cl != nil {
		r.cl.Close()
		r.cl = nil
	}
	return nil
}
