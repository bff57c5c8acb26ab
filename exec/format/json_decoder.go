package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format/jsonfast"
	"github.com/wsql/wsql/exec/format/jsontext"
	"github.com/wsql/wsql/exec/format/scalartext"
)

// TimestampStandard is 'json.timestamp-format.standard': the text form of
// TIMESTAMP values in JSON.
type TimestampStandard uint8

const (
	// TimestampSQL is yyyy-MM-dd HH:mm:ss.SSS (Flink's default, 'SQL').
	TimestampSQL TimestampStandard = iota
	// TimestampISO8601 is yyyy-MM-ddTHH:mm:ss.SSS ('ISO-8601').
	TimestampISO8601
)

func (s TimestampStandard) String() string {
	if s == TimestampISO8601 {
		return "ISO-8601"
	}
	return "SQL"
}

// JSONOptions mirror the options of Flink's 'json' format.
//
// A line holds one JSON object. As in Flink, its fields may come in any
// order, a missing field is NULL (unless FailOnMissingField), an unknown
// field is ignored, JSON null is NULL, keys match column names exactly
// (case-sensitive), and the last of duplicate keys wins. Conversions:
//   - STRING takes a string's text; a number, true or false as written; a
//     nested object or array as its JSON text without insignificant blanks
//     (Flink's row would need ROW/ARRAY types; its STRING does the same);
//   - BOOLEAN takes true/false or the strings "true"/"false" (any case);
//   - integers take integral numbers (1.0 and 1e3 too) and strings holding
//     an integer; a fraction is a bad row where Flink would truncate it;
//   - FLOAT/DOUBLE/DECIMAL take numbers and numeric strings ("NaN" too); a
//     DECIMAL that does not fit its precision is a bad row (Flink: NULL);
//   - DATE, TIME, TIMESTAMP take strings. Either standard is read: a space
//     or a 'T' between date and time. TIMESTAMP_LTZ may end in 'Z' or an
//     offset (+08:00); without one it is UTC, as in the CSV decoder.
//
// Any bad value makes the row bad: an error, or with IgnoreParseErrors the
// whole row is skipped and counted (Flink would set the field to NULL,
// which loses data without a count). Blank lines are skipped.
type JSONOptions struct {
	IgnoreParseErrors  bool              // 'json.ignore-parse-errors'
	FailOnMissingField bool              // 'json.fail-on-missing-field'
	TimestampStandard  TimestampStandard // 'json.timestamp-format.standard'

	// OnBadRow, if set, sees every row skipped under IgnoreParseErrors.
	// raw is the line without its line end and is only valid during the
	// call; nil for a line longer than MaxRecordBytes.
	OnBadRow func(err *ParseError, raw []byte)

	// MaxRecordBytes bounds a line, its '\n' included (see
	// CSVOptions.MaxRecordBytes).
	MaxRecordBytes int
}

// jsonMaxDepth bounds nesting, so a hostile line cannot exhaust the stack.
const jsonMaxDepth = 1000

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonTrue
	jsonFalse
	jsonNumber
	jsonString
	jsonObject
	jsonArray
)

// jsonValue locates a column's value in the current line.
type jsonValue struct {
	row        uint64 // the row it belongs to; older means missing
	kind       jsonKind
	esc        bool // a string containing escapes
	integral   bool // a number without fraction or exponent
	start, end int  // text in the line; a string's without its quotes
}

// JSONDecoder turns JSON lines into Arrow record batches of a fixed schema,
// with the batching and error rules of CSVDecoder.
type JSONDecoder struct {
	readBuffer
	schema    *arrow.Schema
	opts      JSONOptions
	mem       memory.Allocator
	batchSize int

	fields  jsonFields // column by key
	vals    []jsonValue
	fast    *jsonfast.Decoder // a clean line's one pass (json_fast_path.go)
	leaves  []*csvColumn      // the fast path's leaves by number
	rowSeq  uint64
	scratch []byte
	// batch holds the rows being built in CSVDecoder's columns, so both
	// formats share the text conversions (a JSON scalar is parsed from the
	// same text forms as a CSV field), the rollback and the Arrow building.
	batch CSVDecoder

	bad badRows
	err error

	// A line longer than the limit: the one readLine returned, or the one
	// being skipped (see CSVDecoder.skip).
	tooLong  bool
	lineAt   int64 // the file offset of the line readLine returned
	skip     *recordSkip
	skipLine int
	skipFrom *SplitPosition

	twoPass    bool // tests: every row read by scanRow and appendRow too
	fastMisses int  // the lines the fast path left to the two passes
}

// NewJSONDecoder reads r, labelled source in errors, into batches of up to
// batchSize rows (default 4096) with the given schema; like NewCSVDecoder
// it hands out a short batch when a stream has no more data ready.
func NewJSONDecoder(r io.Reader, source string, schema *arrow.Schema, opts JSONOptions, mem memory.Allocator, batchSize int) *JSONDecoder {
	if batchSize <= 0 {
		batchSize = csvDefaultBatchSize
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	d := &JSONDecoder{readBuffer: readBuffer{r: r, source: source, limit: recordLimit(opts.MaxRecordBytes)}, schema: schema, opts: opts, mem: mem, batchSize: batchSize,
		bad: badRows{ignore: opts.IgnoreParseErrors, onBad: opts.OnBadRow}}
	// batchSize sizes the values' buffers the parallel decoder's chunks
	// reserve (reserveOutputs): without it they were empty, and every
	// batch's values were appended to a new slice and copied out.
	d.batch = CSVDecoder{schema: schema, mem: mem, cols: make([]csvColumn, schema.NumFields()), batchSize: batchSize}
	d.vals = make([]jsonValue, schema.NumFields())
	d.fields.index = make(map[string]int, schema.NumFields())
	for i, f := range schema.Fields() {
		if IsNestedType(f.Type) {
			n, err := newNestedColumn(f, f.Name)
			if err != nil {
				d.err = fmt.Errorf("%s: %w", source, err)
				return d
			}
			d.batch.cols[i] = csvColumn{kind: csvNested, name: f.Name, dt: f.Type, sqlType: SQLTypeName(f.Type), notNull: !f.Nullable, nested: n}
			d.fields.index[f.Name] = i
			continue
		}
		if !jsonSupported(f.Type) {
			d.err = fmt.Errorf("%s: column %s: json format does not support type %s", source, f.Name, f.Type)
			return d
		}
		if err := d.batch.cols[i].init(f); err != nil {
			d.err = fmt.Errorf("%s: %w", source, err)
			return d
		}
		d.fields.index[f.Name] = i
	}
	d.fast = d.newFastPath()
	return d
}

// jsonFields finds an object's fields by key. It remembers the key seen
// at each position of the last object and what it named, so objects of
// one shape, as a stream's lines are, find each field with a comparison
// instead of hashing the key (part of decodeRow's measured gain).
type jsonFields struct {
	index map[string]int
	last  []jsonFieldAt
}

type jsonFieldAt struct {
	key   []byte
	field int // -1: not a field
}

// find is the field named key, the pos-th key of its object, or -1.
func (f *jsonFields) find(pos int, key []byte) int {
	if pos < len(f.last) && string(f.last[pos].key) == string(key) {
		return f.last[pos].field
	}
	k, ok := f.index[string(key)]
	if !ok {
		k = -1
	}
	switch {
	case pos < len(f.last):
		f.last[pos].key = append(f.last[pos].key[:0], key...)
		f.last[pos].field = k
	case pos == len(f.last) && pos < 64:
		f.last = append(f.last, jsonFieldAt{key: append([]byte(nil), key...), field: k})
	}
	return k
}

func jsonSupported(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.BINARY,
		arrow.INTERVAL_MONTHS, arrow.DURATION:
		return true
	}
	return false
}

// Skipped is the number of bad rows skipped under IgnoreParseErrors.
func (d *JSONDecoder) Skipped() int64 { return d.bad.skipped }

// Position is where the read stands after the last Next (see
// SplitPosition and CSVDecoder.Position).
func (d *JSONDecoder) Position() SplitPosition {
	if d.bad.stopAt != nil {
		return *d.bad.stopAt
	}
	if d.skipFrom != nil {
		return *d.skipFrom
	}
	off := d.offset()
	return SplitPosition{Offset: off, Line: d.line, Skipped: d.bad.skipped, Started: off > 0}
}

// ResumeAt makes the decoder continue a read of the same input that stood
// at p: its reader must be positioned at p.Offset. Call it before the
// first Next (see CSVDecoder.ResumeAt).
func (d *JSONDecoder) ResumeAt(p SplitPosition) {
	d.resumeAt(p)
	d.bad.skipped = p.Skipped
}

// Lines is the number of physical lines read so far.
func (d *JSONDecoder) Lines() int64 {
	if d.partial {
		return int64(d.line) + 1
	}
	return int64(d.line)
}

// Next returns the next batch, or io.EOF after the last one. The caller owns
// the batch. On a bad row (without IgnoreParseErrors) the rows before it are
// returned first and the *ParseError on the following call.
func (d *JSONDecoder) Next() (arrow.RecordBatch, error) {
	if d.err != nil {
		return nil, d.err
	}
	b := &d.batch
	if b.outMem != nil {
		b.reserveOutputs()
	}
	held := 0 // bytes of the batch's lines: no column holds more text
	for b.nrows < d.batchSize {
		raw, line, err := d.readLine()
		if err == errCSVYield || err == ErrNoData {
			break // ErrNoData: a followed file has nothing more yet
		}
		if err != nil {
			d.err = err
			break
		}
		var perr *ParseError
		if d.tooLong {
			perr = &ParseError{Source: d.source, Line: line, Msg: recordTooLong(d.limit, "line")}
		} else if blank, ok := d.fast.Line(raw); blank {
			continue
		} else if !ok || d.twoPass {
			// Not a clean row (or not one the fast path reads): it is
			// read again by the two passes, whose errors say what and
			// where.
			if !ok {
				d.fastMisses++
			}
			b.rollback()
			if _, perr = d.scanRow(raw, line); perr == nil {
				perr = d.appendRow(raw, line)
			}
		}
		if perr == nil {
			b.nrows++
			// Checking only past the limit saves a walk of the columns per row.
			if held += len(raw); held >= csvMaxStringBytes && b.stringsFull() {
				break
			}
			continue
		}
		b.rollback()
		// raw starts where the line does, or after a byte order mark,
		// which a resumed read at line 0 would skip just the same.
		at := d.offsetOf(raw)
		if d.tooLong {
			at = d.lineAt
		}
		if d.err = d.bad.row(perr, raw, at, line); d.err != nil {
			d.hintJSON(perr)
			break
		}
	}
	if b.nrows == 0 {
		return nil, d.err
	}
	return b.flush(), nil
}

// readLine returns the next line without its line end and its number,
// io.EOF at the end, or errCSVYield when rows are pending and reading on
// might block. A line longer than the limit is returned as nil with
// d.tooLong set; it is skipped to its end without being held (with
// IgnoreParseErrors: otherwise the read stops there).
func (d *JSONDecoder) readLine() ([]byte, int, error) {
	d.tooLong = false
	if d.skip != nil {
		return d.skipOverLong()
	}
	for {
		if d.pos == d.end {
			if d.eof {
				return nil, 0, io.EOF
			}
			if err := d.more(0); err != nil {
				return nil, 0, err
			}
			continue
		}
		b := d.buf[d.pos:d.end]
		d.lineAt = d.offset()
		i := bytes.IndexByte(b, '\n')
		if i < 0 && !d.eof {
			if err := d.more(len(b)); err != nil {
				if err == errRecordTooLong {
					return d.overLong()
				}
				return nil, 0, err
			}
			continue
		}
		line := b
		if i >= 0 {
			line = b[:i]
			d.pos += i + 1
		} else {
			d.pos = d.end
			d.partial = true
		}
		if n := len(line) + min(i+1, 1); n > d.limit { // the line end included
			d.line++
			d.tooLong = true
			n := d.line
			if i < 0 {
				d.line--
			}
			return nil, n, nil
		}
		if d.line == 0 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a byte order mark
		}
		d.line++
		n := d.line
		if i < 0 {
			d.line-- // Lines counts the partial line through d.partial
		}
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		return line, n, nil
	}
}

// overLong starts skipping the line at d.pos, longer than the limit.
func (d *JSONDecoder) overLong() ([]byte, int, error) {
	d.tooLong = true
	if !d.opts.IgnoreParseErrors {
		return nil, d.line + 1, nil
	}
	d.skip, d.skipLine = &recordSkip{state: skipLF}, d.line+1
	d.skipFrom = &SplitPosition{Offset: d.offset(), Line: d.line, Skipped: d.bad.skipped, Started: d.offset() > 0}
	return d.skipOverLong()
}

// skipOverLong goes on skipping the over-long line (see
// CSVDecoder.skipOverLong).
func (d *JSONDecoder) skipOverLong() ([]byte, int, error) {
	if err := d.skipRecord(d.skip); err != nil {
		return nil, 0, err
	}
	d.skip, d.skipFrom, d.tooLong = nil, nil, true
	return nil, d.skipLine, nil
}

// more reads input for the next line; see readBuffer.fill.
func (d *JSONDecoder) more(need int) error { return d.fill(need, d.batch.nrows > 0) }

// jsonScanner checks the JSON syntax of one line and locates values.
type jsonScanner struct {
	b   []byte
	i   int
	err string
	at  int
}

func (s *jsonScanner) fail(at int, msg string) bool {
	if s.err == "" {
		s.err, s.at = msg, at
	}
	return false
}

func (s *jsonScanner) ws() {
	// Every token byte is above ' ': one compare settles most calls
	// (part of decodeRow's measured gain).
	b, i := s.b, s.i
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	s.i = i
}

// str scans the string starting at s.i (a quote) and returns its contents.
func (s *jsonScanner) str() (start, end int, esc, ok bool) {
	start = s.i + 1
	if end, esc = jsontext.String(s.b, start); end < 0 {
		at, msg := jsontext.StringProblem(s.b, start)
		return 0, 0, false, s.fail(at, msg)
	}
	s.i = end + 1
	return start, end, esc, true
}

// num scans a number by JSON's grammar; integral is false when it has a
// fraction or an exponent. (Loops instead of a closure per call: part of
// decodeRow's measured gain.)
func (s *jsonScanner) num() (integral, ok bool) {
	b, i := s.b, s.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i == len(b) || b[i] < '0' || b[i] > '9':
		return false, s.fail(s.i, "invalid number")
	default:
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	integral = true
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false, s.fail(s.i, "invalid number")
		}
		integral = false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false, s.fail(s.i, "invalid number")
		}
		integral = false
	}
	s.i = i
	return integral, true
}

// value scans any value at s.i.
func (s *jsonScanner) value(depth int) (v jsonValue, ok bool) {
	if s.i == len(s.b) {
		return v, s.fail(s.i, "expected a value")
	}
	v.start = s.i
	var word string
	switch c := s.b[s.i]; {
	case c == '"':
		v.kind = jsonString
		v.start, v.end, v.esc, ok = s.str()
		return v, ok
	case c == '{' || c == '[':
		if depth >= jsonMaxDepth {
			return v, s.fail(s.i, "nested too deeply")
		}
		v.kind = jsonObject
		if c == '[' {
			v.kind = jsonArray
		}
		ok = s.container(depth + 1)
		v.end = s.i
		return v, ok
	case c == '-' || (c >= '0' && c <= '9'):
		v.kind = jsonNumber
		v.integral, ok = s.num()
		v.end = s.i
		return v, ok
	case c == 't':
		word, v.kind = "true", jsonTrue
	case c == 'f':
		word, v.kind = "false", jsonFalse
	case c == 'n':
		word, v.kind = "null", jsonNull
	default:
		return v, s.fail(s.i, "unexpected character "+jsonQuoteChar(s.b[s.i:]))
	}
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return v, s.fail(s.i, "invalid literal")
	}
	s.i += len(word)
	v.end = s.i
	return v, true
}

func jsonQuoteChar(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	return strconv.QuoteRune(r)
}

// container scans a nested object or array only to check it.
func (s *jsonScanner) container(depth int) bool {
	obj := s.b[s.i] == '{'
	closing, what := byte(']'), "',' or ']'"
	if obj {
		closing, what = '}', "',' or '}'"
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return true
	}
	for {
		if obj {
			if !s.key() {
				return false
			}
		}
		if _, ok := s.value(depth); !ok {
			return false
		}
		s.ws()
		if s.i == len(s.b) {
			return s.fail(s.i, "expected "+what)
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case closing:
			s.i++
			return true
		default:
			return s.fail(s.i, "expected "+what)
		}
	}
}

// key scans `"key" :` and the blanks after it, returning the key's contents.
func (s *jsonScanner) key() bool {
	_, _, _, ok := s.keyText()
	return ok
}

func (s *jsonScanner) keyText() (start, end int, esc, ok bool) {
	if s.i == len(s.b) || s.b[s.i] != '"' {
		return 0, 0, false, s.fail(s.i, "expected a string key")
	}
	if start, end, esc, ok = s.str(); !ok {
		return
	}
	s.ws()
	if s.i == len(s.b) || s.b[s.i] != ':' {
		return 0, 0, false, s.fail(s.i, "expected ':' after a key")
	}
	s.i++
	s.ws()
	return start, end, esc, true
}

// scanRow checks the syntax of a line and records where each column's value
// is. A blank line is reported as such.
func (d *JSONDecoder) scanRow(b []byte, line int) (blank bool, perr *ParseError) {
	d.rowSeq++
	s := jsonScanner{b: b}
	s.ws()
	if s.i == len(b) {
		return true, nil
	}
	if !utf8.Valid(b) {
		at := 0
		for at < len(b) {
			r, n := utf8.DecodeRune(b[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return false, d.syntaxError(b, line, at, "invalid UTF-8")
	}
	if b[s.i] != '{' {
		return false, d.syntaxError(b, line, s.i, "expected a JSON object")
	}
	s.i++
	s.ws()
	if s.i < len(b) && b[s.i] == '}' {
		s.i++
	} else {
		for {
			ks, ke, kesc, ok := s.keyText()
			if !ok {
				break
			}
			v, ok := s.value(1)
			if !ok {
				break
			}
			key := b[ks:ke]
			if kesc {
				d.scratch = jsontext.Unescape(d.scratch[:0], key)
				key = d.scratch
			}
			if col, found := d.fields.index[string(key)]; found {
				v.row = d.rowSeq
				d.vals[col] = v
			}
			s.ws()
			if s.i < len(b) && b[s.i] == ',' {
				s.i++
				s.ws()
				continue
			}
			if s.i < len(b) && b[s.i] == '}' {
				s.i++
				break
			}
			s.fail(s.i, "expected ',' or '}'")
			break
		}
	}
	if s.err == "" {
		s.ws()
		if s.i < len(b) {
			s.fail(s.i, "unexpected text after the object")
		}
	}
	if s.err != "" {
		return false, d.syntaxError(b, line, s.at, s.err)
	}
	return false, nil
}

func (d *JSONDecoder) syntaxError(b []byte, line, at int, msg string) *ParseError {
	char := utf8.RuneCount(b[:min(at, len(b))]) + 1
	return &ParseError{Source: d.source, Line: line, Msg: fmt.Sprintf("invalid JSON at character %d: %s", char, msg)}
}

// fieldError is a bad value of column col; Column stays 0, as a JSON field
// has no position in a record, and Field names it.
func (d *JSONDecoder) fieldError(line, col int, value []byte, typ, msg string) *ParseError {
	e := &ParseError{Source: d.source, Line: line, Field: d.batch.cols[col].name, Type: typ, Msg: msg}
	if len(value) > csvMaxValueInError {
		cut := csvMaxValueInError
		for cut > 0 && !utf8.RuneStart(value[cut]) {
			cut--
		}
		e.Value = string(value[:cut]) + "..."
	} else {
		e.Value = string(value)
	}
	return e
}

// appendRow converts the located values column by column. On error some
// columns may hold part of the row: the caller rolls back.
func (d *JSONDecoder) appendRow(b []byte, line int) *ParseError {
	for i := range d.batch.cols {
		c, v := &d.batch.cols[i], d.vals[i]
		if v.row != d.rowSeq {
			if d.opts.FailOnMissingField {
				return d.fieldError(line, i, nil, "", "field is missing")
			}
			v.kind = jsonNull
		}
		if v.kind == jsonNull {
			if c.notNull {
				return d.fieldError(line, i, nil, "", "NULL in NOT NULL column")
			}
			c.appendNull()
			continue
		}
		if c.kind == csvNested {
			if nerr := d.appendNested(c.nested, b, v); nerr != nil {
				e := d.fieldError(line, i, nerr.value, nerr.typ, nerr.msg)
				e.Field = nerr.path
				return e
			}
			continue
		}
		if msg, bad := d.appendJSONScalar(c, b, v); msg != "" {
			return d.fieldError(line, i, bad, c.sqlType, msg)
		}
	}
	return nil
}

// appendJSONScalar converts the non-null value v of line b into the scalar
// column c; on failure it returns the message and the value's text.
func (d *JSONDecoder) appendJSONScalar(c *csvColumn, b []byte, v jsonValue) (string, []byte) {
	raw := b[v.start:v.end]
	if c.kind == csvBinary {
		return d.appendBinary(c, v.kind == jsonString, v.esc, raw), raw
	}
	if c.kind == csvString {
		switch v.kind {
		case jsonString:
			if v.esc {
				c.data = jsontext.Unescape(c.data, raw)
			} else {
				c.data = append(c.data, raw...)
			}
		case jsonObject, jsonArray:
			c.data = jsontext.Compact(c.data, raw)
		default:
			c.data = append(c.data, raw...)
		}
		c.offs = append(c.offs, int32(len(c.data)))
		c.valid = append(c.valid, true)
		return "", nil
	}
	text := raw
	switch v.kind {
	case jsonObject, jsonArray:
		return "nested objects and arrays can only be read into STRING, ROW, ARRAY, MAP or MULTISET columns", raw
	case jsonString:
		if v.esc {
			d.scratch = jsontext.Unescape(d.scratch[:0], raw)
			raw = d.scratch
		}
		if text = csvTrim(raw); len(text) == 0 {
			return "empty string", raw
		}
	case jsonNumber:
		if c.kind == csvInt && !v.integral {
			var msg string
			if d.scratch, msg = jsontext.Integral(d.scratch[:0], raw); msg != "" {
				return msg, raw
			}
			text = d.scratch
		}
	}
	return d.appendScalar(c, text), raw
}

// appendScalar appends a non-empty scalar's text to a non-string column.
func (d *JSONDecoder) appendScalar(c *csvColumn, text []byte) string {
	if c.kind != csvTimestamp {
		return d.batch.appendValue(c, text)
	}
	var offset int64 // seconds east of UTC
	if c.zoned {
		var msg string
		if text, offset, msg = jsonCutOffset(text); msg != "" {
			return msg
		}
	}
	msg := d.batch.appendValue(c, text)
	if msg != "" {
		if strings.HasPrefix(msg, "expected ") {
			msg = d.timestampForm(c.zoned)
		}
		return msg
	}
	if offset != 0 {
		last := c.fixed[len(c.fixed)-8:]
		v := int64(binary.NativeEndian.Uint64(last)) - offset*(int64(arrow.Second.Multiplier())/int64(c.unit.Multiplier()))
		binary.NativeEndian.PutUint64(last, uint64(v))
	}
	return ""
}

func (d *JSONDecoder) timestampForm(zoned bool) string {
	sep := " "
	if d.opts.TimestampStandard == TimestampISO8601 {
		sep = "T"
	}
	msg := "expected yyyy-MM-dd" + sep + "HH:mm:ss[.SSS]"
	if zoned {
		msg += "[Z|+HH:mm]"
	}
	return msg
}

// jsonCutOffset removes a trailing UTC offset (+HH:mm, +HHmm or +HH) from a
// TIMESTAMP_LTZ text; 'Z' is left to the timestamp parser.
func jsonCutOffset(b []byte) ([]byte, int64, string) {
	const minTimestamp = 16 // yyyy-MM-ddTHH:mm
	for _, n := range []int{6, 5, 3} {
		p := len(b) - n
		if p < minTimestamp || (b[p] != '+' && b[p] != '-') {
			continue
		}
		o := b[p+1:]
		h, ok := scalartext.Digits(o[:2])
		m, mOK := 0, true
		switch {
		case n == 6 && o[2] == ':':
			m, mOK = scalartext.Digits(o[3:])
		case n == 6:
			mOK = false
		case n == 5:
			m, mOK = scalartext.Digits(o[2:])
		}
		if !ok || !mOK {
			continue
		}
		if h > 18 || m > 59 {
			return nil, 0, "invalid UTC offset " + string(b[p:])
		}
		sec := int64(h*3600 + m*60)
		if b[p] == '-' {
			sec = -sec
		}
		return b[:p], sec, ""
	}
	return b, 0, ""
}
