package writer

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/materialize"
	"github.com/wsql/wsql/exec/rowkind"
)

// Screen is the terminal a materialised table is drawn on while results
// arrive. The zero Screen is no terminal: the table is printed once, when
// the result ends.
type Screen struct {
	// Size is the terminal's size in cells, asked at each drawing so a
	// resized window is followed; nil when the output is no terminal.
	Size func() (width, height int, ok bool)
	// Draw wraps the drawings the writer makes by itself between batches
	// (for a status line to be erased first and drawn again after); nil
	// draws directly. WriteBatch and Close draw without it.
	Draw func(draw func())
	// Every is the least time between two drawings; 0 is 100 ms.
	Every time.Duration
}

// materializedTableWriter is Flink's SQL client's table result mode: the
// changelog applied to a materialised view (exec/materialize), shown as
// an aligned table without the op column.
type materializedTableWriter struct {
	w      io.Writer
	loc    *time.Location
	screen Screen
	ops    bool // the first column is the row kind column, not shown
	table  *tableWriter
	widths []int // each column's width before any row: its header's, its type's
	cols   []formattedColumn
	key    []byte

	mu      sync.Mutex // the query's WriteBatch and Close, the redraw timer
	view    *materialize.View[tableRow]
	drawn   int // lines of the live table on the screen, above the cursor
	lastAt  time.Time
	dirty   bool // the view changed since it was drawn
	pending *time.Timer
	closed  bool
}

// tableRow is a row of the view: its cells as the table prints them.
type tableRow struct {
	cells []string
	nulls []bool
}

// NewMaterializedTableWriter writes results as Flink's SQL client does in
// its table result mode: each change applied to a materialised table (+I
// and +U put a row, -U and -D take out the newest equal one), printed as
// NewTableWriter prints rows, without the op column. On a terminal (see
// Screen) the table is drawn as it changes, in place, at most every 100
// ms: its last rows as far as the terminal's height allows, each line cut
// at its width; then, when the result ends, in full. Elsewhere it is
// printed once, when the result ends.
func NewMaterializedTableWriter(w io.Writer, schema *arrow.Schema, loc *time.Location, screen Screen) ResultWriter {
	m := &materializedTableWriter{w: w, loc: loc, screen: screen, view: materialize.NewView[tableRow]()}
	shown := schema
	if rowkind.IsUpdateStream(schema) {
		m.ops = true
		fields := schema.Fields()[1:]
		md := schema.Metadata()
		shown = arrow.NewSchema(fields, &md)
	}
	if m.screen.Every <= 0 {
		m.screen.Every = 100 * time.Millisecond
	}
	m.table = NewTableWriter(w, shown, loc).(*tableWriter)
	m.widths = slices.Clone(m.table.widths)
	m.cols = formattedColumns(shown)
	return m
}

func (m *materializedTableWriter) WriteBatch(rec arrow.RecordBatch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrWriterClosed
	}
	first := 0
	if m.ops {
		first = 1
	}
	if int(rec.NumCols())-first != len(m.cols) {
		return fmt.Errorf("table writer: batch has %d columns, schema has %d", int(rec.NumCols())-first, len(m.cols))
	}
	n := int(rec.NumRows())
	for j := range m.cols {
		m.cols[j].format(rec.Column(first+j), m.loc)
	}
	kinds := rowkind.Of(rec)
	for i := range n {
		m.key = m.key[:0]
		for j := range m.cols {
			cell := m.cols[j].cell(i)
			if m.cols[j].nulls[i] {
				m.key = append(m.key, 0)
				continue
			}
			m.key = append(m.key, 1)
			m.key = strconv.AppendInt(m.key, int64(len(cell)), 10)
			m.key = append(m.key, ':')
			m.key = append(m.key, cell...)
		}
		kind := kinds.At(i)
		var row tableRow
		if !kind.IsRetraction() {
			row = tableRow{cells: make([]string, len(m.cols)), nulls: make([]bool, len(m.cols))}
			for j := range m.cols {
				row.cells[j], row.nulls[j] = string(m.cols[j].cell(i)), m.cols[j].nulls[i]
			}
		}
		if m.view.Apply(kind, string(m.key), row) {
			m.dirty = true
		}
	}
	if m.screen.Size == nil || !m.dirty {
		return nil
	}
	if wait := m.screen.Every - time.Since(m.lastAt); wait > 0 {
		if m.pending == nil {
			m.pending = time.AfterFunc(wait, m.redraw)
		}
		return nil
	}
	return m.drawLive()
}

// redraw is the timer's drawing of changes that came less than Every
// after the last drawing.
func (m *materializedTableWriter) redraw() {
	draw := func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.pending = nil
		if !m.closed && m.dirty {
			_ = m.drawLive() // a failed write fails the next WriteBatch or Close
		}
	}
	if m.screen.Draw != nil {
		m.screen.Draw(draw)
	} else {
		draw()
	}
}

func (m *materializedTableWriter) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	if m.pending != nil {
		m.pending.Stop() // a timer already firing sees closed
		m.pending = nil
	}
	t := m.table
	t.buf = t.buf[:0]
	t.buf = m.eraseLive(t.buf)
	t.buf = m.appendTable(t.buf, m.view.Len(), 0)
	_, err := m.w.Write(t.buf)
	return err
}

// drawLive draws the table over the one drawn before: the last rows that
// fit the terminal's height, each line cut at its width.
func (m *materializedTableWriter) drawLive() error {
	width, height, ok := m.screen.Size()
	if !ok {
		width, height = 80, 24
	}
	// borders, header and the count take 5 lines; one more is for the
	// cursor (and a status line), so the top of the table stays on the
	// screen and can be drawn over
	rows := max(0, min(m.view.Len(), height-6))
	width = max(width, 1)
	t := m.table
	t.buf = t.buf[:0]
	t.buf = m.eraseLive(t.buf)
	start := len(t.buf)
	t.buf = m.appendTable(t.buf, rows, width)
	m.drawn = 0
	for _, c := range t.buf[start:] {
		if c == '\n' {
			m.drawn++
		}
	}
	m.lastAt, m.dirty = time.Now(), false
	_, err := m.w.Write(t.buf)
	return err
}

// eraseLive moves the cursor to the top of the live table and erases it.
func (m *materializedTableWriter) eraseLive(dst []byte) []byte {
	if m.drawn == 0 {
		return dst
	}
	dst = append(dst, "\r\x1b["...)
	dst = strconv.AppendInt(dst, int64(m.drawn), 10)
	dst = append(dst, "A\x1b[J"...)
	m.drawn = 0
	return dst
}

// appendTable appends the table of the view's last rows rows, its lines
// cut at width cells (0: whole), and the count of the view's rows.
func (m *materializedTableWriter) appendTable(dst []byte, rows, width int) []byte {
	t := m.table
	total := m.view.Len()
	skip := total - rows
	copy(t.widths, m.widths)
	i := 0
	for r := range m.view.All() {
		if i++; i <= skip {
			continue
		}
		for j, c := range r.cells {
			if !r.nulls[j] {
				t.widths[j] = max(t.widths[j], displayWidth([]byte(c)))
			}
		}
	}
	t.buf = dst
	lineStart := len(t.buf)
	endLine := func() {
		if width > 0 {
			t.buf = append(t.buf[:lineStart], clipToWidth(t.buf[lineStart:len(t.buf)-1], width)...)
			t.buf = append(t.buf, '\n')
		}
		lineStart = len(t.buf)
	}
	// the header: a border, the names, a border, each its own line
	t.appendBorder()
	endLine()
	t.startLine()
	for j, name := range t.names {
		t.appendCell([]byte(name), j)
	}
	t.endLine()
	endLine()
	t.appendBorder()
	endLine()
	i = 0
	for r := range m.view.All() {
		if i++; i <= skip {
			continue
		}
		t.startLine()
		for j, c := range r.cells {
			if r.nulls[j] {
				t.appendCell([]byte("NULL"), j)
			} else {
				t.appendCell([]byte(c), j)
			}
		}
		t.endLine()
		endLine()
	}
	t.appendBorder()
	endLine()
	switch {
	case skip > 0:
		t.buf = fmt.Appendf(t.buf, "%d rows, the last %d shown\n", total, rows)
	case total == 1:
		t.buf = append(t.buf, "1 row\n"...)
	default:
		t.buf = fmt.Appendf(t.buf, "%d rows\n", total)
	}
	endLine()
	return t.buf
}

// clipToWidth cuts a line of table text (escaped: no control
// characters) to at most width terminal cells.
func clipToWidth(line []byte, width int) []byte {
	w := 0
	for i := 0; i < len(line); {
		_, size := utf8.DecodeRune(line[i:])
		if w += displayWidth(line[i : i+size]); w > width {
			return line[:i]
		}
		i += size
	}
	return line
}
