package main

import (
	"database/sql"
	"fmt"
	"io"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" database/sql driver
)

// duckdbThreads is DuckDB's thread count: the two cores the targets of
// issue 22 are stated for.
const duckdbThreads = 2

// runDuckDBChild is the hidden subcommand `duckdb-child QUERY CSV`: it
// opens DuckDB in memory in this process, runs the query once over the
// file and prints one line, `duckdb VERSION windows W rows R checksum C`.
// The parent runs it as a child process, so DuckDB is measured as wsql is:
// wall time from start to exit, CPU time and peak RSS from the rusage.
func runDuckDBChild(name, csv string, stdout io.Writer) error {
	qs, err := lookupQueries(name)
	if err != nil {
		return err
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("SET threads = %d", duckdbThreads)); err != nil {
		return err
	}
	var version string
	if err := db.QueryRow("SELECT version()").Scan(&version); err != nil {
		return err
	}
	var windows, rows int64
	var checksum float64
	if err := db.QueryRow(qs[0].duckdb(duckdbSource(csv))).Scan(&windows, &rows, &checksum); err != nil {
		return fmt.Errorf("%s in DuckDB: %w", name, err)
	}
	_, err = fmt.Fprintf(stdout, "duckdb %s windows %d rows %d checksum %g\n", version, windows, rows, checksum)
	return err
}
