package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/wsql/wsql/checkpoint"
)

// transaction is an exactly-once sink's open Kafka transaction, as
// Flink's KafkaSink keeps it: its records are written as they come and
// become visible to read_committed consumers when the checkpoint that
// covers them is durable. The checkpoint holds the transaction's producer
// id and epoch, so a restart from it commits the transaction even when
// the process died between saving the checkpoint and committing.
type transaction struct {
	prefix   string // 'sink.transactional-id-prefix'
	part     string // "0", or a scaled-out query's partition
	seq      uint64 // the checkpoint the open transaction is committed with
	produced bool   // the open transaction has records
	// noted is the open transaction as PreCommit found it, for State.
	noted struct {
		producerID int64
		epoch      int16
		produced   bool
	}
}

// id is the open transaction's transactional id: the prefix, the sink's
// part (one sink a query: 0; a scaled-out query's partition, whose run
// has checkpoints of its own) and the checkpoint's. An id per checkpoint,
// as Flink's KafkaSink has: a transaction of a past checkpoint keeps its
// producer's epoch, so committing it again after a restart is seen as the
// retry it is.
func (t *transaction) id() string { return fmt.Sprintf("%s-%s-%d", t.prefix, t.part, t.seq) }

// txnTimeout is how long the brokers keep a transaction open before they
// abort it: longer than a checkpoint interval and a restart, or a restart
// finds the transaction of its checkpoint aborted. Kafka's brokers allow
// at most transaction.max.timeout.ms (15 minutes by default).
const txnTimeout = 15 * time.Minute

// note records the producer id and epoch of the open transaction.
func (t *transaction) note(ctx context.Context, cl *kgo.Client) error {
	id, epoch, err := cl.ProducerID(ctx)
	if err != nil {
		return fmt.Errorf("transactional id %s: %w", t.id(), err)
	}
	t.noted.producerID, t.noted.epoch, t.noted.produced = id, epoch, t.produced
	return nil
}

func (t *transaction) save(e *checkpoint.Encoder) {
	e.String(t.id())
	e.Int(t.noted.producerID)
	e.Int(int64(t.noted.epoch))
	e.Bool(t.noted.produced)
}

// end commits or aborts the open transaction.
func (t *transaction) end(ctx context.Context, cl *kgo.Client, how kgo.TransactionEndTry) error {
	if err := cl.EndTransaction(ctx, how); err != nil {
		return err
	}
	t.produced = false
	return nil
}

// recover commits the transaction of the checkpoint a run resumes from,
// whose commit may not have happened before the process ended: with the
// producer id and epoch the checkpoint holds, as Flink's KafkaCommitter
// does. A commit that did happen is acknowledged again (the id was used
// for no later transaction). The run's next transaction takes the id of
// the transaction the crashed run had open after that checkpoint, which
// aborts it: no checkpoint covers it.
func (t *transaction) recover(ctx context.Context, s *producer, d *checkpoint.Decoder) error {
	if d == nil {
		return nil
	}
	id, producerID, epoch, produced := d.String(), d.Int(), int16(d.Int()), d.Bool()
	if err := d.Err(); err != nil {
		return fmt.Errorf("table %s: the sink's checkpoint state: %w", s.table, err)
	}
	if !strings.HasPrefix(id, t.prefix+"-") {
		return fmt.Errorf("table %s: the checkpoint's transactional id is %s, but the table's prefix is now %s", s.table, id, t.prefix)
	}
	if !produced {
		return nil // nothing to commit
	}
	opts, err := s.cfg.clientOpts()
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return fmt.Errorf("table %s: %w", s.table, err)
	}
	defer cl.Close()
	req := kmsg.NewPtrEndTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = id, producerID, epoch, true
	for attempt := 0; ; attempt++ {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		resp, err := req.RequestWith(ctx, cl)
		cancel()
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		switch {
		case err == nil:
			return nil
		case attempt < 50 && (errors.Is(err, kerr.ConcurrentTransactions) || kerr.IsRetriable(err)):
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return fmt.Errorf("table %s: committing transaction %s of the checkpoint resumed from (producer id %d, epoch %d): %w; if it outlived the brokers' transaction timeout its records were aborted",
			s.table, id, producerID, epoch, err)
	}
}
