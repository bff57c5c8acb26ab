// Package wsql is the Go API of wsql, a streaming SQL engine for windowed
// aggregation with Apache Flink SQL's semantics.
//
// An Engine holds a session: the tables and views its statements declared
// and the settings of SET. Run executes a script of statements; each SELECT
// streams its results, one row per key and window as each window closes, to
// a ResultWriter, and reports a Summary that counts rows read, late rows
// dropped, bad rows skipped and result rows. INSERT INTO writes to a sink
// table instead; SHOW, DESCRIBE and EXPLAIN answer about the session.
//
//	e := wsql.New()
//	err := e.Run(ctx, script, wsql.Output{
//		NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
//			return wsql.NewCSVWriter(os.Stdout, r.Schema, r.Location), nil
//		},
//	})
//
// Query is the pull-style alternative for one query: it returns Rows to read
// batch by batch with Next (or range over with All) as windows fire, waiting
// while the caller does not read; Close stops it. Exec runs statements
// without rows (DDL, SET, INSERT INTO). Rows also reads row by row as Go
// values: NextRow and Scan, as in database/sql, or RowsOf and Collect into
// structs by column name. ValueText gives a value's text as the command
// line prints it.
//
// The database/sql driver is the package driver: importing
// github.com/wsql/wsql/driver registers it as "wsql".
//
// The packages below do the work: sql parses the Flink dialect, catalog
// keeps tables, planner lowers queries, exec runs pipelines of windowop and
// rowtime operators over Arrow record batches.
package wsql
