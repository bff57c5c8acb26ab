package writer

import (
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

type tableWriter struct {
	w       io.Writer
	loc     *time.Location
	names   []string
	widths  []int
	right   []bool
	cols    []formattedColumn
	buf     []byte
	started bool // header printed
	rows    int64
	closed  bool
	// plain is the layout of Flink's SQL client in changelog mode: the
	// columns aligned without borders and no closing count
	plain bool
}

// NewTableWriter prints results as an aligned ASCII table (like Flink's
// tableau mode or psql) while they stream in: numbers right-aligned, text
// left-aligned, NULL as NULL, control characters escaped. A column is as wide
// as its header, the fixed width of its type (23 for TIMESTAMP(3)) and the
// widest value seen so far; a later, wider value widens the column and the
// border and header are printed again, so nothing is ever truncated. Close
// prints the bottom border and the row count ("0 rows", "1 row", "2 rows").
func NewTableWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	n := schema.NumFields()
	t := &tableWriter{w: w, loc: loc, names: make([]string, n), widths: make([]int, n),
		right: make([]bool, n), cols: formattedColumns(schema)}
	for j, f := range schema.Fields() {
		t.names[j] = f.Name
		t.right[j] = rightAligned(f.Type)
		t.widths[j] = max(displayWidth([]byte(f.Name)), naturalTextWidth(f.Type), len("NULL"))
	}
	return t
}

// NewChangelogWriter prints results in the layout of Flink's SQL client in
// changelog mode: a line of column names, then a line per row, aligned
// as NewTableWriter aligns them but without borders or a closing count.
// An update stream's op column comes first, so each change reads as its
// kind (+I, -U, +U, -D) and the row.
func NewChangelogWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	t := NewTableWriter(w, schema, loc).(*tableWriter)
	t.plain = true
	return t
}

func (t *tableWriter) WriteBatch(rec arrow.RecordBatch) error {
	if t.closed {
		return ErrWriterClosed
	}
	if int(rec.NumCols()) != len(t.cols) {
		return fmt.Errorf("table writer: batch has %d columns, schema has %d", rec.NumCols(), len(t.cols))
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	widened := false
	for j, col := range rec.Columns() {
		fc := &t.cols[j]
		fc.format(col, t.loc)
		for i := range n {
			if w := displayWidth(fc.cell(i)); w > t.widths[j] {
				t.widths[j], widened = w, true
			}
		}
	}
	t.buf = t.buf[:0]
	if !t.started || widened {
		t.appendHeader()
	}
	for i := range n {
		t.startLine()
		for j := range t.cols {
			if t.cols[j].nulls[i] {
				t.appendCell([]byte("NULL"), j)
			} else {
				t.appendCell(t.cols[j].cell(i), j)
			}
		}
		t.endLine()
	}
	t.rows += int64(n)
	_, err := t.w.Write(t.buf)
	return err
}

func (t *tableWriter) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	t.buf = t.buf[:0]
	if t.plain {
		if !t.started {
			t.appendHeader()
			_, err := t.w.Write(t.buf)
			return err
		}
		return nil
	}
	if !t.started {
		t.appendHeader() // its closing border is the bottom of an empty table
	} else {
		t.appendBorder()
	}
	t.buf = strconv.AppendInt(t.buf, t.rows, 10)
	if t.rows == 1 {
		t.buf = append(t.buf, " row\n"...)
	} else {
		t.buf = append(t.buf, " rows\n"...)
	}
	_, err := t.w.Write(t.buf)
	return err
}

func (t *tableWriter) appendHeader() {
	t.started = true
	t.appendBorder()
	t.startLine()
	for j, name := range t.names {
		t.appendCell([]byte(name), j)
	}
	t.endLine()
	t.appendBorder()
}

// startLine and endLine open and close a line of cells.
func (t *tableWriter) startLine() {
	if !t.plain {
		t.buf = append(t.buf, '|')
	}
}

func (t *tableWriter) endLine() {
	if t.plain {
		// no padding after the last cell
		for len(t.buf) > 0 && t.buf[len(t.buf)-1] == ' ' {
			t.buf = t.buf[:len(t.buf)-1]
		}
	}
	t.buf = append(t.buf, '\n')
}

func (t *tableWriter) appendBorder() {
	if t.plain {
		return
	}
	t.buf = append(t.buf, '+')
	for _, w := range t.widths {
		for range w + 2 {
			t.buf = append(t.buf, '-')
		}
		t.buf = append(t.buf, '+')
	}
	t.buf = append(t.buf, '\n')
}

func (t *tableWriter) appendCell(v []byte, j int) {
	pad := t.widths[j] - displayWidth(v)
	t.buf = append(t.buf, ' ')
	if t.right[j] {
		t.buf = appendSpaces(t.buf, pad)
	}
	t.buf = appendTableText(t.buf, v)
	if !t.right[j] {
		t.buf = appendSpaces(t.buf, pad)
	}
	if t.plain {
		t.buf = append(t.buf, ' ')
	} else {
		t.buf = append(t.buf, ' ', '|')
	}
}

func appendSpaces(dst []byte, n int) []byte {
	for range n {
		dst = append(dst, ' ')
	}
	return dst
}

// appendTableText copies v, escaping control characters so that a value
// stays on its row; displayWidth counts the escapes the same way.
func appendTableText(dst, v []byte) []byte {
	for len(v) > 0 {
		r, size := utf8.DecodeRune(v)
		switch {
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == utf8.RuneError && size == 1:
			dst = append(dst, '?')
		case r < 0x20 || r == 0x7f:
			dst = append(dst, `\x`...)
			dst = append(dst, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15])
		default:
			dst = append(dst, v[:size]...)
		}
		v = v[size:]
	}
	return dst
}

// displayWidth is the number of terminal cells v takes once escaped: wide
// East Asian characters take two, combining marks none.
func displayWidth(v []byte) int {
	w := 0
	for i := 0; i < len(v); {
		if v[i] < utf8.RuneSelf {
			switch c := v[i]; {
			case c == '\n' || c == '\r' || c == '\t':
				w += 2
			case c < 0x20 || c == 0x7f:
				w += 4
			default:
				w++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(v[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			w++
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b:
		case isWideRune(r):
			w += 2
		default:
			w++
		}
	}
	return w
}

// isWideRune approximates East Asian Wide/Fullwidth ranges (CJK, Hangul,
// fullwidth forms, emoji).
func isWideRune(r rune) bool {
	return (r >= 0x1100 && r <= 0x115f) || (r >= 0x2e80 && r <= 0x303e) ||
		(r >= 0x3041 && r <= 0x33ff) || (r >= 0x3400 && r <= 0x4dbf) ||
		(r >= 0x4e00 && r <= 0x9fff) || (r >= 0xa000 && r <= 0xa4cf) ||
		(r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfaff) ||
		(r >= 0xfe30 && r <= 0xfe4f) || (r >= 0xff00 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1f300 && r <= 0x1f64f) ||
		(r >= 0x1f900 && r <= 0x1f9ff) || (r >= 0x20000 && r <= 0x3fffd)
}
