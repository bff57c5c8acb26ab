package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/exec/keyhash"
	"github.com/wsql/wsql/exec/scaleout"
)

// A scaled-out query whose groups are not each in one partition runs in
// two stages joined by a repartition topic, as Kafka Streams runs one:
// the first stage reads a partition of the table, computes its columns
// and watermark, and writes each row, as Arrow IPC, to the partition of
// the topic its grouping key hashes to; it also writes its watermark into
// every partition of the topic as it advances. A second-stage run reads
// one partition of the topic with a split per first-stage run: a split's
// watermark is that run's latest, and the read's is the least of them, so
// event time stays exact across the shuffle. The first stage writes
// exactly once (a transaction per checkpoint), the second reads
// read_committed.

// The headers of the topic's records: the first-stage run that wrote it
// (its index among the table's partitions) and, in a record with no
// value, that run's watermark.
const (
	headerFrom      = "wsql-from"
	headerWatermark = "wsql-watermark"
)

// repartition is the topic between the stages of a query reading Source.
type repartition struct {
	src    *Source
	topic  string
	schema *arrow.Schema
	keys   []int
	// from numbers the table's partitions, the first-stage runs
	from       map[topicPartition]int
	partitions int32 // of the topic
}

var topicChars = regexp.MustCompile(`[^a-zA-Z0-9._-]`)

// RepartitionTopic names the repartition topic of the query named name:
// after its group, in the characters a topic name may have.
func (s *Source) RepartitionTopic(name string) string {
	return topicChars.ReplaceAllString(s.cfg.group+"-"+name+"-repartition", "_")
}

// Topics are the topics the read's partitions are of.
func (s *Source) Topics() []string { return s.cfg.topics }

// Repartition makes the repartition topic of the query named name, as
// many partitions as the table has, unless it is there.
func (s *Source) Repartition(name string, schema *arrow.Schema, keys []int) (scaleout.Repartition, error) {
	topic := s.RepartitionTopic(name)
	r := &repartition{src: s, topic: topic, schema: schema, keys: keys, from: map[topicPartition]int{}}
	opts, err := s.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	details, err := adm.ListTopics(ctx, s.cfg.topics...)
	if err != nil {
		return nil, fmt.Errorf("table %s: listing the topics: %w", s.Table, err)
	}
	for _, name := range s.cfg.topics {
		d, ok := details[name]
		if !ok || d.Err != nil {
			return nil, fmt.Errorf("table %s: topic %s: %w", s.Table, name, d.Err)
		}
		for _, p := range d.Partitions.Numbers() {
			r.from[topicPartition{name, p}] = len(r.from)
		}
	}
	r.partitions = int32(len(r.from))
	made, err := adm.CreateTopic(ctx, r.partitions, -1, nil, topic)
	if err == nil {
		err = made.Err
	}
	if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		return nil, fmt.Errorf("table %s: making the repartition topic %s: %w", s.Table, topic, err)
	}
	s.member.also = topic // the members read its partitions too
	return r, nil
}

func (r *repartition) Topic() string { return r.topic }
func (r *repartition) Writers() int  { return len(r.from) }

// Writer writes the rows and watermarks of the first-stage run of
// partition from, exactly once.
func (r *repartition) Writer(ctx context.Context, cp *exec.Checkpointing, from scaleout.GroupPartition) (writer.ResultWriter, error) {
	n, ok := r.from[topicPartition{from.Topic, from.Partition}]
	if !ok {
		return nil, fmt.Errorf("table %s: topic %s has no partition %d", r.src.Table, from.Topic, from.Partition)
	}
	opts, err := r.src.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	opts = append(opts, kgo.DefaultProduceTopic(r.topic), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(5*time.Millisecond))
	p, err := openProducer(ctx, r.src.Table, r.src.cfg, exactlyOnce, r.topic, opts, &connector.SinkRun{Checkpoint: cp, Part: from.String()})
	if err != nil {
		return nil, err
	}
	return &repartitionWriter{producer: p, r: r, from: []byte(strconv.Itoa(n)), watermark: minWatermark}, nil
}

const minWatermark = -1 << 63

// repartitionWriter is a first-stage run's writer of the topic.
type repartitionWriter struct {
	*producer
	r         *repartition
	from      []byte
	watermark int64 // the last written
	hashes    []uint64
	rows      [][]int32
	buf       bytes.Buffer
}

var _ exec.CommittingWriter = (*repartitionWriter)(nil)
var _ scaleout.WatermarkWriter = (*repartitionWriter)(nil)

// WriteBatch writes the rows of rec whose key hashes to a partition as
// one record of that partition.
func (w *repartitionWriter) WriteBatch(rec arrow.RecordBatch) error {
	if err := w.err(); err != nil {
		return err
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	if cap(w.hashes) < n {
		w.hashes = make([]uint64, n)
	}
	if err := keyhash.Rows(rec, w.r.keys, w.hashes[:n]); err != nil {
		return err
	}
	if w.rows == nil {
		w.rows = make([][]int32, w.r.partitions)
	}
	for i := range w.rows {
		w.rows[i] = w.rows[i][:0]
	}
	for i, h := range w.hashes[:n] {
		q := h % uint64(w.r.partitions)
		w.rows[q] = append(w.rows[q], int32(i))
	}
	for q, idx := range w.rows {
		if len(idx) == 0 {
			continue
		}
		part := rec
		if len(idx) < n {
			var err error
			if part, err = expr.TakeRecord(rec, idx, memory.DefaultAllocator); err != nil {
				return err
			}
		}
		value, err := w.encode(part)
		if part != rec {
			part.Release()
		}
		if err != nil {
			return err
		}
		w.produce(&kgo.Record{Partition: int32(q), Value: value, Headers: []kgo.RecordHeader{{Key: headerFrom, Value: w.from}}})
	}
	return nil
}

// encode writes rec as an Arrow IPC stream.
func (w *repartitionWriter) encode(rec arrow.RecordBatch) ([]byte, error) {
	w.buf.Reset()
	iw := ipc.NewWriter(&w.buf, ipc.WithSchema(w.r.schema))
	if err := iw.Write(rec); err != nil {
		return nil, fmt.Errorf("table %s: writing the repartition topic: %w", w.r.src.Table, err)
	}
	if err := iw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(w.buf.Bytes()), nil
}

// WriteWatermark writes an advanced watermark into every partition.
func (w *repartitionWriter) WriteWatermark(wm int64) error {
	if wm <= w.watermark {
		return nil
	}
	w.watermark = wm
	value := []byte(strconv.FormatInt(wm, 10))
	for q := range w.r.partitions {
		w.produce(&kgo.Record{Partition: q, Headers: []kgo.RecordHeader{{Key: headerFrom, Value: w.from}, {Key: headerWatermark, Value: value}}})
	}
	return nil
}
