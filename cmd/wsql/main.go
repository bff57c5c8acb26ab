package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/internal/startgc"
	// the collector off until a job starts, and the heap in huge pages
	_ "github.com/wsql/wsql/internal/startgc/atinit"
)

const usage = `wsql: streaming SQL for windowed aggregation

usage:
  wsql [flags] run FILE.sql   run every statement of FILE.sql
  wsql [flags] FILE.sql       the same
  wsql [flags] -f FILE.sql    the same, as Flink's SQL client takes it (--file)
  wsql [flags] -e 'SQL'       run the statements of SQL
  wsql [flags] < FILE.sql     run statements read from stdin
  wsql [flags]                on a terminal: the interactive shell (\help inside)
  wsql --version              print the version of wsql, its revision and Go's
                              (also: wsql version)
  wsql bench [--rows N] [--runs K] [--query NAME,...] [--dir DIR] [--every D]
                              run the performance benchmark (docs/performance.md);
                              --query soak runs the memory soak alone;
                              --query latency [--rate R] [--seconds S] feeds
                              stdin at R rows/s and times the windows' results;
                              --scaling times 1 core against 2 (Linux)

flags (before or after the other arguments):
  -h, --help      print this usage
  -i, --init FILE run the statements of FILE first, on the same session:
                  then the script, or the shell
  --format table|csv|json|arrow
                  result format (default: table on a terminal, csv otherwise);
                  json: one object per row; arrow: an Arrow IPC stream (binary,
                  one result per run)
  --output FILE   write results to FILE instead of stdout, through a
                  temporary .FILE.tmp beside it that replaces it when the
                  run succeeds or is stopped (a failed run leaves FILE as
                  it was); the run summary stays on stderr
  --checkpoint-dir DIR
                  take checkpoints of each query in DIR (every 10 s, or
                  'execution.checkpointing.interval'), and on SIGINT/SIGTERM;
                  run the same command again to resume from them; DIR may
                  be s3://bucket/prefix in an S3-compatible store, set up
                  by AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION
                  and AWS_ENDPOINT_URL_S3 (e.g. http://localhost:9000 for
                  MinIO) as for the AWS CLI; --output
                  then gets its results exactly once: up to the last
                  checkpoint they are in .FILE.partial, which a restart
                  continues
  --serve ADDR    serve Prometheus metrics at http://ADDR/metrics, a health
                  check at /healthz and a status page of the running
                  queries (plans, throughput, watermark lag) at /, while
                  the script runs (ADDR: host:port, e.g. localhost:9464;
                  docs/monitoring.md)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer startBenchProfile()()
	fs := flag.NewFlagSet("wsql", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "")
	script := fs.String("e", "", "")
	fileFlag := fs.String("f", "", "")
	fs.StringVar(fileFlag, "file", "", "")
	initFile := fs.String("i", "", "")
	fs.StringVar(initFile, "init", "", "")
	output := fs.String("output", "", "")
	checkpointDir := fs.String("checkpoint-dir", "", "")
	serveAddr := fs.String("serve", "", "")
	version := fs.Bool("version", false, "")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return parseError(stdout, stderr, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *version || len(rest) > 0 && rest[0] == "version" {
		if len(rest) > 1 || len(rest) == 1 && rest[0] != "version" {
			return usageError(stderr, "version takes no arguments")
		}
		return printVersion(stdout)
	}
	scriptFromStdin := false
	if len(rest) > 0 && rest[0] == "bench" {
		if len(set) > 0 {
			return usageError(stderr, benchFlagsUsage)
		}
		startgc.Restore() // no job will: its own start is over
		return runBench(rest[1:], stdout, stderr)
	}
	path, err := scriptFile(rest)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	if set["f"] || set["file"] {
		if path != "" {
			return usageError(stderr, fmt.Sprintf("-f %s and %s: give one file of SQL", *fileFlag, path))
		}
		path = *fileFlag
	}
	if path != "" && set["e"] {
		return usageError(stderr, fmt.Sprintf("-e and %s: give the SQL one way, -e, -f, run FILE or FILE.sql", path))
	}
	var init string // run first, on the same session (Flink's SQL client -i)
	if *initFile != "" {
		b, err := os.ReadFile(*initFile)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		init = string(b)
	}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		*script = string(b)
	} else if *script == "" {
		if isTerminal(stdin) {
			if *output != "" {
				return usageError(stderr, "--output is for scripts (run, -e, -f or stdin), not the interactive shell")
			}
			if *serveAddr != "" {
				return usageError(stderr, "--serve is for scripts (run, -e, -f or stdin), not the interactive shell")
			}
			return runShell(*format, initScript{path: *initFile, text: init}, stdout, stderr)
		}
		scriptFromStdin = true
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "error: reading stdin: %v\n", err)
			return 1
		}
		*script = string(b)
	}

	results := stdout // where results and EXPLAIN text go
	if *output == "" && *format == "arrow" && isTerminal(stdout) {
		return usageError(stderr, "--format arrow is binary output: redirect stdout or use --output")
	}
	newWriter, err := writerFor(*format, stdout)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	var file *wsql.OutputFile
	if *output != "" {
		// Opened at its first write, once the engine has checked that no
		// query reads it: a refused script leaves the file as it was.
		open := wsql.CreateOutputFile
		if *checkpointDir != "" {
			if *format == "arrow" {
				return usageError(stderr, "--format arrow cannot resume after a restart (an Arrow IPC stream cannot be cut back to a checkpoint and continued): with --checkpoint-dir, write --output as csv, json or table")
			}
			// kept: a restart continues it from the checkpoints
			open = wsql.OpenOutputFile
		}
		f, err := open(*output)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		defer func() {
			if err := f.Close(); err != nil && code == 0 {
				fmt.Fprintf(stderr, "error: %v\n", err)
				code = 1
			}
		}()
		results, file = f, f
		if newWriter, err = writerFor(*format, f); err != nil {
			return usageError(stderr, err.Error())
		}
	}
	onText := func(s string) { fmt.Fprint(results, s) }
	if *format == "arrow" {
		onText = func(s string) { fmt.Fprint(stdout, s) } // EXPLAIN is text, not Arrow
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var opts []wsql.Option
	if *checkpointDir != "" {
		opts = append(opts, wsql.WithCheckpointDir(*checkpointDir))
	}
	if !scriptFromStdin {
		// 'stdin' tables read the data piped in: tail -f app.log | wsql -e "..."
		opts = append(opts, wsql.WithStdin(stdin))
	}
	out := wsql.Output{
		NewWriter: newWriter,
		OnSummary: func(s wsql.Summary) { printSummary(stderr, s) },
		OnText:    onText,
		OnNotice:  func(s string) { fmt.Fprintln(stderr, s) },
		Stdout:    stdout, // the 'print' connector: a sink, not a result
		// checked against the inputs before anything is written to it
		File: file,
	}
	if resultFormat(*format, results) == "table" {
		(&resultSeparator{w: results}).separate(&out) // shared by -i and the script
	}
	var mon *serving
	if *serveAddr != "" {
		if mon, err = startServing(*serveAddr, &out, stderr); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		// after the queries stopped: the last scrape sees their final numbers
		defer func() {
			if err := mon.close(stderr); err != nil && code == 0 {
				code = 1
			}
		}()
	}
	e := wsql.New(opts...)
	if init != "" {
		if err := e.Run(ctx, init, out); err != nil {
			mon.ended(err)
			return runFailed(stderr, init, err, *initFile, true)
		}
	}
	if err := e.Run(ctx, *script, out); err != nil {
		mon.ended(err)
		return runFailed(stderr, *script, err, path, false)
	}
	if err := e.EndOfScript(); err != nil {
		mon.ended(err)
		return runFailed(stderr, *script, err, path, false)
	}
	return 0
}

// runFailed reports the error of a run and returns the exit status; the
// error of the init file (-i) says it comes from there.
func runFailed(stderr io.Writer, src string, err error, file string, isInit bool) int {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "wsql: interrupted")
		return 130
	}
	// SQL errors name their file, as data errors do
	fmt.Fprintln(stderr, wsql.FormatFileError(file, src, err))
	if isInit {
		fmt.Fprintf(stderr, "wsql: the init file %s failed\n", file)
	}
	return 1
}

// writerFor picks the result format: --format wins, else a table on a
// terminal and CSV in a pipe, unless the session set a result mode
// (result_mode.go). Results are written to out.
func writerFor(format string, out io.Writer) (func(wsql.ResultInfo) (wsql.ResultWriter, error), error) {
	chosen := format != ""
	switch format = resultFormat(format, out); format {
	case "csv":
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			if !chosen && r.ResultMode != "" {
				// SET 'sql-client.execution.result-mode' asks for a table
				return tableModeWriter(r, out, wsql.Screen{}), nil
			}
			return wsql.NewCSVWriter(out, r.Schema, r.Location), nil
		}, nil
	case "table":
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return tableModeWriter(r, out, screenOf(out)), nil
		}, nil
	case "json":
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewJSONWriter(out, r.Schema, r.Location), nil
		}, nil
	case "arrow":
		// An Arrow IPC stream ends with its end-of-stream marker: a second
		// stream after it is not read by pyarrow or DuckDB, and streams of
		// different schemas cannot be merged. So one result per run.
		results := 0
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			if results++; results > 1 {
				return nil, errors.New("--format arrow writes one result (one Arrow IPC stream), but the script has more than one query, SHOW, DESCRIBE or SET; run them separately")
			}
			return wsql.NewArrowWriter(out, r.Schema), nil
		}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want table, csv, json or arrow)", format)
}

// resultFormat is the format results written to out get: --format, else
// a table on a terminal and CSV elsewhere.
func resultFormat(format string, out io.Writer) string {
	if format != "" {
		return format
	}
	if isTerminal(out) {
		return "table"
	}
	return "csv"
}

func isTerminal(f any) bool {
	fd, ok := f.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(fd.Fd()))
}

// usageError reports a mistake on the command line as Go tools do: the
// reason and where the usage is, not the whole usage text.
func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "wsql: %s\nrun 'wsql --help' for usage\n", msg)
	return 2
}

// parseError answers a flag parse error: -h and --help asked for the
// usage, which goes to stdout with success; anything else is a usage error.
func parseError(stdout, stderr io.Writer, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	return usageError(stderr, err.Error())
}
