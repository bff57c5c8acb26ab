package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/wsql/wsql"
)

// LineSource gives the shell its input a line at a time: readline on a
// terminal, a list of lines in tests. Readline returns errInterrupt for
// Ctrl-C (with the part of the line typed so far) and io.EOF for Ctrl-D or
// the end of the input.
type LineSource interface {
	Readline() (string, error)
}

// prompter is a LineSource that shows a prompt.
type prompter interface{ SetPrompt(string) }

// errInterrupt is what a LineSource returns when Ctrl-C is pressed at the
// prompt.
var errInterrupt = errors.New("interrupt")

const (
	prompt     = "wsql> "
	contPrompt = "  -> "
	ctrlCHint  = `press Ctrl-C again or type \q to exit`
)

const shellHelp = `Type SQL statements ending in ';'; they may span lines.
Meta commands:
  \help              this help (also: help)
  \d                 list tables and views: name, kind, connector
  \d NAME            describe a table or view
  \format table|csv|json  result format
  \timing [on|off]   print the elapsed time after each statement
  \q                 quit (also: quit, exit, Ctrl-D)
Ctrl-C cancels a running query or the statement being typed; twice at an
empty prompt, it exits.
An update stream (GROUP BY without a window) shows its current rows,
redrawn in place; to see every change with its op instead:
  SET 'sql-client.execution.result-mode' = 'changelog';  (or 'tableau')
`

var metaCommands = []string{`\d`, `\format`, `\help`, `\q`, `\timing`}

// shell is the interactive shell: it reads lines, gathers them into
// statements and runs them on one long-lived Engine, so the tables a
// statement creates are there for the next.
type shell struct {
	engine         *wsql.Engine
	in             LineSource
	stdout, stderr io.Writer
	format         string // "table", "csv" or "json"
	timing         bool
	// watchInterrupt, if set, is called as a statement starts with the
	// function that cancels it (what Ctrl-C does while a query runs); the
	// stop it returns is called when the statement ends.
	watchInterrupt func(cancel context.CancelFunc) (stop func())

	mu      sync.Mutex // pending is read by completion, on readline's goroutine
	pending string     // the lines of an unfinished statement
	typed   []string   // its lines as typed, for its history entry
	// status, when stderr is a terminal, shows the running query's progress
	status *statusLine
	// lineOutputs separates the outputs of the statements of one line
	lineOutputs *resultSeparator
}

func newShell(e *wsql.Engine, in LineSource, stdout, stderr io.Writer) *shell {
	return &shell{engine: e, in: in, stdout: stdout, stderr: stderr, format: "table"}
}

// run reads and runs input until \q, Ctrl-D, or Ctrl-C twice at an empty
// prompt, and returns the exit status. Cancelling ctx ends the shell.
func (s *shell) run(ctx context.Context) int {
	interrupted := false // the previous input was Ctrl-C at an empty prompt
	for {
		if p, ok := s.in.(prompter); ok {
			if s.getPending() == "" {
				p.SetPrompt(prompt)
			} else {
				p.SetPrompt(contPrompt)
			}
		}
		line, err := s.in.Readline()
		switch {
		case errors.Is(err, errInterrupt):
			if line == "" && s.getPending() == "" {
				if interrupted {
					return 0
				}
				interrupted = true
				fmt.Fprintln(s.stderr, ctrlCHint)
				continue
			}
			s.setPending("") // Ctrl-C drops the statement being typed
			s.saveTyped()
			interrupted = false
			continue
		case errors.Is(err, io.EOF):
			s.saveTyped()
			return 0
		case err != nil:
			fmt.Fprintf(s.stderr, "error: reading input: %v\n", err)
			return 1
		}
		interrupted = false
		s.remember(line)
		if s.handleLine(ctx, line) {
			return 0
		}
		if ctx.Err() != nil {
			return 130
		}
	}
}

// handleLine takes one line of input; it returns true to quit.
func (s *shell) handleLine(ctx context.Context, line string) (quit bool) {
	trimmed := strings.TrimSpace(line)
	if strings.HasPrefix(trimmed, `\`) {
		return s.meta(ctx, trimmed)
	}
	pending := s.getPending()
	if pending == "" {
		switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(trimmed, ";"))) {
		case "help":
			fmt.Fprint(s.stdout, shellHelp)
			return false
		case "quit", "exit":
			return true
		}
		if isBlank(line) {
			return false
		}
	}
	stmts, rest := splitStatements(pending + line + "\n")
	if isBlank(rest) {
		rest = ""
	}
	// EXECUTE STATEMENT SET BEGIN ...; ...; END; runs whole at its END
	stmts, unended := groupStatementSets(stmts)
	s.setPending(unended + rest)
	s.lineOutputs = s.separator() // the tables of a line's statements apart
	defer func() { s.lineOutputs = nil }()
	for _, st := range stmts {
		if !s.execInSet(ctx, st) {
			break // as in a script, the first error stops the rest of the input
		}
	}
	return false
}

// execInSet runs one statement and, around the SQL client's BEGIN
// STATEMENT SET ... END, says what became of it as Flink's client does.
func (s *shell) execInSet(ctx context.Context, text string) bool {
	wasOpen, inserts := s.engine.StatementSet()
	if !s.exec(ctx, text) {
		return false
	}
	switch open, _ := s.engine.StatementSet(); {
	case !wasOpen && open:
		fmt.Fprintln(s.stdout, "[INFO] Begin a statement set.")
	case wasOpen && open:
		fmt.Fprintln(s.stdout, "[INFO] Add SQL update statement to the statement set.")
	case wasOpen && inserts == 0:
		fmt.Fprintln(s.stdout, "[INFO] No statement in the statement set, skip submit.")
	}
	return true
}

// separator separates the outputs of one input in table format; nil in
// the others.
func (s *shell) separator() *resultSeparator {
	if s.format != "table" {
		return nil
	}
	sep := &resultSeparator{w: s.stdout}
	if s.status != nil {
		sep.clear = s.status.clear
	}
	return sep
}

// meta runs a backslash command; it returns true to quit.
func (s *shell) meta(ctx context.Context, cmd string) (quit bool) {
	f := strings.Fields(cmd)
	args := f[1:]
	switch f[0] {
	case `\q`, `\quit`:
		return true
	case `\help`, `\h`, `\?`:
		fmt.Fprint(s.stdout, shellHelp)
	case `\d`:
		s.describeCommand(ctx, args)
	case `\timing`:
		switch {
		case len(args) == 0:
			s.timing = !s.timing
		case len(args) == 1 && strings.EqualFold(args[0], "on"):
			s.timing = true
		case len(args) == 1 && strings.EqualFold(args[0], "off"):
			s.timing = false
		default:
			fmt.Fprintln(s.stderr, `error: \timing takes on, off or nothing`)
			return false
		}
		if s.timing {
			fmt.Fprintln(s.stdout, "Timing is on.")
		} else {
			fmt.Fprintln(s.stdout, "Timing is off.")
		}
	case `\format`:
		if len(args) == 0 {
			fmt.Fprintf(s.stdout, "Format is %s.\n", s.format)
			return false
		}
		if len(args) == 1 && args[0] == "arrow" {
			fmt.Fprintln(s.stderr, `error: \format arrow is binary output, not for a terminal: run wsql --format arrow --output FILE -e '...' instead`)
			return false
		}
		if len(args) != 1 || !contains(shellFormats, args[0]) {
			fmt.Fprintln(s.stderr, `error: \format takes table, csv or json`)
			return false
		}
		s.format = args[0]
		fmt.Fprintf(s.stdout, "Format is %s.\n", s.format)
	default:
		fmt.Fprintf(s.stderr, "error: unknown command %s; type \\help for the list\n", f[0])
	}
	return false
}

// initScript is the file that -i runs before the shell's first prompt, as
// Flink's SQL client does: its tables and settings are the session's.
type initScript struct {
	path, text string
}

// runInit runs the init script on the session; false means it failed and
// the shell should not start.
func (s *shell) runInit(ctx context.Context, init initScript) bool {
	if init.text == "" {
		return true
	}
	if s.exec(ctx, init.text) {
		return true
	}
	fmt.Fprintf(s.stderr, "wsql: the init file %s failed\n", init.path)
	return false
}

// exec runs one statement and reports its outcome; it returns false when
// the statement failed or was cancelled.
func (s *shell) exec(ctx context.Context, text string) bool {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupt, say := cancel, func(w io.Writer, text string) { fmt.Fprint(w, text) }
	stdout := s.stdout
	if s.status != nil {
		// Ctrl-C stops the status line; what is printed next starts on an
		// erased line, with no status text or echoed ^C before it
		s.status.start()
		interrupt = func() { s.status.interrupt(); cancel() }
		say = func(w io.Writer, text string) { s.status.print(func() { fmt.Fprint(w, text) }) }
		stdout = statusClearingWriter{s.stdout, s.status} // the 'print' connector's rows
	}
	if s.watchInterrupt != nil {
		defer s.watchInterrupt(interrupt)()
	}
	start := time.Now()
	out := wsql.Output{
		NewWriter: s.newWriter,
		OnSummary: func(sum wsql.Summary) { say(s.stderr, summaryText(sum)) },
		OnText:    func(t string) { say(s.stdout, t) },
		OnNotice:  func(n string) { say(s.stderr, n+"\n") },
		Stdout:    stdout,
	}
	if s.status != nil {
		out.OnProgress = s.status.update
		next := out.NewWriter
		out.NewWriter = func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			w, err := next(r)
			return statusClearing{w, s.status}, err
		}
		defer s.status.clear()
	}
	if sep := s.lineOutputs; sep != nil {
		sep.separate(&out)
	} else if sep = s.separator(); sep != nil {
		sep.separate(&out)
	}
	err := s.engine.Run(runCtx, text, out)
	if s.status != nil {
		s.status.clear()
	}
	if s.timing {
		fmt.Fprintf(s.stdout, "Time: %.3f ms\n", float64(time.Since(start).Microseconds())/1000)
	}
	switch {
	case err == nil:
		return true
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(s.stderr, "wsql: query cancelled")
	default:
		fmt.Fprintln(s.stderr, wsql.FormatError(text, err))
	}
	return false
}

// shellFormats are the result formats of \format (arrow is binary).
var shellFormats = []string{"table", "csv", "json"}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *shell) newWriter(r wsql.ResultInfo) (wsql.ResultWriter, error) {
	switch s.format {
	case "csv":
		return wsql.NewCSVWriter(s.stdout, r.Schema, r.Location), nil
	case "json":
		return wsql.NewJSONWriter(s.stdout, r.Schema, r.Location), nil
	}
	screen := screenOf(s.stdout)
	if s.status != nil && screen.Size != nil {
		screen.Draw = s.status.print // the status line erased under the table
	}
	return tableModeWriter(r, s.stdout, screen), nil
}

func (s *shell) getPending() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending
}

func (s *shell) setPending(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = p
}

// statusClearing erases the status line before each result batch is
// printed, and before the end of the result (a table's header when no
// row came, its last border), so results and the line never mix.
type statusClearing struct {
	wsql.ResultWriter
	status *statusLine
}

func (w statusClearing) WriteBatch(rec wsql.RecordBatch) (err error) {
	w.status.print(func() { err = w.ResultWriter.WriteBatch(rec) })
	return err
}

func (w statusClearing) Close() (err error) {
	w.status.print(func() { err = w.ResultWriter.Close() })
	return err
}

// statusClearingWriter is statusClearing for what the 'print' connector
// writes.
type statusClearingWriter struct {
	w      io.Writer
	status *statusLine
}

func (w statusClearingWriter) Write(p []byte) (n int, err error) {
	w.status.print(func() { n, err = w.w.Write(p) })
	return n, err
}
