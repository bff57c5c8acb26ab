package wsql

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector/gotable"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// Tables registered from Go are declared with CREATE TABLE like any other
// (columns, computed columns, WATERMARK), without a 'connector' option:
// the Go program is their connector.

// CreateReaderTable declares a table read from r in the table's 'format'
// ('csv' or 'json', with that format's options), as one split. The first
// query over the table reads r to its end; a second one is an error, since
// a reader cannot rewind. r is not closed.
//
//	e.CreateReaderTable(ctx, `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING,
//	    WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('format' = 'csv')`, resp.Body)
func (e *Engine) CreateReaderTable(ctx context.Context, ddl string, r io.Reader) error {
	_, err := e.createGoTable(ctx, ddl, func(t *catalog.Table) (catalog.Attachment, error) {
		return &gotable.Reader{Input: textsource.NewReaderInput(r, "table "+t.Name)}, nil
	})
	return err
}

// CreateRecordReaderTable declares a table whose rows are the batches of
// rr, as one split. rr's schema must have the table's physical columns in
// order, by name and Arrow type (TIMESTAMP(3) is timestamp[ms],
// TIMESTAMP_LTZ(3) timestamp[ms, tz=UTC], STRING utf8, and so on). One
// query reads it, once, and releases rr when it ends.
func (e *Engine) CreateRecordReaderTable(ctx context.Context, ddl string, rr array.RecordReader) error {
	_, err := e.createGoTable(ctx, ddl, func(t *catalog.Table) (catalog.Attachment, error) {
		if err := gotable.CheckSchema(rr.Schema(), planner.SourceSchema(t)); err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s: the array.RecordReader does not fit: %v", t.Name, err)
		}
		return &gotable.Records{Source: gotable.NewRecordReaderSource(rr)}, nil
	})
	return err
}

// SinkFunc receives the result batches of an INSERT INTO a sink table
// registered with CreateSinkTable, as windows fire. The batch has the sink
// table's column names, in its order, after the row-kind column `op` when
// the query produces an update stream (early or late firing). It is valid
// for the call; Retain it to keep it. ctx is the INSERT's. An error stops
// the INSERT, which returns it.
type SinkFunc func(ctx context.Context, batch RecordBatch) error

// CreateSinkTable declares a table that INSERT INTO writes to write.
//
//	e.CreateSinkTable(ctx, `CREATE TABLE alerts (usr STRING, n BIGINT)`, wsql.SendTo(ch))
//	go e.Exec(ctx, `INSERT INTO alerts SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
func (e *Engine) CreateSinkTable(ctx context.Context, ddl string, write SinkFunc) error {
	_, err := e.createGoTable(ctx, ddl, func(t *catalog.Table) (catalog.Attachment, error) {
		for _, c := range t.Columns {
			if c.Computed != nil {
				return nil, sql.Errorf(sql.ErrInvalid, c.At, "a sink table has no computed columns")
			}
		}
		if t.Watermark != nil {
			return nil, sql.Errorf(sql.ErrInvalid, t.Watermark.At, "a sink table has no WATERMARK")
		}
		return &gotable.Callback{Sink: &gotable.CallbackSink{Write: write, Table: t.Name}}, nil
	})
	return err
}

// SendTo is a SinkFunc that sends every batch on ch, retained: the
// receiver owns it and must Release it. Sending waits for the receiver,
// and gives up when the INSERT is cancelled.
func SendTo(ch chan<- RecordBatch) SinkFunc {
	return func(ctx context.Context, b RecordBatch) error {
		b.Retain()
		select {
		case ch <- b:
			return nil
		case <-ctx.Done():
			b.Release()
			return ctx.Err()
		}
	}
}

// releaseAttached drops what a table pushed from Go still holds.
func releaseAttached(t *catalog.Table) {
	if t.Attached != nil {
		t.Attached.Release()
	}
}

// createGoTable declares the table of ddl (one CREATE TABLE without a
// 'connector' option) with what attach makes for it.
func (e *Engine) createGoTable(ctx context.Context, ddl string, attach func(*catalog.Table) (catalog.Attachment, error)) (_ *catalog.Table, err error) {
	defer pipeline.CatchPanic(&err)
	_, end, err := e.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	stmts, err := sql.Parse(ddl)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("wsql: a table registered from Go is declared by one CREATE TABLE statement, not %d statements", len(stmts))
	}
	ct, ok := stmts[0].(*sql.CreateTable)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, stmts[0].Pos(), "a table registered from Go is declared by CREATE TABLE")
	}
	if o, ok := catalog.Options(ct.Options).Lookup("connector"); ok {
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "the Go program is the connector of this table: leave out the 'connector' option")
	}
	if ct.IfNotExists {
		return nil, sql.Errorf(sql.ErrInvalid, ct.At, "IF NOT EXISTS does not fit a table registered from Go: its source would be ignored if the table exists")
	}
	t, err := catalog.NewTable(ct)
	if err != nil {
		return nil, err
	}
	a, err := attach(t)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err = e.cat.CreateTable(ct)
	if err != nil {
		return nil, err
	}
	t.Attached = a
	return t, nil
}
