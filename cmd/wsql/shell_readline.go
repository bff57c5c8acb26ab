package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	// github.com/chzyer/readline gives the shell its line editing. It is
	// pure Go (no cgo, no libreadline), widely used and kept up, and has
	// what a SQL shell needs in one package: a history file with search,
	// tab completion through a small interface, and Ctrl-C / Ctrl-D
	// reported as errors instead of killing the process.
	"github.com/chzyer/readline"

	"github.com/wsql/wsql"
)

// runShell is the interactive shell on a terminal: readline for input,
// SIGINT for cancelling the running query.
func runShell(format string, init initScript, stdout, stderr io.Writer) int {
	e := wsql.New()
	sh := newShell(e, nil, stdout, stderr)
	if isTerminal(stderr) {
		sh.status = &statusLine{w: stderr} // never drawn into a pipe
	}
	switch format {
	case "", "table":
	case "csv", "json":
		sh.format = format
	case "arrow":
		return usageError(stderr, "--format arrow is binary output: redirect stdout or use --output with a script")
	default:
		return usageError(stderr, fmt.Sprintf("unknown format %q (want table, csv, json or arrow)", format))
	}
	history := historyFile()
	rl, err := readline.NewEx(&readline.Config{
		Prompt:      prompt,
		HistoryFile: history,
		// the shell saves a statement typed over several lines as one
		// entry (shell_history.go)
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           completer{sh},
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	defer rl.Close()
	sh.in = &readlineSource{rl: rl, historyStarted: history != ""}

	// SIGINT is watched for the whole session: while a query runs, Ctrl-C
	// cancels it; at the prompt readline reads Ctrl-C as a key itself.
	w := newInterruptWatcher()
	defer w.close()
	sh.watchInterrupt = w.watch
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		rl.Close() // SIGTERM at the prompt: Readline returns and the shell ends
	}()

	if !sh.runInit(ctx, init) {
		return 1
	}
	fmt.Fprintln(stderr, `wsql shell: end statements with ';', \help for help, \q to quit`)
	return sh.run(ctx)
}

// historyFile is $WSQL_HISTORY, else ~/.wsql_history; "" (no history
// kept) without a home directory.
func historyFile() string {
	if p := os.Getenv("WSQL_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".wsql_history")
}

// readlineSource is the shell's LineSource on a terminal.
type readlineSource struct {
	rl *readline.Instance
	// historyStarted: readline's history list is not empty (a history
	// file always gives it its slot for the line being typed)
	historyStarted bool
}

func (r *readlineSource) Readline() (string, error) {
	line, err := r.rl.Readline()
	if err == readline.ErrInterrupt {
		return line, errInterrupt
	}
	if err == nil && r.historyStarted {
		// Without auto-save, readline leaves its history where Enter found
		// it: on a recalled entry, with the edits made to it, so that the
		// next Up would show the edited entry, and SaveHistory would save
		// it instead of the entry given. Saving "" moves it back to the
		// end and forgets the edits (readline's Revert, not exported).
		_ = r.rl.SaveHistory("")
	}
	return line, err
}

func (r *readlineSource) SetPrompt(p string) { r.rl.SetPrompt(p) }

// SaveHistory adds an entry to the history and its file; a failure to
// write the file is not worth interrupting the session for.
func (r *readlineSource) SaveHistory(entry string) {
	_ = r.rl.SaveHistory(entry)
	r.historyStarted = true
}

// completer adapts shell.complete to readline, which wants the rest of
// each candidate after the word typed.
type completer struct{ sh *shell }

func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	word, cands := c.sh.complete(line, pos)
	n := len([]rune(word))
	// a space to go on typing; in quotes (a SET key, a WITH key or value)
	// the closing quote, unless it is there already
	end := []rune{' '}
	if start := pos - n; start > 0 && line[start-1] == '\'' {
		end = []rune{'\''}
		if pos < len(line) && line[pos] == '\'' {
			end = nil
		}
	}
	out := make([][]rune, 0, len(cands))
	for _, cand := range cands {
		out = append(out, append([]rune(cand)[n:], end...))
	}
	return out, n
}

// interruptWatcher turns SIGINT into cancelling the running statement.
// It stays subscribed between statements so a stray Ctrl-C there does not
// kill the shell.
type interruptWatcher struct {
	c      chan os.Signal
	mu     sync.Mutex
	cancel context.CancelFunc
}

func newInterruptWatcher() *interruptWatcher {
	w := &interruptWatcher{c: make(chan os.Signal, 1)}
	signal.Notify(w.c, os.Interrupt)
	go func() {
		for range w.c {
			w.mu.Lock()
			if w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
		}
	}()
	return w
}

func (w *interruptWatcher) watch(cancel context.CancelFunc) (stop func()) {
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		w.cancel = nil
		w.mu.Unlock()
	}
}

func (w *interruptWatcher) close() {
	signal.Stop(w.c)
	close(w.c)
}
