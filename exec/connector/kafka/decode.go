package kafka

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
)

// partDecoding decodes one part of a message, its value or its key, into
// the columns the table takes from it: through a text format (json, csv),
// one message a line, or as raw bytes into its one column.
type partDecoding struct {
	name     string // "value" or "key"
	format   string
	decoding format.Decoding // nil for raw
	schema   *arrow.Schema   // the columns decoded, as the format names them
	ignore   bool            // the format's ignore-parse-errors
	csvQuote byte
	// changelog is set for a changelog format (debezium-json): a message
	// makes one or two rows (an update's -U and +U), its row kind first,
	// so the rows are not those of the messages one for one
	changelog bool
	// message is the codec of a format of binary messages (avro), which
	// decodes the records itself (message_parts.go)
	message message.Codec
}

// decoderCache is a read's decoder of one part: the decoder of the last
// poll's messages, reset for the next (making one per poll cost more than
// the decoding), and its bad rows' hook for the messages it reads now.
// Each read has its own: a Source may be read twice at once.
type decoderCache struct {
	dec   format.Decoder
	mem   memory.Allocator
	rows  int // the rows of dec's batches, less one
	onBad func(*format.ParseError)
	msg   message.Decoder // a format of binary messages'
	// buf holds a poll's messages, a line each, for the decoder: kept
	// from poll to poll, so it is not grown again from nothing each time
	// (a tenth of a read's CPU when it was).
	buf bytes.Buffer
	// lines and texts are decode's, kept for the same reason.
	lines, texts []int
}

// messages are the records of one partition decoded at once, and what the
// decoding found: the messages it could not read.
type messages struct {
	recs []*kgo.Record
	bad  []bool // by record
	nBad int
}

// badRecords are the records found bad.
func (m *messages) badRecords() []*kgo.Record {
	var bad []*kgo.Record
	for i, b := range m.bad {
		if b {
			bad = append(bad, m.recs[i])
		}
	}
	return bad
}

func (m *messages) markBad(i int) {
	if !m.bad[i] {
		m.bad[i], m.nBad = true, m.nBad+1
	}
}

// where names record i for errors: its topic, partition and offset.
func where(r *kgo.Record) string {
	return fmt.Sprintf("kafka topic %s partition %d offset %d", r.Topic, r.Partition, r.Offset)
}

// decode reads part d of every record of m, one row per record in order,
// NULL rows for the records found bad (m.bad says which).
func (d *partDecoding) decode(m *messages, mem memory.Allocator, c *decoderCache) (arrow.RecordBatch, error) {
	if d.message != nil {
		return d.decodeMessages(m, mem, c)
	}
	if d.decoding == nil {
		return d.decodeRaw(m, mem), nil
	}
	buf := &c.buf
	buf.Reset()
	lines := slices.Grow(c.lines[:0], len(m.recs))[:len(m.recs)] // the first line of each record's text
	line, rows := 1, c.texts[:0]
	defer func() { c.lines, c.texts = lines, rows }()
	for i, r := range m.recs {
		lines[i] = line
		b := d.part(r)
		if m.bad[i] {
			continue
		}
		if b == nil {
			if d.name == "value" {
				// a tombstone: Flink's formats make no row of it (counted
				// here with the skipped rows)
				m.markBad(i)
			}
			continue // a record without a key: the key's columns NULL
		}
		if len(bytes.TrimSpace(b)) == 0 {
			if err := d.badMessage(m, i, "the message "+d.name+" is empty"); err != nil {
				return nil, err
			}
			continue
		}
		text, breaks, msg := d.oneLine(b)
		if msg != "" {
			if err := d.badMessage(m, i, msg); err != nil {
				return nil, err
			}
			continue
		}
		buf.Write(text)
		buf.WriteByte('\n')
		line += breaks + 1
		rows = append(rows, i)
	}
	// a record's index from the line its text starts on
	recordAt := func(l int) int { return sort.Search(len(lines), func(i int) bool { return lines[i] > l }) - 1 }
	c.onBad = func(e *format.ParseError) { m.markBad(recordAt(e.Line)) }
	dec := d.decoder(c, buf, mem, len(m.recs))
	defer func() { c.onBad = nil }()
	var got []arrow.RecordBatch
	defer func() {
		for _, b := range got {
			b.Release()
		}
	}()
	for {
		b, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			c.dec = nil // not to be reset after an error
			var pe *format.ParseError
			if errors.As(err, &pe) {
				i := recordAt(pe.Line)
				e := *pe
				e.Source, e.Line = where(m.recs[i])+" "+d.name, pe.Line-lines[i]+1
				return nil, &e
			}
			return nil, err
		}
		got = append(got, b)
	}
	decoded := concat(got, d.schema, mem)
	if d.changelog {
		return decoded, nil
	}
	// the decoded rows are those of the records not bad, in order; spread
	// them over every record, NULL at the bad ones
	defer decoded.Release()
	idx := make([]int32, len(m.recs))
	next := int32(0)
	for i := range m.recs {
		idx[i] = -1
	}
	for _, i := range rows {
		if !m.bad[i] {
			idx[i] = next
			next++
		}
	}
	if int(next) != int(decoded.NumRows()) {
		return nil, fmt.Errorf("%s: %d messages read as %d rows", where(m.recs[0]), next, decoded.NumRows())
	}
	return spread(decoded, idx, mem)
}

// decoder is a decoder of buf: the last one, reset, when it read its
// input whole and has batches as large as n rows.
func (d *partDecoding) decoder(c *decoderCache, buf *bytes.Buffer, mem memory.Allocator, n int) format.Decoder {
	if r, ok := c.dec.(format.Resetter); ok && n <= c.rows && c.mem == mem {
		r.Reset(buf)
		return c.dec
	}
	c.rows, c.mem = max(n, 4096), mem
	c.dec = d.decoding.ForRead(func(e *format.ParseError, _ []byte) {
		if c.onBad != nil {
			c.onBad(e)
		}
	}, 0).NewDecoder(buf, d.name, d.schema, mem, c.rows+1)
	return c.dec
}

// part is the bytes of the record this decoding reads.
func (d *partDecoding) part(r *kgo.Record) []byte {
	if d.name == "key" {
		return r.Key
	}
	return r.Value
}

// badMessage counts record i bad, or fails the read when the format does
// not skip bad rows.
func (d *partDecoding) badMessage(m *messages, i int, msg string) error {
	m.markBad(i)
	if d.ignore {
		return nil
	}
	return &format.ParseError{Source: where(m.recs[i]) + " " + d.name, Line: 1, Msg: msg}
}

// oneLine is a message's text as one line of the format's input: JSON's
// line breaks between tokens are blanks; a CSV row's line breaks are only
// inside quotes (a break outside them would start another row, and a
// message is one row). It returns the line breaks left in the text and,
// for a message that cannot be one row, why.
func (d *partDecoding) oneLine(b []byte) ([]byte, int, string) {
	if bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0 { // not ContainsAny, which makes a set per call
		return b, 0, ""
	}
	b = bytes.TrimRight(b, "\r\n")
	out := make([]byte, len(b))
	breaks, inString, escaped := 0, false, false
	for i, c := range b {
		out[i] = c
		if d.format == formats.JSON || d.format == formats.DebeziumJSON {
			switch {
			case escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			case c == '\n' && inString:
				breaks++ // not JSON: the decoder says so, at this line
			case c == '\n' || c == '\r':
				out[i] = ' '
			}
			continue
		}
		switch {
		case c == d.csvQuote:
			inString = !inString
		case (c == '\n' || c == '\r') && !inString:
			return nil, 0, "the message holds more than one CSV row: a line break outside quotes"
		case c == '\n':
			breaks++
		}
	}
	return out, breaks, ""
}

// decodeRaw is the raw format: the bytes as they are into the one column,
// STRING or BYTES; a record without them is NULL.
func (d *partDecoding) decodeRaw(m *messages, mem memory.Allocator) arrow.RecordBatch {
	b := array.NewBuilder(mem, d.schema.Field(0).Type)
	defer b.Release()
	for i, r := range m.recs {
		v := d.part(r)
		switch {
		case m.bad[i] || v == nil:
			b.AppendNull()
		case d.schema.Field(0).Type.ID() == arrow.STRING:
			b.(*array.StringBuilder).BinaryBuilder.Append(v)
		default:
			b.(*array.BinaryBuilder).Append(v)
		}
	}
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(d.schema, []arrow.Array{col}, int64(col.Len()))
}

// concat is the batches as one (nil-safe: an empty batch of schema).
func concat(batches []arrow.RecordBatch, schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	if len(batches) == 1 {
		batches[0].Retain()
		return batches[0]
	}
	cols := make([]arrow.Array, schema.NumFields())
	n := int64(0)
	for _, b := range batches {
		n += b.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, 0, len(batches))
		for _, b := range batches {
			parts = append(parts, b.Column(c))
		}
		if len(parts) == 0 {
			cols[c] = array.MakeArrayOfNull(mem, schema.Field(c).Type, 0)
			continue
		}
		var err error
		if cols[c], err = array.Concatenate(parts, mem); err != nil {
			panic(err) // arrays of one type always concatenate
		}
	}
	defer expr.ReleaseAll(cols)
	return array.NewRecordBatch(schema, cols, n)
}

// spread places row idx[i] of rec at row i, NULL where idx[i] is -1.
func spread(rec arrow.RecordBatch, idx []int32, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer expr.ReleaseAll(cols)
	for c := range cols {
		var err error
		if cols[c], err = takeOrNull(rec.Column(c), idx, mem); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(len(idx))), nil
}

// takeOrNull is expr.Take with -1 for a NULL row.
func takeOrNull(a arrow.Array, idx []int32, mem memory.Allocator) (arrow.Array, error) {
	whole := len(idx) == a.Len()
	for i, k := range idx {
		whole = whole && k == int32(i)
	}
	if whole {
		a.Retain()
		return a, nil
	}
	nulls := 0
	safe := make([]int32, len(idx))
	for i, k := range idx {
		if k < 0 {
			nulls++
			continue
		}
		safe[i] = k
	}
	if a.Len() == 0 {
		return array.MakeArrayOfNull(mem, a.DataType(), len(idx)), nil
	}
	taken, err := expr.Take(a, safe, mem)
	if err != nil || nulls == 0 {
		return taken, err
	}
	valid := make([]byte, (len(idx)+7)/8)
	for i, k := range idx {
		if k >= 0 {
			valid[i>>3] |= 1 << (i & 7)
		}
	}
	return expr.WithValidity(taken, valid, mem), nil // it releases taken
}
