package jdbc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
)

// transaction is an append table's transaction per checkpoint, written
// with two-phase commit as Flink's exactly-once JDBC sink (XA) does: the
// rows after a checkpoint go into an open transaction; the next
// checkpoint flushes them and prepares it (PREPARE TRANSACTION, which
// makes it survive a crash of wsql or of the server) before its state is
// saved, and commits it (COMMIT PREPARED) once the checkpoint is durable.
// The checkpoint holds the prepared transaction's id: a restart from it
// commits that transaction if the crash came before its commit, and rolls
// back any other this sink prepared (one of a checkpoint never saved).
// The server must allow prepared transactions (max_prepared_transactions
// above 0).
type transaction struct {
	prefix   string // of this sink's transaction ids
	seq      uint64 // the checkpoint the open transaction is committed with
	written  bool   // the open transaction has rows
	prepared bool   // PreCommit prepared it
	restore  *checkpoint.Decoder
	recover  bool // setup has yet to recover the checkpoint's transaction
}

func newTransaction(s *tableSink, run *connector.SinkRun) *transaction {
	h := sha256.Sum256([]byte(run.Checkpoint.Path + "\x00" + run.Part + "\x00" + s.cfg.table))
	t := &transaction{prefix: "wsql_" + hex.EncodeToString(h[:8]) + "_", seq: 1, recover: true}
	if r := run.Checkpoint.Restore; r != nil {
		t.restore = exec.SinkState(r)
		t.seq = r.ID + 1
	}
	return t
}

func (t *transaction) gid() string { return fmt.Sprintf("%s%d", t.prefix, t.seq) }

// open ends what a crashed run left (once) and begins the transaction.
func (t *transaction) open(ctx context.Context, w *sinkWriter) error {
	if t.recover {
		if err := t.recoverPrepared(ctx, w); err != nil {
			return w.s.wrap("recovering the checkpoint's transaction", err)
		}
		t.recover = false
	}
	if err := w.exec(ctx, "BEGIN"); err != nil {
		return w.s.wrap("beginning a transaction", err)
	}
	return nil
}

// recoverPrepared commits the prepared transaction of the checkpoint
// resumed from and rolls back the sink's others.
func (t *transaction) recoverPrepared(ctx context.Context, w *sinkWriter) error {
	var keep string
	if d := t.restore; d != nil {
		gid, prepared := d.String(), d.Bool()
		if err := d.Err(); err != nil {
			return fmt.Errorf("the sink's checkpoint state: %w", err)
		}
		if prepared {
			keep = gid
		}
	}
	res := w.conn.ExecParams(ctx, "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND starts_with(gid, $1)",
		[][]byte{[]byte(t.prefix)}, nil, nil, nil).Read()
	if res.Err != nil {
		return res.Err
	}
	for _, r := range res.Rows {
		gid := string(r[0])
		how := "ROLLBACK PREPARED "
		if gid == keep {
			how = "COMMIT PREPARED "
		}
		if err := w.exec(ctx, how+quoteLiteral(gid)); err != nil {
			return err
		}
	}
	return nil
}

// committingWriter is the writer of a run with checkpoints: each
// flushes the buffer; an append table's also prepares and then commits
// the checkpoint's transaction.
type committingWriter struct {
	*sinkWriter
	a *appendRows // nil for an upsert table
}

// PreCommit flushes the buffer (into the open transaction of an append
// table, which it then prepares).
func (c *committingWriter) PreCommit() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed != nil {
		return c.failed
	}
	if err := c.flushLocked(); err != nil {
		return err
	}
	if c.a == nil {
		return nil
	}
	t := c.a.txn
	if t.prepared {
		return c.s.wrap("preparing a transaction", fmt.Errorf("the transaction of checkpoint %d is prepared but was not committed", t.seq))
	}
	if !t.written {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := c.exec(ctx, "PREPARE TRANSACTION "+quoteLiteral(t.gid())); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return c.s.wrap("preparing the checkpoint's transaction", err)
		}
		return c.s.wrap("preparing the checkpoint's transaction (the server must allow prepared transactions: max_prepared_transactions above 0)", err)
	}
	t.prepared, c.holding = true, true
	return nil
}

// State puts the prepared transaction's id in the checkpoint.
func (c *committingWriter) State(e *checkpoint.Encoder) {
	if c.a == nil {
		return
	}
	e.String(c.a.txn.gid())
	e.Bool(c.a.txn.prepared)
}

// Commit commits the prepared transaction of the checkpoint just made
// durable and begins the next.
func (c *committingWriter) Commit() error {
	if c.a == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.a.txn
	if t.prepared {
		ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		defer cancel()
		if err := c.exec(ctx, "COMMIT PREPARED "+quoteLiteral(t.gid())); err != nil {
			return c.s.wrap("committing the checkpoint's transaction", err)
		}
		if err := c.exec(ctx, "BEGIN"); err != nil {
			return c.s.wrap("beginning a transaction", err)
		}
		t.prepared, t.written, c.holding = false, false, false
	}
	t.seq++
	return nil
}

// quoteLiteral quotes a PostgreSQL string literal.
func quoteLiteral(s string) string {
	b := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return string(append(b, '\''))
}
