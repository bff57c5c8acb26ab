package kafka

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The offsets a read commits to its consumer group ('properties.group.id')
// are those of its last durable checkpoint, committed once the checkpoint
// is, as Flink's Kafka source does: for monitoring the group's lag with
// Kafka's tools, and for a later read that starts at 'group-offsets'.
// A resume from a checkpoint reads the checkpoint's offsets, never the
// group's, so a failed commit loses nothing: it is counted and retried
// with the next checkpoint.

// noteOffsets remembers the offsets SaveState put in a checkpoint.
func (r *reader) noteOffsets() {
	if r.src.cfg.group == "" {
		return
	}
	r.saved = kadm.Offsets{}
	for _, sp := range r.splits {
		r.saved.Add(kadm.Offset{Topic: sp.topic, Partition: sp.partition, At: sp.next, LeaderEpoch: -1})
	}
}

// CheckpointComplete commits the offsets of the checkpoint just made
// durable to the consumer group.
func (r *reader) CheckpointComplete() {
	if r.saved == nil || r.adm == nil {
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, 10*time.Second)
	defer cancel()
	var err error
	if member := r.src.member.cl.Load(); member != nil {
		// a group with members takes commits from its members only
		err = commitAsMember(ctx, member, r.saved)
	} else {
		var res kadm.OffsetResponses
		if res, err = r.adm.CommitOffsets(ctx, r.src.cfg.group, r.saved); err == nil {
			err = res.Error()
		}
	}
	if err != nil {
		r.commitFailures++
		return
	}
	r.saved = nil
}

// commitAsMember commits offsets through the member client of a
// scaled-out read, in its generation of the group.
func commitAsMember(ctx context.Context, member *kgo.Client, offsets kadm.Offsets) error {
	uncommitted := map[string]map[int32]kgo.EpochOffset{}
	offsets.Each(func(o kadm.Offset) {
		if uncommitted[o.Topic] == nil {
			uncommitted[o.Topic] = map[int32]kgo.EpochOffset{}
		}
		uncommitted[o.Topic][o.Partition] = kgo.EpochOffset{Epoch: o.LeaderEpoch, Offset: o.At}
	})
	var err error
	member.CommitOffsetsSync(ctx, uncommitted, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, e error) {
		if err = e; err != nil {
			return
		}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if e := kerr.ErrorForCode(p.ErrorCode); e != nil && err == nil {
					err = e
				}
			}
		}
	})
	return err
}
