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

	"github.com/wsql/wsql"
	"golang.org/x/term"
)

const usage = `wsql: streaming SQL for windowed aggregation

usage:
  wsql [flags] run FILE.sql   run every statement of FILE.sql
  wsql [flags] -e 'SQL'       run the statements of SQL
  wsql [flags] < FILE.sql     run statements read from stdin
  wsql [flags]                on a terminal: the interactive shell (\help inside)

flags:
  --format table|csv   result format (default: table on a terminal, csv otherwise)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wsql", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "")
	script := fs.String("e", "", "")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, err.Error())
	}
	rest := fs.Args()
	scriptFromStdin := false
	if len(rest) > 0 && rest[0] == "run" {
		// flags may also follow the subcommand: wsql run --format csv q.sql
		if err := fs.Parse(rest[1:]); err != nil {
			return usageError(stderr, err.Error())
		}
		rest = fs.Args()
		if len(rest) != 1 || *script != "" {
			return usageError(stderr, "run takes exactly one FILE.sql")
		}
		b, err := os.ReadFile(rest[0])
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 1
		}
		*script = string(b)
	} else if len(rest) > 0 {
		return usageError(stderr, fmt.Sprintf("unknown command %q", rest[0]))
	} else if *script == "" {
		if isTerminal(stdin) {
			return runShell(*format, stdout, stderr)
		}
		scriptFromStdin = true
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "error: reading stdin: %v\n", err)
			return 1
		}
		*script = string(b)
	}

	newWriter, err := writerFor(*format, stdout)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var opts []wsql.Option
	if !scriptFromStdin {
		// 'stdin' tables read the data piped in: tail -f app.log | wsql -e "..."
		opts = append(opts, wsql.WithStdin(stdin))
	}
	err = wsql.New(opts...).Run(ctx, *script, wsql.Output{
		NewWriter: newWriter,
		OnSummary: func(s wsql.Summary) { fmt.Fprintf(stderr, "wsql: %s\n", s) },
		OnText:    func(s string) { fmt.Fprint(stdout, s) },
		OnNotice:  func(s string) { fmt.Fprintln(stderr, s) },
		Stdout:    stdout,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "wsql: interrupted")
			return 130
		}
		fmt.Fprintln(stderr, wsql.FormatError(*script, err))
		return 1
	}
	return 0
}

// writerFor picks the result format: --format wins, else a table on a
// terminal and CSV in a pipe.
func writerFor(format string, stdout io.Writer) (func(wsql.ResultInfo) (wsql.ResultWriter, error), error) {
	if format == "" {
		format = "csv"
		if isTerminal(stdout) {
			format = "table"
		}
	}
	switch format {
	case "csv":
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(stdout, r.Schema, r.Location), nil
		}, nil
	case "table":
		return func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewTableWriter(stdout, r.Schema, r.Location), nil
		}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want table or csv)", format)
}

func isTerminal(f any) bool {
	fd, ok := f.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(fd.Fd()))
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "wsql: %s\n\n%s", msg, usage)
	return 2
}
