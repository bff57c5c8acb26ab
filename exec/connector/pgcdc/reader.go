package pgcdc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/windowop"
)

// position is how far a read has handed out the table's changes: every
// transaction that committed before done, and the first n changes of the
// transaction that commits at txn (none when txn is 0). After the
// snapshot, done starts at the slot's consistent point.
type position struct {
	done pglogrepl.LSN
	txn  pglogrepl.LSN
	n    int64
}

// reader is the BatchReader of a Source: the snapshot's rows as +I, then
// the changes of the replication stream, a batch at a time.
type reader struct {
	src *Source
	mem memory.Allocator
	ctx context.Context

	conn *pgx.Conn      // checks the table; reads the snapshot, then is closed
	repl *pgconn.PgConn // the replication connection
	tx   pgx.Tx         // the snapshot's transaction
	rows pgx.Rows       // the snapshot's rows; nil once read
	snap *tupleLayout   // the snapshot's columns
	view *snapshotView  // what the snapshots handed out, while one is read (snapshot.go)
	rel  *tupleLayout   // the columns of the table's last relation message
	pg   map[string]pgColumn

	b     *array.RecordBuilder // the pending rows, over src.data
	kinds []windowop.RowKind

	at     position // of the rows handed out
	pend   position // once the pending rows are handed out
	resume position // of the checkpoint the read resumed from: what it covers is skipped
	cur    struct {
		open  bool
		final pglogrepl.LSN // the transaction's commit LSN
		n     int64         // its changes of the table so far
		time  time.Time
	}

	// saved is the position of the last checkpoint; durable is the done
	// of the last one made durable, the LSN confirmed to the server once
	// the read has seen a checkpoint.
	saved         position
	durable       pglogrepl.LSN
	checkpointing bool
	nextStatus    time.Time

	stats exec.SourceStats
}

// pollWait is how long a read waits for a change before it hands out a
// step with nothing, so the driver can take its split idle; linger is how
// long pending rows wait for more before they are handed out.
const (
	pollWait = 200 * time.Millisecond
	linger   = 20 * time.Millisecond
	slotWait = 10 * time.Second
)

// snapshotState marks a checkpoint taken during the snapshot.
const (
	stateSnapshot  = 1
	stateStreaming = 2
)

func openReader(s *Source, mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	r := &reader{src: s, mem: mem, ctx: context.Background(), b: array.NewRecordBuilder(mem, s.data)}
	if err := r.open(at); err != nil {
		r.Close()
		return nil, fmt.Errorf("table %s (%s %s): %s", s.Table, Name, s.cfg.shown, s.cfg.redact(err.Error()))
	}
	return r, nil
}

// open checks the table and the publication, then starts the snapshot
// or the stream where the checkpoint at says.
func (r *reader) open(at *checkpoint.Decoder) error {
	ctx, cancel := context.WithTimeout(r.ctx, time.Minute)
	defer cancel()
	cfg := r.src.cfg
	var err error
	if r.conn, err = pgx.ConnectConfig(ctx, r.plainConfig()); err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	if err := r.checkTable(ctx); err != nil {
		return err
	}
	if err := r.ensurePublication(ctx); err != nil {
		return err
	}
	rc := cfg.conn.Copy()
	rc.RuntimeParams["replication"] = "database"
	if r.repl, err = pgconn.ConnectConfig(ctx, rc); err != nil {
		return fmt.Errorf("opening a replication connection (the user needs the REPLICATION attribute, and pg_hba.conf a line for it): %w", err)
	}
	slot, err := r.slotState(ctx)
	if err != nil {
		return err
	}
	if at != nil {
		state := at.Uint()
		r.resume = position{done: pglogrepl.LSN(at.Uint()), txn: pglogrepl.LSN(at.Uint()), n: at.Int()}
		if err := at.Err(); err != nil {
			return err
		}
		if state == stateSnapshot {
			// a new snapshot, turned into changes of what was handed out
			r.view, r.resume = loadSnapshotView(at), position{}
			if err := at.Err(); err != nil {
				return err
			}
			return r.startSnapshot(ctx, slot)
		}
		if !slot.exists {
			return fmt.Errorf("replication slot %s is gone, and with it the changes after the checkpoint: start the query without the checkpoint (a new snapshot)", cfg.slot)
		}
		r.at = r.resume
		r.pend, r.durable = r.at, r.at.done
		return r.startStream(ctx)
	}
	if cfg.startup == modeLatest {
		if slot.exists {
			r.at = position{done: slot.confirmed}
		} else {
			res, err := pglogrepl.CreateReplicationSlot(ctx, r.repl, cfg.slot, pgoutput, pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
			if err != nil {
				return fmt.Errorf("creating replication slot %s: %w", cfg.slot, err)
			}
			if r.at.done, err = pglogrepl.ParseLSN(res.ConsistentPoint); err != nil {
				return err
			}
		}
		r.pend = r.at
		return r.startStream(ctx)
	}
	return r.startSnapshot(ctx, slot)
}

// plainConfig is the configuration of the connection that checks the
// table and reads the snapshot.
func (r *reader) plainConfig() *pgx.ConnConfig {
	cfg, _ := pgx.ParseConfig("")
	cfg.Config = *r.src.cfg.conn.Copy()
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return cfg
}

// slot is what pg_replication_slots says of the read's slot.
type slot struct {
	exists    bool
	confirmed pglogrepl.LSN
}

func (r *reader) slotState(ctx context.Context) (slot, error) {
	cfg := r.src.cfg
	var plugin, db string
	var confirmed *string
	var active bool
	// a reader killed a moment ago may hold the slot until the server
	// sees its connection gone
	for wait := time.Now().Add(slotWait); ; time.Sleep(50 * time.Millisecond) {
		err := r.conn.QueryRow(ctx, "SELECT coalesce(plugin, ''), coalesce(database::text, ''), confirmed_flush_lsn::text, active FROM pg_replication_slots WHERE slot_name = $1", cfg.slot).Scan(&plugin, &db, &confirmed, &active)
		if errors.Is(err, pgx.ErrNoRows) {
			return slot{}, nil
		}
		if err != nil {
			return slot{}, fmt.Errorf("reading replication slot %s: %w", cfg.slot, err)
		}
		if !active || time.Now().After(wait) {
			break
		}
	}
	if plugin != pgoutput {
		return slot{}, fmt.Errorf("replication slot %s decodes with '%s', not '%s': name another slot in '%s'", cfg.slot, plugin, pgoutput, keySlot)
	}
	if db != r.src.cfg.conn.Database {
		return slot{}, fmt.Errorf("replication slot %s is of database %s, not %s: name another slot in '%s'", cfg.slot, db, r.src.cfg.conn.Database, keySlot)
	}
	if active {
		return slot{}, fmt.Errorf("replication slot %s is in use by another reader; each postgres-cdc read needs a slot of its own ('%s')", cfg.slot, keySlot)
	}
	s := slot{exists: true}
	if confirmed != nil {
		lsn, err := pglogrepl.ParseLSN(*confirmed)
		if err != nil {
			return slot{}, err
		}
		s.confirmed = lsn
	}
	return s, nil
}

// startSnapshot (re)creates the slot, exporting the snapshot it starts
// at, and opens the snapshot's rows in a transaction that imports it:
// the rows are the table as of the slot's consistent point, and the
// stream after them starts there, so no change is lost or read twice. A
// slot left by an earlier read is dropped first: its position is of rows
// this read does not have.
func (r *reader) startSnapshot(ctx context.Context, s slot) error {
	cfg := r.src.cfg
	if s.exists {
		if err := pglogrepl.DropReplicationSlot(ctx, r.repl, cfg.slot, pglogrepl.DropReplicationSlotOptions{}); err != nil {
			return fmt.Errorf("dropping replication slot %s for a new snapshot: %w", cfg.slot, err)
		}
	}
	res, err := pglogrepl.CreateReplicationSlot(ctx, r.repl, cfg.slot, pgoutput, pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "EXPORT_SNAPSHOT"})
	if err != nil {
		return fmt.Errorf("creating replication slot %s: %w", cfg.slot, err)
	}
	if r.at.done, err = pglogrepl.ParseLSN(res.ConsistentPoint); err != nil {
		return err
	}
	r.pend = r.at
	if r.tx, err = r.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}); err != nil {
		return err
	}
	if _, err := r.tx.Exec(ctx, "SET TRANSACTION SNAPSHOT "+quoteLiteral(res.SnapshotName)); err != nil {
		return fmt.Errorf("importing the slot's snapshot: %w", err)
	}
	sel, layout := r.snapshotQuery()
	r.snap = layout
	if r.view == nil {
		r.view = newSnapshotView()
	}
	// the rows are read as the batches are made, in the transaction
	if r.rows, err = r.tx.Query(r.ctx, sel); err != nil {
		return fmt.Errorf("reading the snapshot: %w", err)
	}
	return nil
}

// startStream starts the replication stream from r.at.done.
func (r *reader) startStream(ctx context.Context) error {
	cfg := r.src.cfg
	args := []string{"proto_version '1'", "publication_names " + quoteLiteral(quoteIdent(cfg.publication))}
	if err := pglogrepl.StartReplication(ctx, r.repl, cfg.slot, r.at.done, pglogrepl.StartReplicationOptions{Mode: pglogrepl.LogicalReplication, PluginArgs: args}); err != nil {
		return fmt.Errorf("starting replication from slot %s at %s: %w", cfg.slot, r.at.done, err)
	}
	r.nextStatus = time.Now().Add(cfg.heartbeat)
	if r.conn != nil { // its work is done: the table checked, the snapshot read
		_ = r.conn.Close(ctx)
		r.conn = nil
	}
	return nil
}

func (r *reader) Follow(ctx context.Context) { r.ctx = ctx }

func (r *reader) NumSplits() int { return 1 }

func (r *reader) Stats() exec.SourceStats { return r.stats }

func (r *reader) Next() (exec.SplitBatch, error) {
	b, err := r.next()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("table %s (%s %s): %s", r.src.Table, Name, r.src.cfg.shown, r.src.cfg.redact(err.Error()))
	}
	return b, err
}

func (r *reader) next() (exec.SplitBatch, error) {
	if r.rows != nil {
		return r.nextSnapshot()
	}
	for {
		pending := len(r.kinds)
		if pending >= r.src.BatchSize {
			return r.flush()
		}
		if err := r.statusIfDue(); err != nil {
			return exec.SplitBatch{}, err
		}
		wait := pollWait
		if pending > 0 {
			wait = linger
		}
		ctx, cancel := context.WithTimeout(r.ctx, wait)
		msg, err := r.repl.ReceiveMessage(ctx)
		cancel()
		if err != nil {
			if r.ctx.Err() != nil {
				if pending > 0 {
					return r.flush()
				}
				return exec.SplitBatch{}, r.ctx.Err()
			}
			if pgconn.Timeout(err) {
				if pending > 0 {
					return r.flush()
				}
				r.at = r.pend // over transactions without rows of the table
				return exec.SplitBatch{}, nil
			}
			return exec.SplitBatch{}, fmt.Errorf("reading the replication stream: %w", err)
		}
		if err := r.handle(msg); err != nil {
			return exec.SplitBatch{}, err
		}
	}
}

// nextSnapshot hands out the snapshot's next rows as +I; after its last
// rows, the stream starts.
func (r *reader) nextSnapshot() (exec.SplitBatch, error) {
	for len(r.kinds) < r.src.BatchSize && r.rows.Next() {
		if err := r.snapshotRow(r.rows.RawValues()); err != nil {
			return exec.SplitBatch{}, err
		}
	}
	if len(r.kinds) < r.src.BatchSize {
		r.rows.Close()
		if err := r.rows.Err(); err != nil {
			return exec.SplitBatch{}, fmt.Errorf("reading the snapshot: %w", err)
		}
		if err := r.retractUnvisited(); err != nil {
			return exec.SplitBatch{}, err
		}
		r.rows, r.view = nil, nil
		ctx, cancel := context.WithTimeout(r.ctx, time.Minute)
		defer cancel()
		if err := r.tx.Commit(ctx); err != nil {
			return exec.SplitBatch{}, err
		}
		r.tx = nil
		if err := r.startStream(ctx); err != nil {
			return exec.SplitBatch{}, err
		}
	}
	if len(r.kinds) == 0 {
		return exec.SplitBatch{}, nil
	}
	return r.flush()
}

// handle takes one message of the replication stream.
func (r *reader) handle(m pgproto3.BackendMessage) error {
	cd, ok := m.(*pgproto3.CopyData)
	if !ok {
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			return pgconn.ErrorResponseToPgError(e)
		}
		return nil
	}
	switch cd.Data[0] {
	case pglogrepl.PrimaryKeepaliveMessageByteID:
		k, err := pglogrepl.ParsePrimaryKeepaliveMessage(cd.Data[1:])
		if err != nil {
			return err
		}
		if !r.cur.open && len(r.kinds) == 0 && k.ServerWALEnd > r.pend.done {
			// nothing of the table before the server's end: a restart
			// may start there, and the server may free the WAL before it
			r.pend = position{done: k.ServerWALEnd}
			r.at = r.pend
		}
		if k.ReplyRequested {
			r.nextStatus = time.Time{}
		}
	case pglogrepl.XLogDataByteID:
		x, err := pglogrepl.ParseXLogData(cd.Data[1:])
		if err != nil {
			return err
		}
		msg, err := pglogrepl.Parse(x.WALData)
		if err != nil {
			return err
		}
		return r.change(msg)
	}
	return nil
}

// change takes one message of pgoutput.
func (r *reader) change(m pglogrepl.Message) error {
	switch m := m.(type) {
	case *pglogrepl.BeginMessage:
		r.cur.open, r.cur.final, r.cur.n, r.cur.time = true, m.FinalLSN, 0, m.CommitTime
	case *pglogrepl.CommitMessage:
		r.cur.open = false
		if m.TransactionEndLSN > r.pend.done {
			r.pend = position{done: m.TransactionEndLSN}
		}
		if len(r.kinds) == 0 {
			r.at = r.pend
		}
	case *pglogrepl.RelationMessage:
		if m.Namespace != r.src.cfg.schema || m.RelationName != r.src.cfg.table {
			return nil
		}
		l, err := r.relationLayout(m)
		if err != nil {
			return err
		}
		r.rel = l
	case *pglogrepl.InsertMessage:
		if r.mine(m.RelationID) && r.counted() {
			vals, err := values(m.Tuple, nil)
			if err != nil {
				return err
			}
			return r.appendRow(windowop.Insert, r.rel, vals, r.cur.time)
		}
	case *pglogrepl.UpdateMessage:
		if r.mine(m.RelationID) && r.counted() {
			if m.OldTupleType != pglogrepl.UpdateMessageTupleTypeOld {
				return r.noFullIdentity("UPDATE")
			}
			old, err := values(m.OldTuple, nil)
			if err != nil {
				return err
			}
			vals, err := values(m.NewTuple, old)
			if err != nil {
				return err
			}
			if err := r.appendRow(windowop.UpdateBefore, r.rel, old, r.cur.time); err != nil {
				return err
			}
			return r.appendRow(windowop.UpdateAfter, r.rel, vals, r.cur.time)
		}
	case *pglogrepl.DeleteMessage:
		if r.mine(m.RelationID) && r.counted() {
			if m.OldTupleType != pglogrepl.DeleteMessageTupleTypeOld {
				return r.noFullIdentity("DELETE")
			}
			old, err := values(m.OldTuple, nil)
			if err != nil {
				return err
			}
			return r.appendRow(windowop.Delete, r.rel, old, r.cur.time)
		}
	case *pglogrepl.TruncateMessage:
		for _, id := range m.RelationIDs {
			if r.mine(id) {
				return fmt.Errorf("table %s was truncated (at %s), which postgres-cdc cannot read: the change does not say which rows it removed. Start the query again without its checkpoint, for a new snapshot", r.src.cfg.qualified(), r.cur.final)
			}
		}
	}
	return nil
}

// mine reports a change of the read's table, whose relation message came
// first (pgoutput sends it before a table's first change in a stream).
func (r *reader) mine(id uint32) bool { return r.rel != nil && r.rel.id == id }

// counted counts a change of the table in its transaction and reports
// whether it is new: not among those the checkpoint the read resumed
// from covers.
func (r *reader) counted() bool {
	r.cur.n++
	r.pend = position{done: r.pend.done, txn: r.cur.final, n: r.cur.n}
	covered := r.cur.final < r.resume.done || r.cur.final == r.resume.txn && r.cur.n <= r.resume.n
	return !covered
}

func (r *reader) noFullIdentity(what string) error {
	return fmt.Errorf("an %s of table %s came without the row before it: postgres-cdc needs REPLICA IDENTITY FULL (ALTER TABLE %s REPLICA IDENTITY FULL)", what, r.src.cfg.qualified(), r.src.cfg.qualified())
}

// values are a tuple's column values in text form, nil for NULL; an
// unchanged TOASTed value is old's (the row before an update).
func values(t *pglogrepl.TupleData, old [][]byte) ([][]byte, error) {
	if t == nil {
		return nil, fmt.Errorf("a change without its row")
	}
	out := make([][]byte, len(t.Columns))
	for i, c := range t.Columns {
		switch c.DataType {
		case pglogrepl.TupleDataTypeNull:
		case pglogrepl.TupleDataTypeToast:
			if i >= len(old) || old[i] == nil {
				return nil, fmt.Errorf("an unchanged TOASTed value without the row before it (REPLICA IDENTITY FULL)")
			}
			out[i] = old[i]
		case pglogrepl.TupleDataTypeText:
			out[i] = c.Data
			if out[i] == nil {
				out[i] = []byte{}
			}
		default:
			return nil, fmt.Errorf("a value in binary form, which the read does not ask for")
		}
	}
	return out, nil
}

// appendRow appends a change to the pending rows: the table's columns
// from vals by layout l, the metadata columns from the read.
func (r *reader) appendRow(kind windowop.RowKind, l *tupleLayout, vals [][]byte, at time.Time) error {
	for i, c := range r.src.columns {
		fb := r.b.Field(i)
		if c.meta != "" {
			r.appendMeta(fb, c.meta, at)
			continue
		}
		j := l.index[i]
		if j >= len(vals) {
			return fmt.Errorf("a row of %d columns, without column %s", len(vals), c.name)
		}
		v := vals[j]
		if v == nil {
			fb.AppendNull()
			continue
		}
		if err := appendText(fb, v); err != nil {
			return fmt.Errorf("column %s: %v", c.name, err)
		}
	}
	r.kinds = append(r.kinds, kind)
	return nil
}

func (r *reader) appendMeta(b array.Builder, key string, at time.Time) {
	cfg := r.src.cfg
	switch key {
	case metaOpTS:
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(at.UnixMilli()))
	case metaTable:
		b.(*array.StringBuilder).Append(cfg.table)
	case metaSchema:
		b.(*array.StringBuilder).Append(cfg.schema)
	case metaDatabase:
		b.(*array.StringBuilder).Append(cfg.conn.Database)
	}
}

// flush hands out the pending rows as a batch.
func (r *reader) flush() (exec.SplitBatch, error) {
	data := r.b.NewRecordBatch()
	defer data.Release()
	cols := append([]arrow.Array{windowop.RowKindColumn(r.mem, r.kinds)}, data.Columns()...)
	for _, c := range cols[1:] {
		c.Retain()
	}
	defer expr.ReleaseAll(cols)
	rec := array.NewRecordBatch(r.src.Schema, cols, int64(len(r.kinds)))
	r.stats.Rows += int64(len(r.kinds))
	r.kinds = r.kinds[:0]
	if r.rows == nil {
		r.at = r.pend
	}
	return exec.SplitBatch{Record: rec}, nil
}

// statusIfDue tells the server how far the read is confirmed when it is
// time to, or the server asked.
func (r *reader) statusIfDue() error {
	if time.Now().Before(r.nextStatus) {
		return nil
	}
	return r.sendStatus()
}

// sendStatus confirms the LSN the server may free the WAL before: with
// checkpoints, that of the last durable one, so a restart from it finds
// its changes; without, what was handed out.
func (r *reader) sendStatus() error {
	lsn := r.at.done
	if r.checkpointing {
		lsn = r.durable
	}
	r.nextStatus = time.Now().Add(r.src.cfg.heartbeat)
	if err := pglogrepl.SendStandbyStatusUpdate(r.ctx, r.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: lsn}); err != nil {
		return fmt.Errorf("confirming %s to the server: %w", lsn, err)
	}
	return nil
}

// SaveState writes the position of the rows handed out: a resume skips
// the changes it covers.
func (r *reader) SaveState(e *checkpoint.Encoder) error {
	state := uint64(stateStreaming)
	if r.rows != nil {
		state = stateSnapshot
	}
	e.Uint(state)
	e.Uint(uint64(r.at.done))
	e.Uint(uint64(r.at.txn))
	e.Int(r.at.n)
	if r.rows != nil {
		r.view.save(e)
	}
	r.saved, r.checkpointing = r.at, true
	return nil
}

// CheckpointComplete confirms the position of the checkpoint just made
// durable to the server.
func (r *reader) CheckpointComplete() {
	if r.saved.done <= r.durable {
		return
	}
	r.durable = r.saved.done
	if r.repl != nil && r.rows == nil {
		_ = r.sendStatus() // a failure shows at the next read
	}
}

func (r *reader) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if r.rows != nil {
		r.rows.Close()
		r.rows = nil
	}
	if r.tx != nil {
		_ = r.tx.Rollback(ctx)
		r.tx = nil
	}
	if r.conn != nil {
		_ = r.conn.Close(ctx)
		r.conn = nil
	}
	if r.repl != nil {
		_ = r.repl.Close(ctx)
		r.repl = nil
	}
	if r.b != nil {
		r.b.Release()
		r.b = nil
	}
	return nil
}
