package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Decoding is a text format's decoders with a table's options resolved.
// A file source reads through it, so it never asks which format it reads;
// the format registry (exec/connector) makes one per table. Its methods run
// once per split, never per row.
type Decoding interface {
	// NewDecoder reads one split in order: a stream, a followed file.
	NewDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize int) Decoder
	// NewParallelDecoder reads one of files files read at once on several
	// goroutines (see ParallelDecoder), starting at at.
	NewParallelDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize, files int, at SplitPosition) Decoder
	// ForRead is the decoding of one read: each skipped bad row also goes
	// to onBad (after the options' own hook), and maxRecordBytes, when
	// positive, is the longest record read.
	ForRead(onBad func(*ParseError, []byte), maxRecordBytes int) Decoding
	// AppendRow writes row i of rec (its first columns fields) the way the
	// format reads it back: a refused row's line in the bad-rows file.
	AppendRow(b []byte, rec arrow.RecordBatch, i, columns int) []byte
	// Identity writes the resolved options into a query's identity, after
	// the format's name.
	Identity(b *strings.Builder)
}

// CSVDecoding is the Decoding of RFC 4180 text.
type CSVDecoding struct{ Options CSVOptions }

// JSONDecoding is the Decoding of JSON lines.
type JSONDecoding struct{ Options JSONOptions }

var (
	_ Decoding = CSVDecoding{}
	_ Decoding = JSONDecoding{}
)

func (d CSVDecoding) NewDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize int) Decoder {
	return NewCSVDecoder(r, split, schema, d.Options, mem, batchSize)
}

func (d CSVDecoding) NewParallelDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize, files int, at SplitPosition) Decoder {
	return NewParallelCSVDecoder(r, split, schema, d.Options, mem, batchSize, files, at)
}

func (d CSVDecoding) ForRead(onBad func(*ParseError, []byte), maxRecordBytes int) Decoding {
	if onBad != nil {
		d.Options.OnBadRow = chainBadRow(d.Options.OnBadRow, onBad)
	}
	if maxRecordBytes > 0 {
		d.Options.MaxRecordBytes = maxRecordBytes
	}
	return d
}

func (d CSVDecoding) AppendRow(b []byte, rec arrow.RecordBatch, i, columns int) []byte {
	return AppendRow(b, rec, i, columns, false, 0)
}

func (d CSVDecoding) Identity(b *strings.Builder) {
	c := d.Options
	fmt.Fprintf(b, ": field delimiter %q, quote %q, ignore parse errors %t, null literal %q, ignore first line %t, allow comments %t",
		c.FieldDelimiter, c.QuoteChar, c.IgnoreParseErrors, c.NullLiteral, c.IgnoreFirstLine, c.AllowComments)
}

func (d JSONDecoding) NewDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize int) Decoder {
	return NewJSONDecoder(r, split, schema, d.Options, mem, batchSize)
}

func (d JSONDecoding) NewParallelDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize, files int, at SplitPosition) Decoder {
	return NewParallelJSONDecoder(r, split, schema, d.Options, mem, batchSize, files, at)
}

func (d JSONDecoding) ForRead(onBad func(*ParseError, []byte), maxRecordBytes int) Decoding {
	if onBad != nil {
		d.Options.OnBadRow = chainBadRow(d.Options.OnBadRow, onBad)
	}
	if maxRecordBytes > 0 {
		d.Options.MaxRecordBytes = maxRecordBytes
	}
	return d
}

func (d JSONDecoding) AppendRow(b []byte, rec arrow.RecordBatch, i, columns int) []byte {
	return AppendRow(b, rec, i, columns, true, d.Options.TimestampStandard)
}

func (d JSONDecoding) Identity(b *strings.Builder) {
	j := d.Options
	fmt.Fprintf(b, ": ignore parse errors %t, fail on missing field %t, timestamp standard %v",
		j.IgnoreParseErrors, j.FailOnMissingField, j.TimestampStandard)
}

// chainBadRow calls the caller's hook, if any, and then the read's.
func chainBadRow(first, then func(*ParseError, []byte)) func(*ParseError, []byte) {
	if first == nil {
		return then
	}
	return func(e *ParseError, raw []byte) {
		first(e, raw)
		then(e, raw)
	}
}

// Resetter is a Decoder that can read another input from its start, as a
// new decoder of the same schema and options would, keeping what it built
// for them (columns, the JSON fast path): a Kafka read decodes each poll's
// messages of a partition with one decoder. Only a decoder that read its
// last input to its end, without an error, may be reset.
type Resetter interface {
	Reset(r io.Reader)
}

var (
	_ Resetter = (*CSVDecoder)(nil)
	_ Resetter = (*JSONDecoder)(nil)
)

// Reset reads r from its start (see Resetter).
func (d *CSVDecoder) Reset(r io.Reader) {
	d.readBuffer = readBuffer{r: r, source: d.source, limit: d.limit, buf: d.buf}
	d.header = d.opts.IgnoreFirstLine
	d.recErr, d.recCol, d.nrows, d.err, d.recAt = "", 0, 0, nil, 0
	d.skip, d.skipRow, d.skipLine, d.skipFrom = nil, false, 0, nil
	d.simple.restart()
}

// Reset reads r from its start (see Resetter).
func (d *JSONDecoder) Reset(r io.Reader) {
	d.readBuffer = readBuffer{r: r, source: d.source, limit: d.limit, buf: d.buf}
	d.err, d.tooLong, d.lineAt = nil, false, 0
	d.skip, d.skipLine, d.skipFrom = nil, 0, nil
}
