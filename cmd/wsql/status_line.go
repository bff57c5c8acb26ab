package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wsql/wsql"
)

// statusLine shows what a running query is doing on one line of stderr —
// rows/s, the watermark, open windows, late rows, elapsed time — and erases
// it before anything else is printed. It is drawn only on a terminal, so
// nothing of it reaches piped output.
type statusLine struct {
	w     io.Writer
	mu    sync.Mutex
	shown bool
}

// update redraws the line from a progress snapshot.
func (s *statusLine) update(p wsql.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
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

// clear erases the line, if drawn.
func (s *statusLine) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.shown = false
	}
}
