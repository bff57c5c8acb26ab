package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsql/wsql"
)

// statusLine shows what a running query is doing on one line of stderr —
// rows/s, the watermark, open windows, late rows, elapsed time — and erases
// it before anything else is printed. It is drawn only on a terminal, so
// nothing of it reaches piped output.
type statusLine struct {
	w     io.Writer
	mu    sync.Mutex // held while the line is drawn or erased and while output is printed
	shown bool
	// interrupted is set by Ctrl-C while the query runs: the line is not
	// drawn again until the next statement, so a progress report racing
	// the cancellation cannot leave it behind the summary
	interrupted atomic.Bool
	// echoed is set by Ctrl-C too: the terminal echoed ^C where the
	// cursor was, so the line is erased before the next output even when
	// the status line was not shown
	echoed atomic.Bool
}

// start readies the line for a statement.
func (s *statusLine) start() {
	s.interrupted.Store(false)
	s.echoed.Store(false)
}

// interrupt marks the running statement as cancelled by Ctrl-C. It does
// not take the lock: it is called from the signal watcher, which must not
// wait for output that may be blocked.
func (s *statusLine) interrupt() {
	s.interrupted.Store(true)
	s.echoed.Store(true)
}

// update redraws the line from a progress snapshot.
func (s *statusLine) update(p wsql.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interrupted.Load() || p.Err != nil {
		return // stopped, or the run's end: its error or summary follows
	}
	rate := 0.0
	if secs := p.Elapsed.Seconds(); secs > 0 {
		rate = float64(p.RowsRead) / secs
	}
	wm := "none yet"
	if p.Watermark > -1<<62 {
		wm = time.UnixMilli(p.Watermark).UTC().Format("2006-01-02 15:04:05.000")
	}
	fmt.Fprintf(s.w, "\r\x1b[K%d rows (%.0f rows/s) · watermark %s · %d open windows · %d late · %s",
		p.RowsRead, rate, wm, p.OpenWindows, p.LateRowsDropped, p.Elapsed.Round(100*time.Millisecond))
	s.shown = true
}

// clear erases the line, if drawn or holding an echoed ^C.
func (s *statusLine) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
}

func (s *statusLine) clearLocked() {
	if echoed := s.echoed.Swap(false); s.shown || echoed {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.shown = false
	}
}

// print runs write, which prints to the terminal, on a cleared line, with
// no redraw of the status line before it is done.
func (s *statusLine) print(write func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	write()
}
