package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
)

// producer writes a run's records to Kafka with a delivery guarantee: a
// table sink's, or a scaled-out query's repartition topic's. With
// at-least-once it waits for every record before each checkpoint is
// taken and at the end; exactly-once writes each checkpoint's records in
// a transaction of their own, committed once the checkpoint is durable.
type producer struct {
	table     string // named in errors
	cfg       *config
	guarantee string
	cl        *kgo.Client
	ctx       context.Context

	mu       sync.Mutex
	firstErr error

	// checkpoints is set when the run takes checkpoints: an exactly-once
	// producer commits at each and aborts what is left at Close; without
	// them it commits once, at Close.
	checkpoints bool
	txn         *transaction // exactly-once: the open transaction
	opts        []kgo.Opt    // the client's, for each transaction's producer
}

// openProducer starts a run's producer with the client options opts;
// prefix is the transactional ids' ('sink.transactional-id-prefix').
func openProducer(ctx context.Context, table string, cfg *config, guarantee, prefix string, opts []kgo.Opt, run *connector.SinkRun) (*producer, error) {
	p := &producer{table: table, cfg: cfg, guarantee: guarantee, ctx: ctx, checkpoints: run.Checkpoint != nil, opts: opts}
	if guarantee != exactlyOnce {
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		p.cl = cl
		return p, nil
	}
	// a transactional id per checkpoint, from the one after the checkpoint
	// resumed from: the first transaction's takes the id of whatever the
	// run that crashed left open, and aborts it
	p.txn = &transaction{prefix: prefix, part: "0", seq: 1}
	if run.Part != "" {
		p.txn.part = run.Part // a scaled-out query's partition: its own ids
	}
	if run.Checkpoint != nil && run.Checkpoint.Restore != nil {
		if err := p.txn.recover(ctx, p, exec.SinkState(run.Checkpoint.Restore)); err != nil {
			return nil, err
		}
		p.txn.seq = run.Checkpoint.Restore.ID + 1
	}
	if err := p.begin(); err != nil {
		return nil, err
	}
	return p, nil
}

// begin opens the transaction of the next checkpoint, with a producer of
// its own transactional id.
func (p *producer) begin() error {
	cl, err := kgo.NewClient(append(p.opts, kgo.TransactionalID(p.txn.id()), kgo.TransactionTimeout(txnTimeout))...)
	if err == nil {
		if err = cl.BeginTransaction(); err != nil {
			cl.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("table %s: %w", p.table, err)
	}
	p.cl = cl
	return nil
}

// produce writes r, asynchronously; a failure is returned by a later call.
func (p *producer) produce(r *kgo.Record) {
	if p.txn != nil {
		p.txn.produced = true
	}
	p.cl.Produce(p.ctx, r, p.produced)
}

func (p *producer) produced(r *kgo.Record, err error) {
	if err == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.firstErr == nil {
		p.firstErr = fmt.Errorf("table %s: writing to topic %s: %w", p.table, r.Topic, err)
	}
}

func (p *producer) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.firstErr
}

// PreCommit waits for the records written (at-least-once, exactly-once),
// so a checkpoint taken after it never stands for a record not written.
// An exactly-once producer also notes its open transaction, which State
// puts in the checkpoint.
func (p *producer) PreCommit() error {
	if p.guarantee == "none" {
		return p.err()
	}
	if err := p.flush(); err != nil {
		return err
	}
	if p.txn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), txnCallTimeout)
		defer cancel()
		return p.txn.note(ctx, p.cl)
	}
	return nil
}

// txnCallTimeout bounds a transaction's calls at a checkpoint. They run
// under a context of their own, not the run's: the last checkpoint of a
// run that is being stopped must still commit, or the transaction its
// saved state names would be aborted at Close.
const txnCallTimeout = 30 * time.Second

func (p *producer) flush() error {
	if err := p.cl.Flush(context.Background()); err != nil {
		return err
	}
	return p.err()
}

// State puts the open transaction in the checkpoint: a restart from it
// commits that transaction before writing anything (exactly-once).
func (p *producer) State(e *checkpoint.Encoder) {
	if p.txn != nil {
		p.txn.save(e)
	}
}

// Commit commits the transaction of the checkpoint just made durable and
// opens the next (exactly-once).
func (p *producer) Commit() error {
	if p.txn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), txnCallTimeout)
	defer cancel()
	if err := p.txn.end(ctx, p.cl, kgo.TryCommit); err != nil {
		return fmt.Errorf("table %s: committing a transaction: %w", p.table, err)
	}
	p.cl.Close()
	p.cl = nil
	p.txn.seq++
	return p.begin()
}

// Close waits for the records produced. An exactly-once producer without
// checkpoints commits its one transaction; with them, what the last
// checkpoint did not commit is aborted: a restart writes it again.
func (p *producer) Close() error {
	if p.cl == nil {
		return writer.ErrWriterClosed
	}
	defer func() {
		p.cl.Close()
		p.cl = nil
	}()
	if p.txn != nil {
		how := kgo.TryCommit
		if p.checkpoints {
			how = kgo.TryAbort
		} else if err := p.flush(); err != nil {
			return err
		}
		return p.txn.end(context.Background(), p.cl, how)
	}
	err := p.flush()
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}
