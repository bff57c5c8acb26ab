// Package kafkatest runs a Kafka cluster inside a test: franz-go's kfake,
// three brokers, with topics made, filled and read back by the test.
package kafkatest

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Cluster is an in-process Kafka cluster, closed when its test ends.
type Cluster struct {
	c   *kfake.Cluster
	adm *kadm.Client
	cl  *kgo.Client
}

// Start starts a cluster of three brokers.
func Start(t testing.TB) *Cluster {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	require.NoError(t, err)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	require.NoError(t, err)
	k := &Cluster{c: c, cl: cl, adm: kadm.NewClient(cl)}
	t.Cleanup(func() {
		cl.Close()
		c.Close()
	})
	return k
}

// Brokers is the bootstrap servers' option value: host:port,host:port.
func (k *Cluster) Brokers() string { return strings.Join(k.c.ListenAddrs(), ",") }

// CreateTopic makes a topic of n partitions.
func (k *Cluster) CreateTopic(t testing.TB, topic string, partitions int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := k.adm.CreateTopics(ctx, int32(partitions), 1, nil, topic)
	require.NoError(t, err)
	require.NoError(t, res.Error())
}

// Record is a record to produce or one read back.
type Record struct {
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
	Time      time.Time // zero: the producer's clock
	Headers   map[string]string
}

// Produce writes records to a topic, each to its Partition, in order.
func (k *Cluster) Produce(t testing.TB, topic string, recs ...Record) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, cl.ProduceSync(ctx, kgoRecords(topic, recs)...).FirstErr())
}

// ProduceInTransaction writes records as Produce does, in one
// transaction that it commits, or aborts: the topic then holds the
// records and the transaction's markers.
func (k *Cluster) ProduceInTransaction(t testing.TB, topic string, commit bool, recs ...Record) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.TransactionalID("kafkatest-"+topic))
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, cl.BeginTransaction())
	require.NoError(t, cl.ProduceSync(ctx, kgoRecords(topic, recs)...).FirstErr())
	require.NoError(t, cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)))
}

func kgoRecords(topic string, recs []Record) []*kgo.Record {
	out := make([]*kgo.Record, len(recs))
	for i, r := range recs {
		kr := &kgo.Record{Topic: topic, Partition: r.Partition, Key: r.Key, Value: r.Value, Timestamp: r.Time}
		names := make([]string, 0, len(r.Headers))
		for h := range r.Headers {
			names = append(names, h)
		}
		sort.Strings(names)
		for _, h := range names {
			kr.Headers = append(kr.Headers, kgo.RecordHeader{Key: h, Value: []byte(r.Headers[h])})
		}
		out[i] = kr
	}
	return out
}

// ReadAll reads every committed record of a topic (as a read_committed
// consumer sees them), by partition and offset: each partition up to its
// last stable offset when ReadAll starts (the first of a transaction still
// open, as one a killed writer left), or, should the records before that
// offset end in ones read_committed skips, until a second passes with
// nothing new after the first records came. A machine slow to bring the
// first records is waited for.
func (k *Cluster) ReadAll(t testing.TB, topic string) []Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ends, err := k.adm.ListCommittedOffsets(ctx, topic)
	require.NoError(t, err)
	require.NoError(t, ends.Error())
	left := map[int32]int64{} // the end offset of each partition not read to it
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			left[o.Partition] = o.Offset
		}
	})
	// the markers of transactions are kept, to know a partition whose last
	// offsets they are was read to its end
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.c.ListenAddrs()...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	require.NoError(t, err)
	defer cl.Close()
	var out []Record
	for got := false; len(left) > 0; {
		wait := ctx
		if got {
			var stop context.CancelFunc
			wait, stop = context.WithTimeout(ctx, time.Second)
			defer stop()
		}
		fs := cl.PollFetches(wait)
		require.NoError(t, ctx.Err(), "reading topic %s back", topic)
		if got && wait.Err() != nil && fs.NumRecords() == 0 {
			break // what is left before the ends is skipped by read_committed
		}
		got = got || fs.NumRecords() > 0
		fs.EachRecord(func(r *kgo.Record) {
			if end, ok := left[r.Partition]; ok && r.Offset+1 >= end {
				delete(left, r.Partition)
			}
			if r.Attrs.IsControl() {
				return
			}
			rec := Record{Partition: r.Partition, Offset: r.Offset, Key: r.Key, Value: r.Value, Time: r.Timestamp}
			for _, h := range r.Headers {
				if rec.Headers == nil {
					rec.Headers = map[string]string{}
				}
				rec.Headers[h.Key] = string(h.Value)
			}
			out = append(out, rec)
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Partition != out[j].Partition {
			return out[i].Partition < out[j].Partition
		}
		return out[i].Offset < out[j].Offset
	})
	return out
}

// Committed sums the offsets group has committed for topic: with every
// partition read to its end, the number of records in the topic.
func (k *Cluster) Committed(t testing.TB, group, topic string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	offsets, err := k.adm.FetchOffsets(ctx, group)
	if err != nil {
		return 0 // the group is not there yet
	}
	var n int64
	offsets.Each(func(o kadm.OffsetResponse) {
		if o.Topic == topic && o.Err == nil {
			n += o.At
		}
	})
	return n
}

// Members is the number of members group has now.
func (k *Cluster) Members(t testing.TB, group string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	described, err := k.adm.DescribeGroups(ctx, group)
	require.NoError(t, err)
	return len(described[group].Members)
}

// Spread reports whether group is stable with n members, each assigned
// some of the partitions and all of them assigned: its rebalances done.
func (k *Cluster) Spread(t testing.TB, group string, n, partitions int) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	described, err := k.adm.DescribeGroups(ctx, group)
	if err != nil {
		return false
	}
	g := described[group]
	if g.State != "Stable" || len(g.Members) != n {
		return false
	}
	for _, m := range g.Members {
		if c, ok := m.Assigned.AsConsumer(); !ok || len(c.Topics) == 0 {
			return false
		}
	}
	total := 0
	for _, ps := range g.AssignedPartitions() {
		total += len(ps)
	}
	return total == partitions
}
