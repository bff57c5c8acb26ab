package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format/scalartext"
)

// CSVOptions mirror the options of Flink's 'csv' format.
//
// NULL handling:
//   - an unquoted field equal to a non-empty NullLiteral is NULL for every type
//     (a quoted one is the literal text, so "null" can still be a string);
//   - an empty field (quoted or not) is NULL for every non-string type;
//   - for STRING, NullLiteral == "" (the default) means the empty unquoted field
//     is the null literal: a,,c has a NULL second field while a,"",c has the
//     empty string. With a non-empty NullLiteral an empty field is "". This is
//     the convention wsql's CSV writer follows, so output reads back unchanged.
//
// Numeric, boolean and temporal fields may have surrounding blanks (Flink trims
// them); strings are kept verbatim. Invalid UTF-8 in a string field is a bad
// row, as in Flink, whose Jackson parser rejects it. Blank lines are skipped.
// Lines end in "\n", "\r\n" or a lone "\r" (see csv_line_ends.go).
type CSVOptions struct {
	FieldDelimiter        byte   // default ','  ('csv.field-delimiter')
	QuoteChar             byte   // default '"'  ('csv.quote-character')
	IgnoreParseErrors     bool   // skip bad rows and count them ('csv.ignore-parse-errors')
	NullLiteral           string // 'csv.null-literal'; see above
	ArrayElementDelimiter string // between an ARRAY's or ROW's elements; default ";" ('csv.array-element-delimiter')
	IgnoreFirstLine       bool   // skip the first record (a header)
	AllowComments         bool   // skip lines starting with '#' ('csv.allow-comments')

	// OnBadRow, if set, sees every row skipped under IgnoreParseErrors, e.g. to
	// write a dead-letter file. raw is the record text without its line end and
	// is only valid during the call; nil for a record longer than
	// MaxRecordBytes, which is not held in memory.
	OnBadRow func(err *ParseError, raw []byte)

	// MaxRecordBytes bounds a record, its line end included
	// ('wsql.max-record-bytes'); 0 is DefaultMaxRecordBytes. A longer one is
	// a bad row (skipped to its end under IgnoreParseErrors) and is never
	// held in memory whole.
	MaxRecordBytes int
}

const (
	csvDefaultBatchSize = 4096
	csvDefaultBufSize   = 1 << 20
	csvMaxStringBytes   = 1 << 30 // per batch and column; keeps int32 offsets safe
	csvMaxValueInError  = 256
)

type csvKind uint8

const (
	csvString csvKind = iota
	csvBool
	csvInt
	csvFloat32
	csvFloat64
	csvDecimal
	csvDate
	csvTime
	csvTimestamp
	csvNested // a ROW, ARRAY, MAP or MULTISET the JSON decoder builds (json_nested.go)
	csvBinary // BYTES: base64 text, held as a string column's offsets and data
)

// csvColumn accumulates one column of the current batch in reusable Go
// slices; a bad row is rolled back by truncating them to the previous row count.
type csvColumn struct {
	kind     csvKind
	name     string
	dt       arrow.DataType
	sqlType  string
	width    int // bytes per value in fixed
	min, max int64
	unit     arrow.TimeUnit
	zoned    bool
	prec     int32
	scale    int32
	notNull  bool // a NULL here makes the row bad (NOT NULL columns, the rowtime)

	valid []bool
	fixed []byte // native-endian values, width bytes each
	bools []bool
	offs  []int32 // string offsets, one more than rows
	data  []byte

	nested *nestedColumn          // kind csvNested
	minute scalartext.MinuteCache // kind csvTimestamp, on the simple-rows path
	// out, on the parallel decoder's path, is the Arrow buffer fixed holds
	// the batch's values in: the batch takes it instead of a copy (see
	// CSVDecoder.outMem).
	out *memory.Buffer
}

// CSVDecoder turns CSV text into Arrow record batches of a fixed schema.
type CSVDecoder struct {
	readBuffer
	schema    *arrow.Schema
	opts      CSVOptions
	mem       memory.Allocator
	batchSize int
	delim     byte
	quote     byte
	header    bool // the header still has to be skipped

	fields  [][]byte
	quoted  []bool
	escaped []bool
	unesc   []byte
	digits  []byte
	recErr  string // record-level syntax error of the last record
	recCol  int

	cols  []csvColumn
	nrows int
	bad   badRows
	err   error // sticky: returned once pending rows are out
	recAt int64 // the file offset of the record readRecord returned

	// An over-long record being skipped (see overLong): how its end is
	// found, whether it is a row, its line, and where it starts.
	skip     *recordSkip
	skipRow  bool
	skipLine int
	skipFrom *SplitPosition

	simple simpleRows // the column-at-a-time path (csv_simple_rows.go)
	// outMem, set in the parallel decoder's chunk decoders, makes
	// fixed-width columns append into Arrow buffers of a whole batch
	// allocated from it, handed to the batch as they are; the chunk's
	// owner releases what a last batch left unused (releaseOutputs).
	// Measured: copying the values into the batch was a fifth of the
	// decoding. build also takes the buffers it writes whole from it.
	outMem memory.Allocator
}

var errCSVYield = errors.New("csv: yield batch")

// NewCSVDecoder reads r, labelled source in errors, into batches of up to
// batchSize rows (default 4096) with the given schema. A batch may be smaller
// when the reader has no more data ready (a short read from a pipe), so rows
// from a slow stream are not held back waiting for a full batch.
func NewCSVDecoder(r io.Reader, source string, schema *arrow.Schema, opts CSVOptions, mem memory.Allocator, batchSize int) *CSVDecoder {
	if opts.FieldDelimiter == 0 {
		opts.FieldDelimiter = ','
	}
	if opts.QuoteChar == 0 {
		opts.QuoteChar = '"'
	}
	if batchSize <= 0 {
		batchSize = csvDefaultBatchSize
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	d := &CSVDecoder{
		readBuffer: readBuffer{r: r, source: source, limit: recordLimit(opts.MaxRecordBytes)}, schema: schema, opts: opts, mem: mem, batchSize: batchSize,
		delim: opts.FieldDelimiter, quote: opts.QuoteChar, header: opts.IgnoreFirstLine,
		bad: badRows{ignore: opts.IgnoreParseErrors, onBad: opts.OnBadRow},
	}
	if opts.FieldDelimiter == opts.QuoteChar || opts.FieldDelimiter == '\n' || opts.FieldDelimiter == '\r' {
		d.err = fmt.Errorf("%s: csv field delimiter %q conflicts with the quote character or line end", source, opts.FieldDelimiter)
		return d
	}
	d.cols = make([]csvColumn, schema.NumFields())
	for i, f := range schema.Fields() {
		if err := d.cols[i].init(f); err != nil {
			d.err = fmt.Errorf("%s: %w", source, err)
			return d
		}
	}
	d.initSimpleRows()
	return d
}

// Skipped is the number of bad rows skipped under IgnoreParseErrors.
func (d *CSVDecoder) Skipped() int64 { return d.bad.skipped }

// Position is where the read stands after the last Next (see
// SplitPosition): past the records of the batches returned and the bad
// rows reported so far; before the bad row that stops the read, if one
// does.
func (d *CSVDecoder) Position() SplitPosition {
	if d.bad.stopAt != nil {
		return *d.bad.stopAt
	}
	if d.skipFrom != nil {
		return *d.skipFrom // an over-long record being skipped is read again
	}
	off := d.offset()
	return SplitPosition{Offset: off, Line: d.line, Skipped: d.bad.skipped, Started: !d.header && off > 0}
}

// ResumeAt makes the decoder continue a read of the same input (same
// options) that stood at p: its reader must be positioned at p.Offset.
// Call it before the first Next. Rows, bad rows, Skipped and line numbers
// in errors then continue as if the read had not been interrupted.
func (d *CSVDecoder) ResumeAt(p SplitPosition) {
	d.resumeAt(p)
	d.bad.skipped = p.Skipped
	d.header = d.header && !p.Started
}

// Lines is the number of physical lines read so far.
func (d *CSVDecoder) Lines() int64 {
	if d.partial {
		return int64(d.line) + 1
	}
	return int64(d.line)
}

// Next returns the next batch, or io.EOF after the last one. The caller owns
// the batch. On a bad row (without IgnoreParseErrors) the rows before it are
// returned first and the *ParseError on the following call.
func (d *CSVDecoder) Next() (arrow.RecordBatch, error) {
	if d.err != nil {
		return nil, d.err
	}
	if d.outMem != nil {
		d.reserveOutputs()
	}
	for d.nrows < d.batchSize {
		if d.simple.on && d.skip == nil && !d.header && d.pos < d.end && d.appendSimpleRows() > 0 {
			if d.stringsFull() {
				break
			}
			continue
		}
		line, raw, err := d.readRecord()
		if err == errCSVYield || err == ErrNoData {
			break // ErrNoData: a followed file has nothing more yet
		}
		if err != nil {
			d.err = err
			break
		}
		perr := d.appendRow(line)
		if perr == nil {
			d.nrows++
			if d.stringsFull() {
				break
			}
			continue
		}
		d.rollback()
		if d.err = d.bad.row(perr, raw, d.recAt, line); d.err != nil {
			d.hintCSV(perr)
			break
		}
	}
	if d.nrows == 0 {
		return nil, d.err
	}
	return d.flush(), nil
}

func (c *csvColumn) init(f arrow.Field) error {
	c.name = f.Name
	c.dt = f.Type
	c.notNull = !f.Nullable
	c.offs = append(c.offs[:0], 0)
	c.sqlType = SQLTypeName(f.Type)
	switch t := f.Type.(type) {
	case *arrow.StringType:
		c.kind = csvString
	case *arrow.BinaryType:
		c.kind = csvBinary
	case *arrow.BooleanType:
		c.kind = csvBool
	case *arrow.Int8Type:
		c.kind, c.width, c.min, c.max = csvInt, 1, math.MinInt8, math.MaxInt8
	case *arrow.Int16Type:
		c.kind, c.width, c.min, c.max = csvInt, 2, math.MinInt16, math.MaxInt16
	case *arrow.Int32Type, *arrow.MonthIntervalType: // a year-month interval: Flink's csv and json read its months
		c.kind, c.width, c.min, c.max = csvInt, 4, math.MinInt32, math.MaxInt32
	case *arrow.Int64Type, *arrow.DurationType: // a day-time interval: its milliseconds
		c.kind, c.width, c.min, c.max = csvInt, 8, math.MinInt64, math.MaxInt64
	case *arrow.Float32Type:
		c.kind, c.width = csvFloat32, 4
	case *arrow.Float64Type:
		c.kind, c.width = csvFloat64, 8
	case *arrow.Decimal128Type:
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("column %s: unsupported decimal precision/scale %d,%d", f.Name, t.Precision, t.Scale)
		}
		c.kind, c.width, c.prec, c.scale = csvDecimal, 16, t.Precision, t.Scale
	case *arrow.Date32Type:
		c.kind, c.width = csvDate, 4
	case *arrow.Time32Type:
		c.kind, c.width, c.unit = csvTime, 4, t.Unit
	case *arrow.Time64Type:
		c.kind, c.width, c.unit = csvTime, 8, t.Unit
		c.sqlType = fmt.Sprintf("TIME(%d)", TimeUnitDigits(t.Unit))
	case *arrow.TimestampType:
		c.kind, c.width, c.unit, c.zoned = csvTimestamp, 8, t.Unit, t.TimeZone != ""
	case *arrow.ListType, *arrow.StructType:
		return c.initElements(f)
	default:
		return fmt.Errorf("column %s: csv format does not support type %s", f.Name, f.Type)
	}
	return nil
}

// readRecord splits the next record into d.fields. It returns the record's
// first line and its raw text, io.EOF at the end, or errCSVYield when rows
// are pending and reading on might block. A record longer than the limit
// is returned with d.recErr set and nil raw text (see overLong).
func (d *CSVDecoder) readRecord() (int, []byte, error) {
	if d.skip != nil {
		return d.skipOverLong()
	}
	for {
		if d.pos == d.end {
			if d.eof {
				return 0, nil, io.EOF
			}
			if err := d.more(0); err != nil {
				return 0, nil, err
			}
			continue
		}
		b := d.buf[d.pos:d.end]
		d.recAt = d.offset()
		if d.opts.AllowComments && !d.header && b[0] == '#' {
			i := csvLineEnd(b)
			n, ok := 0, i >= 0 || d.eof
			if i >= 0 {
				var end int
				end, ok = csvLineEndLen(b, i, d.eof)
				n = i + end
			}
			if !ok {
				if err := d.more(len(b)); err != nil {
					if err == errRecordTooLong {
						return d.overLong(&recordSkip{state: skipLine}, false)
					}
					return 0, nil, err
				}
				continue
			}
			if i < 0 {
				d.pos = d.end
				d.partial = true
			} else {
				d.pos += n
				d.line++
			}
			continue
		}
		n, newlines, ok := d.parseRecord(b, d.eof)
		if !ok {
			if err := d.more(len(b)); err != nil {
				if err == errRecordTooLong {
					return d.overLong(&recordSkip{delim: d.delim, quote: d.quote}, !d.header)
				}
				return 0, nil, err
			}
			continue
		}
		line := d.line + 1
		raw := b[:n]
		if len(raw) > 0 && raw[len(raw)-1] == '\n' {
			raw = raw[:len(raw)-1]
		}
		if len(raw) > 0 && raw[len(raw)-1] == '\r' {
			raw = raw[:len(raw)-1]
		}
		d.pos += n
		d.line += newlines
		if n > 0 && b[n-1] != '\n' && b[n-1] != '\r' {
			d.partial = true
		}
		if d.header {
			d.header = false
			continue
		}
		if n > d.limit {
			d.recErr, d.recCol = recordTooLong(d.limit, "record"), 0
			return line, nil, nil
		}
		if len(d.fields) == 1 && len(d.fields[0]) == 0 && !d.quoted[0] {
			continue // blank line
		}
		d.unescape()
		return line, raw, nil
	}
}

// overLong starts skipping the record at d.pos, which is longer than the
// limit: it is not held in memory but read on to its end (s finds it, the
// way parseRecord would). A row is then returned as a bad record (without
// raw text); a header or comment line is just skipped. Without
// IgnoreParseErrors the read stops at the record instead of skipping it.
func (d *CSVDecoder) overLong(s *recordSkip, row bool) (int, []byte, error) {
	line := d.line + 1
	if row && !d.opts.IgnoreParseErrors {
		d.recErr, d.recCol = recordTooLong(d.limit, "record"), 0
		return line, nil, nil
	}
	d.header = false
	d.skip, d.skipRow, d.skipLine = s, row, line
	d.skipFrom = &SplitPosition{Offset: d.offset(), Line: d.line, Skipped: d.bad.skipped, Started: d.offset() > 0}
	return d.skipOverLong()
}

// skipOverLong goes on skipping the over-long record; ErrNoData (a
// followed file) leaves it to be continued by the next call.
func (d *CSVDecoder) skipOverLong() (int, []byte, error) {
	if err := d.skipRecord(d.skip); err != nil {
		return 0, nil, err
	}
	d.skip, d.skipFrom = nil, nil
	if !d.skipRow {
		return d.readRecord()
	}
	d.recErr, d.recCol = recordTooLong(d.limit, "record"), 0
	return d.skipLine, nil, nil
}

// more reads input for the next record; see readBuffer.fill.
func (d *CSVDecoder) more(need int) error { return d.fill(need, d.nrows > 0) }

// parseRecord splits one record at the start of b into d.fields (slices of b;
// quoted fields with "" escapes are marked and unescaped later). It reports
// ok=false when b ends before the record does and more input may follow.
func (d *CSVDecoder) parseRecord(b []byte, atEOF bool) (n, newlines int, ok bool) {
	d.fields, d.quoted, d.escaped = d.fields[:0], d.quoted[:0], d.escaped[:0]
	d.recErr, d.recCol = "", 0
	delim, quote := d.delim, d.quote
	i, lineEnd := 0, -1
	for {
		if i < len(b) && b[i] == quote {
			start, j, esc := i+1, i+1, false
			for {
				k := bytes.IndexByte(b[j:], quote)
				if k < 0 {
					if !atEOF {
						return 0, 0, false
					}
					newlines += csvCountLineEnds(b[j:])
					d.addField(b[start:], true, esc)
					d.setRecErr("unterminated quoted field")
					return len(b), newlines, true
				}
				newlines += csvCountLineEnds(b[j : j+k])
				j += k
				if j+1 < len(b) && b[j+1] == quote {
					esc, j = true, j+2
					continue
				}
				if j+1 == len(b) && !atEOF {
					return 0, 0, false // the next byte may be the second quote of an escape
				}
				break
			}
			d.addField(b[start:j], true, esc)
			i, lineEnd = j+1, -1
			if i == len(b) {
				return i, newlines, true
			}
			if c := b[i]; c == delim {
				i++
				continue
			} else if c == '\n' || c == '\r' {
				end, ok := csvLineEndLen(b, i, atEOF)
				if !ok {
					return 0, 0, false
				}
				return i + end, newlines + 1, true
			}
			// Text after the closing quote: the row is bad; skip to the field's end.
			d.setRecErr("unexpected text after closing quote")
			k := bytes.IndexAny(b[i:], string([]byte{delim, '\n', '\r'}))
			if k < 0 {
				if !atEOF {
					return 0, 0, false
				}
				return len(b), newlines, true
			}
			i += k
			if b[i] != delim {
				end, ok := csvLineEndLen(b, i, atEOF)
				if !ok {
					return 0, 0, false
				}
				return i + end, newlines + 1, true
			}
			i++
			continue
		}
		if lineEnd < i {
			k := csvLineEnd(b[i:])
			if k < 0 {
				if !atEOF {
					return 0, 0, false
				}
				lineEnd = len(b)
			} else {
				lineEnd = i + k
			}
		}
		if k := bytes.IndexByte(b[i:lineEnd], delim); k >= 0 {
			d.addField(b[i:i+k], false, false)
			i += k + 1
			continue
		}
		d.addField(b[i:lineEnd], false, false)
		if lineEnd == len(b) {
			return len(b), newlines, true
		}
		end, ok := csvLineEndLen(b, lineEnd, atEOF)
		if !ok {
			return 0, 0, false
		}
		return lineEnd + end, newlines + 1, true
	}
}

func (d *CSVDecoder) addField(f []byte, quoted, escaped bool) {
	d.fields = append(d.fields, f)
	d.quoted = append(d.quoted, quoted)
	d.escaped = append(d.escaped, escaped)
}

func (d *CSVDecoder) setRecErr(msg string) {
	if d.recErr == "" {
		d.recErr, d.recCol = msg, len(d.fields)
	}
}

// unescape replaces "" by " in escaped fields, into d.unesc; it is sized up
// front so earlier field slices stay valid while appending.
func (d *CSVDecoder) unescape() {
	total := 0
	for i, esc := range d.escaped {
		if esc {
			total += len(d.fields[i])
		}
	}
	if total == 0 {
		return
	}
	if cap(d.unesc) < total {
		d.unesc = make([]byte, 0, 2*total)
	}
	d.unesc = d.unesc[:0]
	for i, esc := range d.escaped {
		if !esc {
			continue
		}
		f, start := d.fields[i], len(d.unesc)
		for j := 0; j < len(f); j++ {
			d.unesc = append(d.unesc, f[j])
			if f[j] == d.quote && j+1 < len(f) && f[j+1] == d.quote {
				j++
			}
		}
		d.fields[i] = d.unesc[start:len(d.unesc):len(d.unesc)]
	}
}

func (d *CSVDecoder) rowError(line, col int, value []byte, typ, msg string) *ParseError {
	e := &ParseError{Source: d.source, Line: line, Column: col, Type: typ, Msg: msg}
	if col >= 1 && col <= len(d.cols) {
		e.Field = d.cols[col-1].name
	}
	if len(value) > csvMaxValueInError {
		cut := csvMaxValueInError
		for cut > 0 && !utf8.RuneStart(value[cut]) {
			cut-- // do not split a character
		}
		e.Value = string(value[:cut]) + "..."
	} else {
		e.Value = string(value)
	}
	return e
}

// appendRow converts the fields of the current record and appends them to the
// batch. On error some columns may hold part of the row: the caller rolls back.
func (d *CSVDecoder) appendRow(line int) *ParseError {
	if d.recErr != "" {
		return d.rowError(line, d.recCol, nil, "", d.recErr)
	}
	if len(d.fields) != len(d.cols) {
		col := min(len(d.fields), len(d.cols)) + 1
		return d.rowError(line, col, nil, "", fmt.Sprintf("expected %d fields, found %d", len(d.cols), len(d.fields)))
	}
	for i := range d.cols {
		if msg := d.appendField(&d.cols[i], d.fields[i], d.quoted[i]); msg != "" {
			f := d.fields[i]
			if msg == csvMsgNotNull {
				return d.rowError(line, i+1, f, "", msg)
			}
			return d.rowError(line, i+1, f, d.cols[i].sqlType, msg)
		}
	}
	return nil
}

// csvMsgNotNull is appendField's message for a NULL in a NOT NULL column,
// which errors show without the column's type.
const csvMsgNotNull = "NULL in NOT NULL column"

// appendField converts one field of a record and appends it to its column;
// it returns a message on failure, after which the caller truncates the
// column (a nested value may be partly appended).
func (d *CSVDecoder) appendField(c *csvColumn, f []byte, quoted bool) string {
	nullLit := d.opts.NullLiteral
	if !quoted && nullLit != "" && string(f) == nullLit {
		if c.notNull {
			return csvMsgNotNull
		}
		c.appendNull()
		return ""
	}
	if c.kind == csvNested && (len(f) > 0 || quoted) {
		return d.appendElements(c, f)
	}
	if c.kind.variable() {
		if len(f) == 0 && !quoted && nullLit == "" {
			if c.notNull {
				return csvMsgNotNull
			}
			c.appendNull()
			return ""
		}
		if c.kind == csvBinary {
			return c.appendBase64(f)
		}
		if !utf8.Valid(f) {
			return "invalid UTF-8"
		}
		c.data = append(c.data, f...)
		c.offs = append(c.offs, int32(len(c.data)))
		c.valid = append(c.valid, true)
		return ""
	}
	t := csvTrim(f)
	if len(t) == 0 {
		if c.notNull {
			return csvMsgNotNull
		}
		c.appendNull()
		return ""
	}
	return d.appendValue(c, t)
}

// appendValue parses a non-empty, trimmed non-string field; it returns a
// message on failure.
func (d *CSVDecoder) appendValue(c *csvColumn, f []byte) string {
	switch c.kind {
	case csvBool:
		switch {
		case csvEqualFold(f, "true"):
			c.bools = append(c.bools, true)
		case csvEqualFold(f, "false"):
			c.bools = append(c.bools, false)
		default:
			return "expected true or false"
		}
	case csvInt:
		v, msg := scalartext.ParseInt(f)
		if msg != "" {
			return msg
		}
		if v < c.min || v > c.max {
			return "value out of range"
		}
		switch c.width {
		case 1:
			c.fixed = append(c.fixed, byte(v))
		case 2:
			c.fixed = binary.NativeEndian.AppendUint16(c.fixed, uint16(v))
		case 4:
			c.fixed = binary.NativeEndian.AppendUint32(c.fixed, uint32(v))
		default:
			c.fixed = binary.NativeEndian.AppendUint64(c.fixed, uint64(v))
		}
	case csvFloat32, csvFloat64:
		bits := 64
		if c.kind == csvFloat32 {
			bits = 32
		}
		v, ok := 0.0, false
		if bits == 64 {
			v, ok = scalartext.FastFloat(f)
		}
		if !ok {
			// Like Java's parseDouble, an overflowing literal becomes ±Inf (ErrRange).
			var err error
			v, err = strconv.ParseFloat(string(f), bits)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return "invalid number"
			}
		}
		if bits == 32 {
			c.fixed = binary.NativeEndian.AppendUint32(c.fixed, math.Float32bits(float32(v)))
		} else {
			c.fixed = binary.NativeEndian.AppendUint64(c.fixed, math.Float64bits(v))
		}
	case csvDecimal:
		n, msg := scalartext.ParseDecimal(f, c.prec, c.scale, &d.digits)
		if msg != "" {
			return msg
		}
		c.fixed = binary.NativeEndian.AppendUint64(c.fixed, n.LowBits())
		c.fixed = binary.NativeEndian.AppendUint64(c.fixed, uint64(n.HighBits()))
	case csvDate:
		if len(f) != 10 {
			return "expected yyyy-MM-dd"
		}
		days, msg := scalartext.ParseDate(f)
		if msg != "" {
			return msg
		}
		c.fixed = binary.NativeEndian.AppendUint32(c.fixed, uint32(int32(days)))
	case csvTime:
		nanos, msg := scalartext.ParseTimeOfDay(f)
		if msg != "" {
			return msg
		}
		v := nanos / int64(c.unit.Multiplier())
		if c.width == 4 {
			c.fixed = binary.NativeEndian.AppendUint32(c.fixed, uint32(int32(v)))
		} else {
			c.fixed = binary.NativeEndian.AppendUint64(c.fixed, uint64(v))
		}
	case csvTimestamp:
		// an instant (TIMESTAMP_LTZ) may carry an ISO-8601 offset
		var offset int64
		if c.zoned {
			var msg string
			if f, offset, msg = jsonCutOffset(f); msg != "" {
				return msg
			}
		}
		v, msg := scalartext.ParseTimestamp(f, c.zoned, c.unit)
		if msg != "" {
			if c.zoned {
				msg += "[Z|+HH:mm]"
			}
			return msg
		}
		v -= offset * (int64(arrow.Second.Multiplier()) / int64(c.unit.Multiplier()))
		c.fixed = binary.NativeEndian.AppendUint64(c.fixed, uint64(v))
	}
	c.valid = append(c.valid, true)
	return ""
}

func (c *csvColumn) appendNull() {
	if c.kind == csvNested {
		c.nested.appendNull()
		return
	}
	c.valid = append(c.valid, false)
	switch c.kind {
	case csvString, csvBinary:
		c.offs = append(c.offs, c.offs[len(c.offs)-1])
	case csvBool:
		c.bools = append(c.bools, false)
	default:
		for range c.width {
			c.fixed = append(c.fixed, 0)
		}
	}
}

// rollback drops whatever part of a bad row reached the columns.
func (d *CSVDecoder) rollback() {
	for i := range d.cols {
		d.cols[i].truncate(d.nrows)
	}
}

// truncate keeps the column's first n values.
func (c *csvColumn) truncate(n int) {
	c.valid = c.valid[:min(n, len(c.valid))]
	switch c.kind {
	case csvNested:
		c.nested.truncate(n)
	case csvString, csvBinary:
		c.offs = c.offs[:n+1]
		c.data = c.data[:c.offs[n]]
	case csvBool:
		c.bools = c.bools[:min(n, len(c.bools))]
	default:
		c.fixed = c.fixed[:min(n*c.width, len(c.fixed))]
	}
}

// stringsFull ends a batch early before string offsets could overflow int32.
func (d *CSVDecoder) stringsFull() bool {
	for i := range d.cols {
		if d.cols[i].full() {
			return true
		}
	}
	return false
}

func (d *CSVDecoder) flush() arrow.RecordBatch {
	n := d.nrows
	cols := make([]arrow.Array, len(d.cols))
	for i := range d.cols {
		mem := d.mem
		if d.outMem != nil && d.cols[i].kind != csvNested {
			mem = d.outMem // build writes every byte of the buffers it allocates
		}
		cols[i] = d.cols[i].build(mem, n)
	}
	rec := array.NewRecordBatch(d.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	d.nrows = 0
	d.rollback()
	return rec
}

// full tells a column whose strings (or a nested column's strings or
// elements) come near the int32 offsets' limit.
func (c *csvColumn) full() bool {
	switch c.kind {
	case csvNested:
		return c.nested.full()
	case csvString, csvBinary:
		return len(c.data) >= csvMaxStringBytes
	}
	return false
}

// build copies the accumulated values into Arrow buffers in one go.
func (c *csvColumn) build(mem memory.Allocator, n int) arrow.Array {
	if c.kind == csvNested {
		return c.nested.build(mem, n)
	}
	nulls := 0
	for _, v := range c.valid[:n] {
		if !v {
			nulls++
		}
	}
	var bitmap *memory.Buffer
	if nulls > 0 {
		bitmap = csvBitmap(mem, c.valid[:n])
	}
	var bufs []*memory.Buffer
	switch c.kind {
	case csvString, csvBinary:
		bufs = []*memory.Buffer{bitmap, csvBuffer(mem, arrow.Int32Traits.CastToBytes(c.offs[:n+1])), csvBuffer(mem, c.data)}
	case csvBool:
		bufs = []*memory.Buffer{bitmap, csvBitmap(mem, c.bools[:n])}
	default:
		values := c.out
		if values != nil && sameBacking(values.Buf(), c.fixed) {
			values.ResizeNoShrink(n * c.width)
			c.out, c.fixed = nil, nil // the batch's now; the next batch reserves another
		} else {
			values = csvBuffer(mem, c.fixed[:n*c.width])
		}
		bufs = []*memory.Buffer{bitmap, values}
	}
	data := array.NewData(c.dt, n, bufs, nil, nulls, 0)
	arr := array.MakeFromData(data)
	data.Release()
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	return arr
}

func csvBuffer(mem memory.Allocator, src []byte) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(len(src))
	copy(b.Bytes(), src)
	return b
}

func csvBitmap(mem memory.Allocator, bits []bool) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(int(bitutil.BytesForBits(int64(len(bits)))))
	out := b.Bytes()
	clear(out)
	for i, v := range bits {
		if v {
			bitutil.SetBit(out, i)
		}
	}
	return b
}

func csvTrim(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

func csvEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}
