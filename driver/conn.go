package driver

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/pipeline"
)

// conn is one database/sql connection. It holds no state of its own: the
// session (tables, settings) is the Engine's, shared by every connection
// of the DB, so the pool may hand any of them out.
type conn struct {
	e          *wsql.Engine
	ownsEngine bool // opened by Driver.Open: Close closes the engine
}

var (
	_ sqldriver.Conn               = (*conn)(nil)
	_ sqldriver.ExecerContext      = (*conn)(nil)
	_ sqldriver.QueryerContext     = (*conn)(nil)
	_ sqldriver.ConnPrepareContext = (*conn)(nil)
	_ sqldriver.ConnBeginTx        = (*conn)(nil)
	_ sqldriver.Pinger             = (*conn)(nil)
	_ sqldriver.Validator          = (*conn)(nil)
	_ sqldriver.SessionResetter    = (*conn)(nil)
)

// errNoTx is the answer to BeginTx.
var errNoTx = errors.New("wsql: transactions are not supported: wsql has none; run statements on the DB or a Conn")

func (c *conn) Prepare(query string) (sqldriver.Stmt, error) {
	return &stmt{c: c, query: query}, nil
}

// PrepareContext keeps the text; it is parsed when the statement runs, as
// wsql plans a query only when it starts.
func (c *conn) PrepareContext(_ context.Context, query string) (sqldriver.Stmt, error) {
	return c.Prepare(query)
}

// Close leaves the shared engine alone (unless Driver.Open made it for
// this connection alone).
func (c *conn) Close() error {
	if c.ownsEngine {
		return c.e.Close()
	}
	return nil
}

func (c *conn) Begin() (sqldriver.Tx, error) { return nil, errNoTx }

func (c *conn) BeginTx(context.Context, sqldriver.TxOptions) (sqldriver.Tx, error) {
	return nil, errNoTx
}

// ExecContext runs statements without results (DDL, SET, RESET, INSERT
// INTO) with Engine.Exec; errors are the engine's, positioned in the text.
func (c *conn) ExecContext(ctx context.Context, query string, args []sqldriver.NamedValue) (_ sqldriver.Result, err error) {
	defer pipeline.CatchPanic(&err)
	query, err = bindArgs(query, args)
	if err != nil {
		return nil, err
	}
	if err := c.e.Exec(ctx, query); err != nil {
		return nil, err
	}
	return result{}, nil
}

// QueryContext starts the query with Engine.Query and returns as soon as
// its schema is known; rows then arrive as windows fire. ctx stops it.
func (c *conn) QueryContext(ctx context.Context, query string, args []sqldriver.NamedValue) (_ sqldriver.Rows, err error) {
	defer pipeline.CatchPanic(&err)
	query, err = bindArgs(query, args)
	if err != nil {
		return nil, err
	}
	r, err := c.e.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

// Ping fails once the engine is closed, so the pool drops the connection.
func (c *conn) Ping(context.Context) error {
	if c.e.Closed() {
		return sqldriver.ErrBadConn
	}
	return nil
}

func (c *conn) IsValid() bool { return !c.e.Closed() }

func (c *conn) ResetSession(context.Context) error { return c.Ping(context.Background()) }

// result is the result of ExecContext: wsql counts neither inserted
// rows nor ids for it.
type result struct{}

func (result) LastInsertId() (int64, error) {
	return 0, errors.New("wsql: LastInsertId is not supported: wsql has no row ids")
}

func (result) RowsAffected() (int64, error) {
	return 0, errors.New("wsql: RowsAffected is not supported: wsql does not count the rows of a statement run with Exec")
}

// stmt is a prepared statement: only its text, run anew each time.
type stmt struct {
	c     *conn
	query string
}

var (
	_ sqldriver.StmtExecContext  = (*stmt)(nil)
	_ sqldriver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) Close() error { return nil }

// NumInput is -1: the argument count is checked when the text is bound,
// with wsql's own message.
func (s *stmt) NumInput() int { return -1 }

func (s *stmt) Exec(args []sqldriver.Value) (sqldriver.Result, error) {
	return s.ExecContext(context.Background(), namedArgs(args))
}

func (s *stmt) Query(args []sqldriver.Value) (sqldriver.Rows, error) {
	return s.QueryContext(context.Background(), namedArgs(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []sqldriver.NamedValue) (sqldriver.Result, error) {
	return s.c.ExecContext(ctx, s.query, args)
}

func (s *stmt) QueryContext(ctx context.Context, args []sqldriver.NamedValue) (sqldriver.Rows, error) {
	return s.c.QueryContext(ctx, s.query, args)
}

func namedArgs(args []sqldriver.Value) []sqldriver.NamedValue {
	nv := make([]sqldriver.NamedValue, len(args))
	for i, v := range args {
		nv[i] = sqldriver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return nv
}
