package driver

import (
	"context"
	stdsql "database/sql"
	sqldriver "database/sql/driver"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/pipeline"
)

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
func (Driver) OpenConnector(dsn string) (_ sqldriver.Connector, err error) {
	defer pipeline.CatchPanic(&err)
	e, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &connector{e: e, owned: true}, nil
}

// Open opens a connection with an Engine of its own, closed with the
// connection. database/sql never calls it (it uses OpenConnector); it is
// there for callers of the bare sqldriver.Driver interface.
func (d Driver) Open(dsn string) (_ sqldriver.Conn, err error) {
	defer pipeline.CatchPanic(&err)
	e, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &conn{e: e, ownsEngine: true}, nil
}

// NewConnector returns a connector over an Engine the caller configured
// (options, tables declared or registered from Go), for sql.OpenDB. Every
// connection of the DB runs on e. Closing the DB does not close e: the
// caller owns it and closes it after the DB.
func NewConnector(e *wsql.Engine) sqldriver.Connector { return &connector{e: e} }

// connector hands out connections over one Engine. It implements io.Closer,
// which DB.Close calls.
type connector struct {
	e     *wsql.Engine
	owned bool // opened from a DSN: DB.Close closes the engine
}

func (c *connector) Connect(context.Context) (sqldriver.Conn, error) {
	if c.e.Closed() {
		return nil, wsql.ErrClosed
	}
	return &conn{e: c.e}, nil
}

func (c *connector) Driver() sqldriver.Driver { return Driver{} }

// Close closes the engine if the connector opened it, which stops every
// query still running on it.
func (c *connector) Close() error {
	if c.owned {
		return c.e.Close()
	}
	return nil
}
