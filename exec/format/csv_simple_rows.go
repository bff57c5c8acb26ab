package format

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/scalartext"
)

// The simple-rows path decodes the common case of CSV, a column at a time:
// records of unquoted fields ending in "\n". A first pass finds every
// field's end, eight bytes at a time; then each column's fields are
// converted in one tight loop, with no per-field bookkeeping. Anything
// else (a quote, a "\r", a comment, a blank line, a wrong field count, an
// over-long record, a value its loop does not parse) ends the run before
// that record, and the record-at-a-time parser takes it, so results and
// errors are the same either way. Measured on the benchmark's rows
// (TIMESTAMP(3), STRING, DOUBLE): the decoder went from about 120 to
// about 45 ns a row.

// csvOnes has 1 in every byte: csvOnes*c repeats byte c eight times.
const csvOnes = 0x0101010101010101

// csvZeroBytes has 0x80 in each byte of x that is zero, and 0 elsewhere.
// Unlike the shorter (x-ones)&^x form it has no false positives, so the
// positions it gives need no check.
func csvZeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^(((x & low7) + low7) | x | low7)
}

// byteAhead finds the next occurrence of one byte in the input, reading
// each byte of the input once however often it is asked: positions are
// file offsets, so they survive the read buffer moving its contents.
type byteAhead struct {
	c  byte
	at int64 // the occurrence found last, or -1
	to int64 // the input is scanned up to here (exclusive)
}

// next is the file offset of the first c in buf[pos:end] (buf[0] being at
// offset base), or of end when there is none.
func (a *byteAhead) next(buf []byte, base int64, pos, end int) int64 {
	from := base + int64(pos)
	if a.at >= from {
		return a.at
	}
	from = max(from, a.to)
	if stop := base + int64(end); from < stop {
		if k := bytes.IndexByte(buf[from-base:end], a.c); k >= 0 {
			a.at = from + int64(k)
			a.to = a.at + 1
			return a.at
		}
		a.to = stop
	}
	a.at = -1
	return base + int64(end)
}

// simpleRows is the simple-rows path's state in a decoder.
type simpleRows struct {
	on     bool      // the schema has no column the path cannot fill
	quotes byteAhead // where the run must stop: the next quote character
	crs    byteAhead // and the next '\r'
	// bounds holds, for row r and column c, the offset of the field's
	// start at r*columns+c; the one after a row's last field is the next
	// row's start, and its last field ends one byte (the "\n") before it.
	bounds []int32
}

// restart forgets where the quotes and '\r's of an earlier input were: a
// decoder reset to a new input counts its offsets from 0 again.
func (s *simpleRows) restart() {
	s.quotes.at, s.quotes.to = -1, 0
	s.crs.at, s.crs.to = -1, 0
}

// initSimpleRows enables the path when every column is one it fills.
func (d *CSVDecoder) initSimpleRows() {
	d.simple = simpleRows{on: true, quotes: byteAhead{c: d.quote, at: -1}, crs: byteAhead{c: '\r', at: -1}}
	for i := range d.cols {
		if k := d.cols[i].kind; k == csvNested || k == csvBinary {
			d.simple.on = false
		}
	}
}

// appendSimpleRows decodes the run of simple records at the read position,
// up to the batch's size, and returns how many it appended.
func (d *CSVDecoder) appendSimpleRows() int {
	s := &d.simple
	stop := min(s.quotes.next(d.buf, d.base, d.pos, d.end), s.crs.next(d.buf, d.base, d.pos, d.end))
	b := d.buf[d.pos : stop-d.base]
	if len(b) > math.MaxInt32 {
		b = b[:math.MaxInt32] // offsets in bounds are int32
	}
	rows, ascii := d.scanSimpleRows(b, d.batchSize-d.nrows)
	for i := range d.cols {
		rows = d.appendSimpleColumn(i, b, rows, ascii)
	}
	for i := range d.cols {
		d.cols[i].truncate(d.nrows + rows) // the columns before one that stopped early
	}
	d.nrows += rows
	d.pos += int(s.bounds[rows*len(d.cols)])
	d.line += rows
	return rows
}

// scanSimpleRows finds the field ends of up to max whole records at the
// start of b, which holds no quote and no '\r'. ascii is false when b may
// hold a byte above 0x7f (it looks beyond the records, so it may say so
// needlessly, never wrongly).
func (d *CSVDecoder) scanSimpleRows(b []byte, max int) (rows int, ascii bool) {
	s := &d.simple
	nc := len(d.cols)
	bounds := append(s.bounds[:0], 0) // a local: see appendSimpleStrings
	defer func() { s.bounds = bounds }()
	delims, newlines := csvOnes*uint64(d.delim), uint64(csvOnes*'\n')
	var high uint64
	field, start := 0, 0 // the current record's fields ended so far, and its start
	comments := d.opts.AllowComments
	for i := 0; i < len(b) && rows < max; i += 8 {
		var w uint64
		if i+8 <= len(b) {
			w = binary.LittleEndian.Uint64(b[i:])
		} else {
			var tail [8]byte // zero bytes: neither a delimiter nor a line end
			copy(tail[:], b[i:])
			w = binary.LittleEndian.Uint64(tail[:])
		}
		high |= w
		for m := csvZeroBytes(w^delims) | csvZeroBytes(w^newlines); m != 0; m &= m - 1 {
			k := i + bits.TrailingZeros64(m)>>3
			if b[k] != '\n' {
				if field == nc-1 {
					return rows, false // too many fields
				}
				bounds = append(bounds, int32(k+1))
				field++
				continue
			}
			// A record of one empty field is a blank line, skipped by the
			// record parser; a comment is skipped too.
			if field != nc-1 || k == start || comments && b[start] == '#' || k+1-start > d.limit {
				return rows, false
			}
			start, field = k+1, 0
			bounds = append(bounds, int32(start))
			if rows++; rows == max {
				break
			}
		}
	}
	return rows, high&(csvOnes*0x80) == 0
}

// simpleField is the field of the scanned records of b whose start is at
// bounds[i]: field i%columns of row i/columns.
func simpleField(b []byte, bounds []int32, i int) []byte {
	return b[bounds[i] : bounds[i+1]-1]
}

// appendSimpleColumn appends column col of the first rows scanned records
// and returns how many it appended: fewer when a field needs the record
// parser (to be an error with its position, or a form it alone reads).
// Each type's common form is parsed inline; the rest goes through
// appendField, as in the record parser.
func (d *CSVDecoder) appendSimpleColumn(col int, b []byte, rows int, ascii bool) int {
	c := &d.cols[col]
	c.valid = slices.Grow(c.valid, rows)
	c.fixed = slices.Grow(c.fixed, rows*c.width)
	switch {
	case c.kind == csvString:
		c.offs = slices.Grow(c.offs, rows)
		return d.appendSimpleStrings(c, col, b, rows, ascii)
	case c.kind == csvFloat64, c.kind == csvTimestamp && !c.zoned:
		return d.appendSimpleFixed(c, col, b, rows)
	}
	bounds, nc := d.simple.bounds, len(d.cols)
	for r, i := 0, col; r < rows; r, i = r+1, i+nc {
		if d.appendField(c, simpleField(b, bounds, i), false) != "" {
			return r
		}
	}
	return rows
}

// appendSimpleStrings is appendSimpleColumn for a STRING column. The
// column's slices are held in locals during the loop: assigning a slice
// to the heap-allocated column every row costs a write barrier while the
// collector runs (measured: an eighth of the decoder's time).
func (d *CSVDecoder) appendSimpleStrings(c *csvColumn, col int, b []byte, rows int, ascii bool) int {
	nullLit := d.opts.NullLiteral
	bounds, nc := d.simple.bounds, len(d.cols)
	valid, offs, data := c.valid, c.offs, c.data
	r := 0
	for i := col; r < rows; r, i = r+1, i+nc {
		f := simpleField(b, bounds, i)
		if len(f) > 0 && ascii && (nullLit == "" || string(f) != nullLit) {
			data = append(data, f...)
			offs = append(offs, int32(len(data)))
			valid = append(valid, true)
			continue
		}
		c.valid, c.offs, c.data = valid, offs, data
		if d.appendField(c, f, false) != "" {
			return r
		}
		valid, offs, data = c.valid, c.offs, c.data
	}
	c.valid, c.offs, c.data = valid, offs, data
	return r
}

// appendSimpleFixed is appendSimpleColumn for a DOUBLE or TIMESTAMP
// column, whose common forms it reads inline, storing the values in place
// (the column has room for them: see appendSimpleColumn).
func (d *CSVDecoder) appendSimpleFixed(c *csvColumn, col int, b []byte, rows int) int {
	nullLit := d.opts.NullLiteral
	bounds, nc := d.simple.bounds, len(d.cols)
	floats := c.kind == csvFloat64
	from, base := len(c.valid), len(c.fixed)
	valid := c.valid[:from+rows]
	values := arrow.Uint64Traits.CastFromBytes(c.fixed[base : base+rows*8])
	r := 0
	for i := col; r < rows; r, i = r+1, i+nc {
		f := simpleField(b, bounds, i)
		var v uint64
		var ok bool
		if floats {
			var x float64
			x, ok = scalartext.FastFloat(f)
			v = math.Float64bits(x)
		} else {
			var t int64
			t, ok = c.minute.Parse(f, c.unit)
			v = uint64(t)
		}
		if ok && (nullLit == "" || string(f) != nullLit) {
			values[r] = v
			valid[from+r] = true
			continue
		}
		// appendField appends to the column's slices: give them the
		// values so far; it stays within their room.
		c.valid, c.fixed = valid[:from+r], c.fixed[:base+r*8]
		if d.appendField(c, f, false) != "" {
			return r
		}
		c.fixed = c.fixed[:base] // its value is values[r] now
	}
	c.valid, c.fixed = valid[:from+r], c.fixed[:base+r*8]
	return r
}
