package scaleout

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format/writer"
)

// A GroupSource is a source whose read the instances of one query can
// share as members of a group: Kafka's consumer group. Each instance
// reads the partitions the group assigns it and runs the query on each
// partition apart, its state checkpointed per partition, so the instance
// that is assigned a partition after a rebalance resumes it from its
// checkpoint (docs/kafka.md, "Scale-out").
type GroupSource interface {
	exec.Source
	// GroupName is the group the read is shared by; "" when it is not
	// shared and the source reads all its partitions itself.
	GroupName() string
	// Topics names what the partitions are of, for EXPLAIN.
	Topics() []string
	// PartitionedBy names the columns the records are partitioned by
	// (their key); nil when unknown.
	PartitionedBy() []string
	// JoinGroup joins the group. It calls assigned and revoked, one call
	// at a time, as the group gives partitions and takes them back;
	// revoked returns once the runs of those partitions stopped. leave
	// leaves the group.
	JoinGroup(assigned, revoked func([]GroupPartition)) (leave func(), err error)
	// Partition is the read of partition p alone.
	Partition(p GroupPartition) exec.Source
	// Repartition makes (or finds) the topic named after name that the
	// second stage of a query reads when its groups are not each in one
	// partition: the first stage writes rows of schema to it keyed by
	// the columns keys, with its watermarks. The group's members read its
	// partitions too, from JoinGroup on.
	Repartition(name string, schema *arrow.Schema, keys []int) (Repartition, error)
	// RepartitionTopic is the name of that topic, made or not.
	RepartitionTopic(name string) string
}

// Repartition is the topic between the two stages of a scaled-out query
// whose grouping keys are not the keys its records are partitioned by,
// as Kafka Streams repartitions: each first-stage run writes its rows to
// the partition of their key, and its watermark to every partition; a
// second-stage run reads one partition, its watermark the least of the
// first-stage runs' latest (docs/kafka.md, "Scale-out").
type Repartition interface {
	// Topic is the topic's name: the partitions of the second stage are
	// the group's partitions of this topic.
	Topic() string
	// Writers is the number of first-stage runs: the source's partitions.
	Writers() int
	// Writer writes the rows and watermarks of the first-stage run of
	// partition from; with checkpoints, exactly once (an exec.CommittingWriter).
	Writer(ctx context.Context, cp *exec.Checkpointing, from GroupPartition) (writer.ResultWriter, error)
	// Partition is the second stage's read of partition p of the topic.
	Partition(p GroupPartition) exec.Source
}

// WatermarkWriter is a result writer that also writes the query's
// watermarks as they advance (a repartition topic's writer).
type WatermarkWriter interface {
	WriteWatermark(wm int64) error
}

// GroupPartition names a partition of a GroupSource.
type GroupPartition struct {
	Topic     string
	Partition int32
}

func (p GroupPartition) String() string { return fmt.Sprintf("%s-%d", p.Topic, p.Partition) }
