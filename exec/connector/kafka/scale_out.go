package kafka

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/scaleout"
	"github.com/wsql/wsql/sql"
)

// A read with 'wsql.scale-out' = 'consumer-group' is shared by the
// instances of its query that name the same 'properties.group.id', as
// Kafka Streams shares a topic: Kafka's group protocol (cooperative-sticky
// assignment) gives each instance some of the partitions, and the engine
// runs the query on each partition apart, its state checkpointed per
// partition, so whichever instance is given a partition after a rebalance
// resumes it from its checkpoint. The member client only holds the
// membership: its topics stay paused, and each partition is read by the
// partition's own read (Partition), from the offsets of its checkpoint.

const (
	scaleOutNone  = "none"
	scaleOutGroup = "consumer-group"
)

// checkScaleOut refuses a shared read that cannot be shared.
func (c *config) checkScaleOut(t *catalog.Table) error {
	if !c.scaleOut {
		return nil
	}
	o, _ := t.Options.Lookup(keyScaleOut)
	switch {
	case c.group == "":
		return sql.Errorf(sql.ErrInvalid, o.At, "'%s' = '%s' shares the read among the members of a consumer group: table %s needs a '%s' option", keyScaleOut, scaleOutGroup, t.Name, keyGroupID)
	case c.bounded.mode != modeUnbounded:
		return sql.Errorf(sql.ErrUnsupported, o.At, "a scaled-out read runs until it is stopped: a bounded one ('%s') is not supported yet", keyBoundedMode)
	case c.pattern != nil:
		return sql.Errorf(sql.ErrUnsupported, o.At, "a scaled-out read of a 'topic-pattern' is not supported yet: table %s may name its topics in 'topic'", t.Name)
	}
	return nil
}

var _ scaleout.GroupSource = (*Source)(nil)

// GroupName is the group of a scaled-out read; "" for others.
func (s *Source) GroupName() string {
	if !s.cfg.scaleOut {
		return ""
	}
	return s.cfg.group
}

// PartitionedBy is the table's key columns ('key.fields'): a producer
// that keys its records by them puts each key's records in one
// partition.
func (s *Source) PartitionedBy() []string { return s.keyColumns }

// Partition is the read of partition p alone, from its start, or from
// the offsets of the checkpoint it is opened with.
func (s *Source) Partition(p scaleout.GroupPartition) exec.Source {
	one := *s
	one.only = &topicPartition{p.Topic, p.Partition}
	return &one
}

// groupMember is an instance's membership of its read's group.
// Set when it joined, it commits the partitions' offsets to the group
// (group_offsets.go).
// also is the query's repartition topic, whose partitions the members
// share too ("" for none).
type groupMember struct {
	cl   atomic.Pointer[kgo.Client]
	also string
}

// JoinGroup joins the read's consumer group with the member client.
func (s *Source) JoinGroup(assigned, revoked func([]scaleout.GroupPartition)) (func(), error) {
	opts, err := s.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	parts := func(m map[string][]int32) []scaleout.GroupPartition {
		var ps []scaleout.GroupPartition
		for topic, nums := range m {
			for _, n := range nums {
				ps = append(ps, scaleout.GroupPartition{Topic: topic, Partition: n})
			}
		}
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].Topic != ps[j].Topic {
				return ps[i].Topic < ps[j].Topic
			}
			return ps[i].Partition < ps[j].Partition
		})
		return ps
	}
	take := func(_ context.Context, _ *kgo.Client, m map[string][]int32) { revoked(parts(m)) }
	topics := s.cfg.topics
	if s.member.also != "" {
		topics = append(slices.Clone(topics), s.member.also)
	}
	opts = append(opts,
		kgo.ConsumerGroup(s.cfg.group),
		kgo.ConsumeTopics(topics...),
		kgo.Balancers(kgo.CooperativeStickyBalancer()),
		kgo.DisableAutoCommit(),
		kgo.DisableFetchSessions(), // see reader.consume
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, m map[string][]int32) { assigned(parts(m)) }),
		kgo.OnPartitionsRevoked(take),
		kgo.OnPartitionsLost(take), // the group gave them to others: stop at once
	)
	if d := s.cfg.client.sessionTimeout; d > 0 {
		opts = append(opts, kgo.SessionTimeout(d))
	}
	if d := s.cfg.client.heartbeat; d > 0 {
		opts = append(opts, kgo.HeartbeatInterval(d))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	// the member holds the membership only: the partitions' own reads
	// fetch their records
	cl.PauseFetchTopics(topics...)
	s.member.cl.Store(cl)
	return cl.Close, nil
}

// listOnly is listNew for the read of one partition: that partition
// until it is among the splits, checked to exist.
func (r *reader) listOnly(ctx context.Context, tp topicPartition) ([]topicPartition, error) {
	if _, ok := r.byTP[tp]; ok {
		return nil, nil
	}
	details, err := r.adm.ListTopics(ctx, tp.topic)
	if err != nil {
		return nil, fmt.Errorf("table %s: listing the topics: %w", r.src.Table, err)
	}
	d, ok := details[tp.topic]
	if !ok || d.Err != nil || !slices.Contains(d.Partitions.Numbers(), tp.partition) {
		return nil, fmt.Errorf("table %s: topic %s has no partition %d", r.src.Table, tp.topic, tp.partition)
	}
	return []topicPartition{tp}, nil
}
