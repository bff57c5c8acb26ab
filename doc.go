// Package wsql is the Go API of wsql, a streaming SQL engine for windowed
// aggregation with Apache Flink SQL's semantics.
//
// An Engine holds a session: the tables its CREATE TABLE statements
// declared. Run executes a script of statements; each SELECT streams its
// results, one row per key and window as each window closes, to a
// ResultWriter, and reports a Summary that counts rows read, late rows
// dropped, bad rows skipped and result rows.
//
//	e := wsql.New()
//	err := e.Run(ctx, script, wsql.Output{
//		NewWriter: func(s *arrow.Schema) (wsql.ResultWriter, error) {
//			return wsql.NewCSVWriter(os.Stdout, s, time.UTC), nil
//		},
//	})
//
// The packages below do the work: sql parses the Flink dialect, catalog
// keeps tables, planner lowers queries, exec runs pipelines of windowop and
// rowtime operators over Arrow record batches.
package wsql
