package kafka

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
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
	res, err := r.adm.CommitOffsets(ctx, r.src.cfg.group, r.saved)
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		r.commitFailures++
		return
	}
	r.saved = nil
}
