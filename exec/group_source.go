package exec

import "fmt"

// A GroupSource is a source whose read the instances of one query can
// share as members of a group: Kafka's consumer group. Each instance
// reads the partitions the group assigns it and runs the query on each
// partition apart, its state checkpointed per partition, so the instance
// that is assigned a partition after a rebalance resumes it from its
// checkpoint (docs/kafka.md, "Scale-out").
type GroupSource interface {
	Source
	// GroupName is the group the read is shared by; "" when it is not
	// shared and the source reads all its partitions itself.
	GroupName() string
	// PartitionedBy names the columns the records are partitioned by
	// (their key); nil when unknown.
	PartitionedBy() []string
	// JoinGroup joins the group. It calls assigned and revoked, one call
	// at a time, as the group gives partitions and takes them back;
	// revoked returns once the runs of those partitions stopped. leave
	// leaves the group.
	JoinGroup(assigned, revoked func([]GroupPartition)) (leave func(), err error)
	// Partition is the read of partition p alone.
	Partition(p GroupPartition) Source
}

// GroupPartition names a partition of a GroupSource.
type GroupPartition struct {
	Topic     string
	Partition int32
}

func (p GroupPartition) String() string { return fmt.Sprintf("%s-%d", p.Topic, p.Partition) }
