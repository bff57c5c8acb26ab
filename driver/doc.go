// Package driver is the database/sql driver of wsql. Importing it registers
// the driver "wsql":
//
//	import _ "github.com/wsql/wsql/driver"
//
//	db, err := sql.Open("wsql", "init=schema.sql")
//
// sql.Open gives a *sql.DB over one wsql.Engine shared by every pooled
// connection, so a table created on one connection is seen by the others.
// NewConnector hands an Engine the program configured itself to
// sql.OpenDB. The root package, the Engine API, registers nothing, so a
// program that uses the Engine alone does not get the driver.
// See docs/database-sql.md.
package driver
