package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/badrows"
)

// split is one partition of the read: where it is and where it ends.
type split struct {
	topic     string
	partition int32
	next      int64 // the offset after the records handed out: a resume reads on from it
	fetched   int64 // the offset after the records fetched (some maybe queued)
	end       int64 // the offset the read ends before; noEnd for none
	endQueued bool  // its end step is queued
	ended     bool  // its end step was handed out

	// with watermark alignment: the latest rowtime handed out (MinInt64
	// before any), when the last record was, and whether it is paused
	latest     int64
	lastRecord time.Time
	paused     bool

	high     int64 // the high watermark at the last poll that returned it (lag.go)
	highSeen bool
}

const noEnd = -1

// reader is the BatchReader of a Source: it polls the partitions' records
// and hands out a batch per partition per poll, in the order polled.
type reader struct {
	src    *Source
	mem    memory.Allocator
	cl     *kgo.Client // consumes the splits not ended
	adm    *kadm.Client
	meta   *kgo.Client // the admin client's: listing topics and offsets
	ctx    context.Context
	splits []*split
	byTP   map[topicPartition]int
	queue  []queued
	stats  exec.SourceStats
	// lastDiscovery is when the partitions were last listed.
	lastDiscovery time.Time
	// latest is an upsert-kafka read's latest value of each key.
	latest latestValues
	// decoders are the read's decoders of the value and the key.
	decoders [2]decoderCache
	// pauses counts the partitions paused by watermark alignment.
	pauses int
	// bad is the bad-rows file ('wsql.bad-rows.path'); nil without one.
	bad *badrows.File
	// saved are the offsets of the last checkpoint, to commit to the
	// consumer group once it is durable (group_offsets.go);
	// commitFailures counts the commits that failed.
	saved          kadm.Offsets
	commitFailures int
}

// queued is a step not yet handed out: a split's end, or records of a
// split decoded when they are handed out (so what the read keeps of them,
// an upsert read's latest values, is of the records handed out, which a
// checkpoint stands for); with the offset its split is at once it is.
type queued struct {
	step exec.SplitBatch
	recs []*kgo.Record
	next int64
}

type topicPartition struct {
	topic     string
	partition int32
}

// pollWait is how long an unbounded read waits for records before it
// hands out a step with nothing, so the driver can take its splits idle.
const pollWait = 200 * time.Millisecond

func openReader(s *Source, mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	opts, err := s.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	meta, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	r := &reader{src: s, mem: mem, meta: meta, adm: kadm.NewClient(meta), ctx: context.Background(), byTP: map[topicPartition]int{}}
	if err := r.start(at); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// start lists the partitions and decides each one's start and end, or
// takes them from the checkpoint, then starts consuming.
func (r *reader) start(at *checkpoint.Decoder) error {
	if r.src.upsert {
		r.latest = latestValues{}
	}
	if at != nil {
		n := at.Len(4)
		for range n {
			sp := &split{topic: at.String(), partition: int32(at.Int()), next: at.Int(), end: at.Int(), ended: at.Bool()}
			sp.fetched, sp.endQueued = sp.next, sp.ended
			if at.Err() != nil {
				return at.Err()
			}
			r.add(sp)
		}
		if r.src.upsert {
			r.latest = loadLatest(at)
			if at.Err() != nil {
				return at.Err()
			}
		}
	}
	if err := r.openBadRows(at); err != nil {
		return err
	}
	r.lastDiscovery = time.Now()
	fresh, err := r.listNew()
	if err != nil {
		return err
	}
	if len(fresh) == 0 && len(r.splits) == 0 {
		return fmt.Errorf("table %s: no partition to read", r.src.Table)
	}
	startMode := r.src.cfg.startup
	if at != nil {
		startMode = position{mode: modeEarliest} // found since the checkpoint: read whole, as Flink reads new partitions
	}
	if err := r.place(fresh, startMode); err != nil {
		return err
	}
	return r.consume(r.splits)
}

// listNew lists the partitions of the read's topics not yet among its
// splits.
func (r *reader) listNew() ([]topicPartition, error) {
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	cfg := r.src.cfg
	if only := r.src.only; only != nil {
		return r.listOnly(ctx, *only)
	}
	var details kadm.TopicDetails
	var err error
	if cfg.pattern != nil {
		details, err = r.adm.ListTopics(ctx)
	} else {
		details, err = r.adm.ListTopics(ctx, cfg.topics...)
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: listing the topics: %w", r.src.Table, err)
	}
	var fresh []topicPartition
	for _, name := range details.Names() {
		d := details[name]
		if cfg.pattern != nil && !cfg.pattern.MatchString(name) {
			continue
		}
		if d.Err != nil {
			return nil, fmt.Errorf("table %s: topic %s: %w", r.src.Table, name, d.Err)
		}
		for _, p := range d.Partitions.Numbers() {
			tp := topicPartition{name, p}
			if _, ok := r.byTP[tp]; !ok {
				fresh = append(fresh, tp)
			}
		}
	}
	sort.Slice(fresh, func(i, j int) bool {
		if fresh[i].topic != fresh[j].topic {
			return fresh[i].topic < fresh[j].topic
		}
		return fresh[i].partition < fresh[j].partition
	})
	return fresh, nil
}

// place adds the splits of partitions tps, starting where start says and
// ending where the read's bounded mode says.
func (r *reader) place(tps []topicPartition, start position) error {
	if len(tps) == 0 {
		return nil
	}
	starts, err := r.offsets(tps, start, false)
	if err != nil {
		return err
	}
	ends := map[topicPartition]int64{}
	if r.src.cfg.bounded.mode != modeUnbounded {
		if ends, err = r.offsets(tps, r.src.cfg.bounded, true); err != nil {
			return err
		}
	}
	for _, tp := range tps {
		end, ok := ends[tp]
		if !ok {
			end = noEnd
		}
		r.add(&split{topic: tp.topic, partition: tp.partition, next: starts[tp], fetched: starts[tp], end: end})
	}
	return nil
}

func (r *reader) add(sp *split) {
	sp.latest, sp.lastRecord = math.MinInt64, time.Now()
	r.byTP[topicPartition{sp.topic, sp.partition}] = len(r.splits)
	r.splits = append(r.splits, sp)
}

// offsets are the offsets of partitions tps at position p: a start, or
// with end the offset a read ends before.
func (r *reader) offsets(tps []topicPartition, p position, end bool) (map[topicPartition]int64, error) {
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	topics := topicsOf(tps)
	out := map[topicPartition]int64{}
	list := func(l kadm.ListedOffsets, err error) error {
		if err == nil {
			err = l.Error()
		}
		if err != nil {
			return fmt.Errorf("table %s: listing offsets: %w", r.src.Table, err)
		}
		for _, tp := range tps {
			if o, ok := l.Lookup(tp.topic, tp.partition); ok {
				out[tp] = o.Offset
			}
		}
		return nil
	}
	switch p.mode {
	case modeEarliest:
		return out, list(r.adm.ListStartOffsets(ctx, topics...))
	case modeLatest:
		return out, list(r.adm.ListEndOffsets(ctx, topics...))
	case modeTimestamp:
		// the first record at or after the time; none: the end
		if err := list(r.adm.ListOffsetsAfterMilli(ctx, p.millis, topics...)); err != nil {
			return nil, err
		}
		return out, nil
	case modeSpecific:
		// a partition not named starts (or ends) at its earliest offset, as
		// Flink's specified offsets do
		if err := list(r.adm.ListStartOffsets(ctx, topics...)); err != nil {
			return nil, err
		}
		for _, tp := range tps {
			if o, ok := p.offsets[tp.partition]; ok {
				out[tp] = o
			}
		}
		return out, nil
	case modeGroup:
		committed, err := r.adm.FetchOffsetsForTopics(ctx, r.src.cfg.group, topics...)
		if err == nil {
			err = committed.Error()
		}
		if errors.Is(err, kerr.GroupIDNotFound) {
			committed, err = nil, nil // a group that never committed: none to start from
		}
		if err != nil {
			return nil, fmt.Errorf("table %s: reading the offsets of group %s: %w", r.src.Table, r.src.cfg.group, err)
		}
		var missing []topicPartition
		for _, tp := range tps {
			if o, ok := committed.Lookup(tp.topic, tp.partition); ok && o.At >= 0 {
				out[tp] = o.At
			} else {
				missing = append(missing, tp)
			}
		}
		if len(missing) == 0 {
			return out, nil
		}
		switch r.src.cfg.client.autoOffsetReset {
		case "earliest":
			return out, list(r.adm.ListStartOffsets(ctx, topics...))
		case "latest":
			return out, list(r.adm.ListEndOffsets(ctx, topics...))
		}
		what := "start"
		if end {
			what = "end"
		}
		return nil, fmt.Errorf("table %s: group %s has no committed offset for topic %s partition %d, where the read would %s: set 'properties.auto.offset.reset' to earliest or latest, or choose another '%s'",
			r.src.Table, r.src.cfg.group, missing[0].topic, missing[0].partition, what, map[bool]string{false: keyStartupMode, true: keyBoundedMode}[end])
	}
	return nil, fmt.Errorf("table %s: unknown offsets mode %q", r.src.Table, p.mode)
}

func topicsOf(tps []topicPartition) []string {
	var topics []string
	for _, tp := range tps {
		if len(topics) == 0 || topics[len(topics)-1] != tp.topic {
			topics = append(topics, tp.topic)
		}
	}
	return topics
}

// consume starts reading the splits sps that have records left to read;
// those at their end end now.
func (r *reader) consume(sps []*split) error {
	want := map[string]map[int32]kgo.Offset{}
	for _, sp := range sps {
		switch {
		case sp.endQueued:
		case sp.end != noEnd && sp.fetched >= sp.end:
			r.endSplit(sp)
		default:
			if want[sp.topic] == nil {
				want[sp.topic] = map[int32]kgo.Offset{}
			}
			want[sp.topic][sp.partition] = kgo.NewOffset().At(sp.fetched)
		}
	}
	if len(want) == 0 {
		return nil
	}
	if r.cl != nil {
		r.cl.AddConsumePartitions(want)
		return nil
	}
	opts, err := r.src.cfg.clientOpts()
	if err != nil {
		return err
	}
	// Without fetch sessions: franz-go's Close kills a source's session
	// while its fetch loop may still be using it (a data race the race
	// detector reports in v1.22.3); a session only trims the partition
	// list each fetch request repeats.
	opts = append(opts, kgo.ConsumePartitions(want), kgo.FetchMaxWait(pollWait), kgo.DisableFetchSessions(), kgo.KeepControlRecords(), kgo.WithPools(records))
	opts = append(opts, r.src.cfg.fetchOpts()...)
	if r.src.cfg.client.readCommitted {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if r.cl, err = kgo.NewClient(opts...); err != nil {
		return fmt.Errorf("table %s: %w", r.src.Table, err)
	}
	return nil
}

// endSplit queues split sp's end and stops fetching it.
func (r *reader) endSplit(sp *split) {
	if sp.endQueued {
		return
	}
	sp.endQueued = true
	r.queue = append(r.queue, queued{step: exec.SplitBatch{Split: r.byTP[topicPartition{sp.topic, sp.partition}], End: true}, next: sp.fetched})
	if r.cl != nil {
		r.cl.PauseFetchPartitions(map[string][]int32{sp.topic: {sp.partition}})
	}
}

func (r *reader) Follow(ctx context.Context) { r.ctx = ctx }

func (r *reader) NumSplits() int { return len(r.splits) }

func (r *reader) Stats() exec.SourceStats { return r.stats }

func (r *reader) Next() (exec.SplitBatch, error) {
	for {
		if len(r.queue) > 0 {
			q := r.queue[0]
			r.queue = r.queue[1:]
			sp := r.splits[q.step.Split]
			sp.next = q.next
			sp.ended = sp.ended || q.step.End
			if q.recs == nil {
				return q.step, nil
			}
			rec, err := r.decode(q.recs)
			recycle(q.recs)
			if err != nil {
				return exec.SplitBatch{}, err
			}
			if rec.NumRows() == 0 {
				rec.Release() // every record skipped
				continue
			}
			q.step.Record = rec
			if r.src.align != nil {
				sp.latest, sp.lastRecord = max(sp.latest, latestTime(rec, r.src.align.col)), time.Now()
				r.align(sp.lastRecord)
			}
			return q.step, nil
		}
		if r.bad != nil && r.bad.Err() != nil {
			return exec.SplitBatch{}, r.bad.Err()
		}
		if r.allEnded() {
			if r.bad != nil {
				// flushed at the end, so a failed write is reported
				if err := r.bad.Close(); err != nil {
					return exec.SplitBatch{}, err
				}
			}
			return exec.SplitBatch{}, io.EOF
		}
		if err := r.ctx.Err(); err != nil {
			return exec.SplitBatch{}, err
		}
		if err := r.discover(); err != nil {
			return exec.SplitBatch{}, err
		}
		if r.src.align != nil {
			r.align(time.Now())
		}
		got, err := r.poll()
		if err != nil {
			return exec.SplitBatch{}, err
		}
		if !got && r.src.cfg.bounded.mode == modeUnbounded {
			return exec.SplitBatch{}, nil // nothing new for now
		}
	}
}

func (r *reader) allEnded() bool {
	if r.src.cfg.bounded.mode == modeUnbounded {
		return false
	}
	for _, sp := range r.splits {
		if !sp.ended {
			return false
		}
	}
	return true
}

// discover adds the partitions created since the last look, in an
// unbounded read, every 'scan.topic-partition-discovery.interval'.
func (r *reader) discover() error {
	every := r.src.cfg.discovery
	if r.src.cfg.bounded.mode != modeUnbounded || every <= 0 || time.Since(r.lastDiscovery) < every {
		return nil
	}
	r.lastDiscovery = time.Now()
	fresh, err := r.listNew()
	if err != nil || len(fresh) == 0 {
		return err
	}
	from := len(r.splits)
	if err := r.place(fresh, position{mode: modeEarliest}); err != nil {
		return err
	}
	return r.consume(r.splits[from:])
}

// poll fetches what the brokers have, up to pollWait, and queues a batch
// per partition that gave records; it reports whether it queued any step.
func (r *reader) poll() (bool, error) {
	if r.cl == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(r.ctx, pollWait)
	rows := r.batchRows()
	fetches := r.cl.PollRecords(ctx, rows*4)
	cancel()
	if fetches.IsClientClosed() {
		return false, fmt.Errorf("table %s: the Kafka client closed", r.src.Table)
	}
	for _, fe := range fetches.Errors() {
		if errors.Is(fe.Err, context.DeadlineExceeded) || errors.Is(fe.Err, context.Canceled) {
			continue
		}
		return false, fmt.Errorf("table %s: topic %s partition %d: %w", r.src.Table, fe.Topic, fe.Partition, fe.Err)
	}
	queued := len(r.queue)
	var err error
	fetches.EachPartition(func(p kgo.FetchTopicPartition) {
		i, ok := r.byTP[topicPartition{p.Topic, p.Partition}]
		if !ok || err != nil {
			return
		}
		sp := r.splits[i]
		sp.noteHigh(p.HighWatermark)
		recs, passed := p.Records, false
		if sp.end != noEnd {
			n := sort.Search(len(recs), func(k int) bool { return recs[k].Offset >= sp.end })
			for _, rec := range recs[n:] {
				rec.Recycle()
			}
			recs, passed = recs[:n], n < len(recs)
		}
		last := sp.fetched
		if len(recs) > 0 {
			last = recs[len(recs)-1].Offset + 1
		}
		recs = withoutMarkers(recs)
		for from := 0; from < len(recs) && err == nil; from += rows {
			err = r.queueRecords(i, recs[from:min(len(recs), from+rows)])
		}
		sp.fetched = max(sp.fetched, last) // past a transaction's markers too
		if sp.endQueued || sp.end == noEnd {
			return
		}
		// The end is reached, or passed by a gap in the offsets (a
		// compacted topic), or the records before it are gone (deleted
		// by retention). A partition in the fetch without records says
		// nothing: the broker may have left it out to keep the response
		// within its size ('max.partition.fetch.bytes', 'fetch.max.bytes').
		if sp.fetched >= sp.end || passed || (p.Err == nil && p.LogStartOffset >= sp.end) {
			r.endSplit(sp)
		}
	})
	return len(r.queue) > queued, err
}

// batchRows is the most rows of a batch: the run's batch size, 4096 when
// it sets none (as the decoders of files).
func (r *reader) batchRows() int {
	if r.src.BatchSize > 0 {
		return r.src.BatchSize
	}
	return 4096
}

// withoutMarkers drops the control records of recs, the markers that
// commit or abort a transaction, in place: the read takes them
// (kgo.KeepControlRecords) to know that the offsets they stand at are
// read, for a bounded read whose end follows them. They make no rows and
// go back to the pool at once.
func withoutMarkers(recs []*kgo.Record) []*kgo.Record {
	kept := recs[:0]
	for _, rec := range recs {
		if rec.Attrs.IsControl() {
			rec.Recycle()
			continue
		}
		kept = append(kept, rec)
	}
	return kept
}

// queueRecords queues records of split i.
func (r *reader) queueRecords(i int, recs []*kgo.Record) error {
	if len(recs) == 0 {
		return nil
	}
	sp := r.splits[i]
	sp.fetched = recs[len(recs)-1].Offset + 1
	r.queue = append(r.queue, queued{step: exec.SplitBatch{Split: i}, recs: recs, next: sp.fetched})
	return nil
}

// decode makes the batch of records handed out.
func (r *reader) decode(recs []*kgo.Record) (arrow.RecordBatch, error) {
	var rec arrow.RecordBatch
	var skipped []*kgo.Record
	var err error
	if r.src.upsert {
		rec, skipped, err = r.src.decodeUpsert(recs, r.mem, &r.decoders, r.latest)
	} else {
		rec, skipped, err = r.src.decode(recs, r.mem, &r.decoders)
	}
	r.stats.Skipped += int64(len(skipped))
	for _, sk := range skipped {
		r.writeBad(sk)
	}
	r.stats.Rows += int64(len(recs))
	return rec, err
}

// SaveState writes each split's position, for a resume that reads on
// from the next record (exactly once: the offsets are the checkpoint's,
// never the group's).
func (r *reader) SaveState(e *checkpoint.Encoder) error {
	e.Uint(uint64(len(r.splits)))
	for _, sp := range r.splits {
		e.String(sp.topic)
		e.Int(int64(sp.partition))
		e.Int(sp.next)
		e.Int(sp.end)
		e.Bool(sp.ended)
	}
	if r.latest != nil {
		r.latest.save(e)
	}
	r.noteOffsets()
	return r.saveBadRows(e)
}

func (r *reader) Close() error {
	r.queue = nil
	var err error
	if r.bad != nil {
		err = r.bad.Close()
	}
	if r.cl != nil {
		r.cl.Close()
		r.cl = nil
	}
	if r.meta != nil {
		r.meta.Close()
		r.meta = nil
	}
	return err
}
