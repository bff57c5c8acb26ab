package wsql

import (
	"context"
	stdsql "database/sql"
	"database/sql/driver"

	"github.com/wsql/wsql/pipeline"
)

// The database/sql driver: sql.Open("wsql", dsn) gives a *sql.DB over one
// Engine shared by every pooled connection, so a table created on one
// connection is seen by the others. See docs/database-sql.md.

func init() { stdsql.Register("wsql", Driver{}) }

// Driver is the database/sql driver of wsql, registered as "wsql". Its
// data source name is empty or key=value pairs joined by & in URL query
// encoding, with the keys batch-size, init (a SQL file run at open) and the
// session settings wsql reads, such as table.local-time-zone:
//
//	sql.Open("wsql", "init=schema.sql&table.local-time-zone=Europe%2FBerlin")
//
// docs/database-sql.md describes the keys, the types and the streaming.
type Driver struct{}

// OpenConnector parses dsn and opens the Engine that every connection of
// the *sql.DB shares; closing the DB closes it. sql.Open reports a bad DSN,
// a bad setting or a failing init file at once.
func (Driver) OpenConnector(dsn string) (_ driver.Connector, err error) {
	defer pipeline.CatchPanic(&err)
	e, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &driverConnector{e: e, owned: true}, nil
}

// Open opens a connection with an Engine of its own, closed with the
// connection. database/sql never calls it (it uses OpenConnector); it is
// there for callers of the bare driver.Driver interface.
func (d Driver) Open(dsn string) (_ driver.Conn, err error) {
	defer pipeline.CatchPanic(&err)
	e, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &driverConn{e: e, ownsEngine: true}, nil
}

// NewConnector returns a connector over an Engine the caller configured
// (options, tables declared or registered from Go), for sql.OpenDB. Every
// connection of the DB runs on e. Closing the DB does not close e: the
// caller owns it and closes it after the DB.
func NewConnector(e *Engine) driver.Connector { return &driverConnector{e: e} }

// connector hands out connections over one Engine. It implements io.Closer,
// which DB.Close calls.
type driverConnector struct {
	e     *Engine
	owned bool // opened from a DSN: DB.Close closes the engine
}

func (c *driverConnector) Connect(context.Context) (driver.Conn, error) {
	if driverEngineClosed(c.e) {
		return nil, ErrClosed
	}
	return &driverConn{e: c.e}, nil
}

func (c *driverConnector) Driver() driver.Driver { return Driver{} }

// Close closes the engine if the connector opened it, which stops every
// query still running on it.
func (c *driverConnector) Close() error {
	if c.owned {
		return c.e.Close()
	}
	return nil
}

// driverEngineClosed tells whether Close was called on e, so the pool drops
// connections of a closed engine instead of failing every statement.
func driverEngineClosed(e *Engine) bool {
	e.life.Lock()
	defer e.life.Unlock()
	return e.closed
}
