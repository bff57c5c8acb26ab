// Command duckbench runs the CSV queries of `wsql bench` (tumble, hop,
// session) side by side with DuckDB on the same file, the comparison of
// issue 22 that anyone can rerun:
//
//	cd internal/duckbench && go run . --wsql PATH/TO/wsql [--rows N] [--runs K] [--dir DIR] [--query tumble,hop,session]
//
// Both engines run as child processes, alternating, measured the same way
// (wall time, and CPU time and peak RSS from the rusage), and must agree
// on the number of windows. It is a module of its own because DuckDB's Go
// binding needs cgo; docs/performance.md describes the output.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "duckdb-child" {
		if len(args) != 3 {
			fmt.Fprintln(stderr, "usage: duckbench duckdb-child QUERY CSV")
			return 2
		}
		if err := runDuckDBChild(args[1], args[2], stdout); err != nil {
			fmt.Fprintf(stderr, "duckbench: %v\n", err)
			return 1
		}
		return 0
	}
	fs := flag.NewFlagSet("duckbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	fs.StringVar(&c.wsql, "wsql", "", "the wsql binary (required)")
	fs.Int64Var(&c.rows, "rows", 10_000_000, "rows of the CSV file")
	fs.IntVar(&c.runs, "runs", 5, "runs of each engine on each query, alternating")
	fs.StringVar(&c.dir, "dir", "", "where wsql bench keeps the data and scripts (default: its own default)")
	only := fs.String("query", "tumble,hop,session", "the queries, comma-separated")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "duckbench: %s\n", msg)
		fs.Usage()
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage(fmt.Sprintf("no arguments, only flags (got %q)", fs.Arg(0)))
	case c.wsql == "":
		return usage("--wsql is required: build it with go build -o wsql ./cmd/wsql at the repository's root")
	case c.rows < 1 || c.runs < 1:
		return usage("--rows and --runs must be at least 1")
	}
	var err error
	if c.queries, err = lookupQueries(*only); err != nil {
		return usage(err.Error())
	}
	if c.wsql, err = filepath.Abs(c.wsql); err != nil {
		return usage(err.Error())
	}
	if c.self, err = os.Executable(); err != nil {
		fmt.Fprintf(stderr, "duckbench: finding its own binary to run DuckDB: %v\n", err)
		return 1
	}
	if err := compare(c, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "duckbench: %s\n", strings.TrimRight(err.Error(), "\n"))
		return 1
	}
	return 0
}
