package wsql

import (
	"context"
	"database/sql/driver"
	"errors"

	"github.com/wsql/wsql/pipeline"
)

// conn is one database/sql connection. It holds no state of its own: the
// session (tables, settings) is the Engine's, shared by every connection
// of the DB, so the pool may hand any of them out.
type driverConn struct {
	e          *Engine
	ownsEngine bool // opened by Driver.Open: Close closes the engine
}

var (
	_ driver.Conn               = (*driverConn)(nil)
	_ driver.ExecerContext      = (*driverConn)(nil)
	_ driver.QueryerContext     = (*driverConn)(nil)
	_ driver.ConnPrepareContext = (*driverConn)(nil)
	_ driver.ConnBeginTx        = (*driverConn)(nil)
	_ driver.Pinger             = (*driverConn)(nil)
	_ driver.Validator          = (*driverConn)(nil)
	_ driver.SessionResetter    = (*driverConn)(nil)
)

// errNoTx is the answer to BeginTx.
var errNoTx = errors.New("wsql: transactions are not supported: wsql has none; run statements on the DB or a Conn")

func (c *driverConn) Prepare(query string) (driver.Stmt, error) {
	return &driverStmt{c: c, query: query}, nil
}

// PrepareContext keeps the text; it is parsed when the statement runs, as
// wsql plans a query only when it starts.
func (c *driverConn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	return c.Prepare(query)
}

// Close leaves the shared engine alone (unless Driver.Open made it for
// this connection alone).
func (c *driverConn) Close() error {
	if c.ownsEngine {
		return c.e.Close()
	}
	return nil
}

func (c *driverConn) Begin() (driver.Tx, error) { return nil, errNoTx }

func (c *driverConn) BeginTx(context.Context, driver.TxOptions) (driver.Tx, error) {
	return nil, errNoTx
}

// ExecContext runs statements without results (DDL, SET, RESET, INSERT
// INTO) with Engine.Exec; errors are the engine's, positioned in the text.
func (c *driverConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (_ driver.Result, err error) {
	defer pipeline.CatchPanic(&err)
	query, err = bindArgs(query, args)
	if err != nil {
		return nil, err
	}
	if err := c.e.Exec(ctx, query); err != nil {
		return nil, err
	}
	return driverResult{}, nil
}

// QueryContext starts the query with Engine.Query and returns as soon as
// its schema is known; rows then arrive as windows fire. ctx stops it.
func (c *driverConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (_ driver.Rows, err error) {
	defer pipeline.CatchPanic(&err)
	query, err = bindArgs(query, args)
	if err != nil {
		return nil, err
	}
	r, err := c.e.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	return newDriverRows(r), nil
}

// Ping fails once the engine is closed, so the pool drops the connection.
func (c *driverConn) Ping(context.Context) error {
	if driverEngineClosed(c.e) {
		return driver.ErrBadConn
	}
	return nil
}

func (c *driverConn) IsValid() bool { return !driverEngineClosed(c.e) }

func (c *driverConn) ResetSession(context.Context) error { return c.Ping(context.Background()) }

// driverResult is the result of ExecContext: wsql counts neither inserted
// rows nor ids for it.
type driverResult struct{}

func (driverResult) LastInsertId() (int64, error) {
	return 0, errors.New("wsql: LastInsertId is not supported: wsql has no row ids")
}

func (driverResult) RowsAffected() (int64, error) {
	return 0, errors.New("wsql: RowsAffected is not supported: wsql does not count the rows of a statement run with Exec")
}

// stmt is a prepared statement: only its text, run anew each time.
type driverStmt struct {
	c     *driverConn
	query string
}

var (
	_ driver.StmtExecContext  = (*driverStmt)(nil)
	_ driver.StmtQueryContext = (*driverStmt)(nil)
)

func (s *driverStmt) Close() error { return nil }

// NumInput is -1: the argument count is checked when the text is bound,
// with wsql's own message.
func (s *driverStmt) NumInput() int { return -1 }

func (s *driverStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), namedArgs(args))
}

func (s *driverStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), namedArgs(args))
}

func (s *driverStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.ExecContext(ctx, s.query, args)
}

func (s *driverStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.QueryContext(ctx, s.query, args)
}

func namedArgs(args []driver.Value) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, v := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return nv
}
