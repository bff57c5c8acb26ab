package format

import (
	"bytes"
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// csvChunks cuts CSV text into chunks of whole records for the parallel
// decoder. A record ends at a line end outside quotes: text without the
// quote character is cut at its last line end; otherwise the records are
// walked with the decoder's own parser, so a quoted field holding line
// ends is never cut.
type csvChunks struct {
	source    string
	schema    *arrow.Schema
	opts      CSVOptions
	mem       memory.Allocator
	outMem    memory.Allocator // the chunk decoders' outMem; mem when nil
	batchSize int
	scan      *CSVDecoder // the parser that walks records when quotes occur
}

func newCSVChunks(source string, schema *arrow.Schema, opts CSVOptions, mem memory.Allocator, batchSize int) *csvChunks {
	c := &csvChunks{source: source, schema: schema, opts: opts, mem: mem, batchSize: batchSize}
	c.scan = NewCSVDecoder(nil, source, schema, opts, mem, batchSize)
	return c
}

func (c *csvChunks) cut(b []byte, atEOF bool) int {
	if atEOF {
		return len(b)
	}
	if bytes.IndexByte(b, c.scan.quote) < 0 {
		return csvLastLineEnd(b)
	}
	end := 0
	for end < len(b) {
		rest := b[end:]
		if c.opts.AllowComments && rest[0] == '#' {
			i := csvLineEnd(rest)
			if i < 0 {
				break
			}
			n, ok := csvLineEndLen(rest, i, false)
			if !ok {
				break
			}
			end += i + n
			continue
		}
		n, _, ok := c.scan.parseRecord(rest, false)
		if !ok {
			break
		}
		end += n
	}
	return end
}

func (c *csvChunks) lines(chunk []byte) int { return csvCountLineEnds(chunk) }

func (c *csvChunks) limit() int { return recordLimit(c.opts.MaxRecordBytes) }

func (c *csvChunks) overLong(b byte, first bool) (*recordSkip, bool, string, bool) {
	s := &recordSkip{delim: c.scan.delim, quote: c.scan.quote}
	row := !(first && c.opts.IgnoreFirstLine)
	if row && c.opts.AllowComments && b == '#' {
		s.state, row = skipLine, false
	}
	return s, row, recordTooLong(c.limit(), "record"), c.opts.IgnoreParseErrors
}

func (c *csvChunks) decoder(chunk []byte, off int64, line int, first bool, onBad func(*ParseError, []byte), w *chunkWorker) Decoder {
	opts := c.opts
	opts.OnBadRow = onBad
	opts.IgnoreFirstLine = opts.IgnoreFirstLine && first
	d := NewCSVDecoder(nil, c.source, c.schema, opts, c.mem, c.batchSize)
	d.useChunk(chunk, off, line)
	d.outMem = cmp.Or(c.outMem, c.mem) // decodeChunk releases what it leaves unused
	w.give(d)
	return d
}

func (c *csvChunks) finished(dec Decoder, w *chunkWorker) { w.take(dec.(*CSVDecoder)) }

// jsonChunks cuts JSON lines at line ends: a JSON text holds none outside
// its strings, and none raw inside them.
type jsonChunks struct {
	source    string
	schema    *arrow.Schema
	opts      JSONOptions
	mem       memory.Allocator
	outMem    memory.Allocator // as csvChunks's
	batchSize int
}

func (c *jsonChunks) cut(b []byte, atEOF bool) int {
	if atEOF {
		return len(b)
	}
	return bytes.LastIndexByte(b, '\n') + 1
}

func (c *jsonChunks) lines(chunk []byte) int { return bytes.Count(chunk, []byte{'\n'}) }

func (c *jsonChunks) limit() int { return recordLimit(c.opts.MaxRecordBytes) }

func (c *jsonChunks) overLong(byte, bool) (*recordSkip, bool, string, bool) {
	return &recordSkip{state: skipLF}, true, recordTooLong(c.limit(), "line"), c.opts.IgnoreParseErrors
}

func (c *jsonChunks) decoder(chunk []byte, off int64, line int, _ bool, onBad func(*ParseError, []byte), w *chunkWorker) Decoder {
	opts := c.opts
	opts.OnBadRow = onBad
	d := NewJSONDecoder(nil, c.source, c.schema, opts, c.mem, c.batchSize)
	d.useChunk(chunk, off, line)
	d.batch.outMem = cmp.Or(c.outMem, c.mem) // decodeChunk releases what it leaves unused
	w.give(&d.batch)
	return d
}

func (c *jsonChunks) finished(dec Decoder, w *chunkWorker) { w.take(&dec.(*JSONDecoder).batch) }
