package exec

import (
	"bytes"

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
		return bytes.LastIndexByte(b, '\n') + 1
	}
	end := 0
	for end < len(b) {
		rest := b[end:]
		if c.opts.AllowComments && rest[0] == '#' {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			end += i + 1
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

func (c *csvChunks) decoder(chunk []byte, off int64, line int, first bool, onBad func(*ParseError, []byte)) positionDecoder {
	opts := c.opts
	opts.OnBadRow = onBad
	opts.IgnoreFirstLine = opts.IgnoreFirstLine && first
	d := NewCSVDecoder(nil, c.source, c.schema, opts, c.mem, c.batchSize)
	d.useChunk(chunk, off, line)
	return d
}

// jsonChunks cuts JSON lines at line ends: a JSON text holds none outside
// its strings, and none raw inside them.
type jsonChunks struct {
	source    string
	schema    *arrow.Schema
	opts      JSONOptions
	mem       memory.Allocator
	batchSize int
}

func (c *jsonChunks) cut(b []byte, atEOF bool) int {
	if atEOF {
		return len(b)
	}
	return bytes.LastIndexByte(b, '\n') + 1
}

func (c *jsonChunks) decoder(chunk []byte, off int64, line int, _ bool, onBad func(*ParseError, []byte)) positionDecoder {
	opts := c.opts
	opts.OnBadRow = onBad
	d := NewJSONDecoder(nil, c.source, c.schema, opts, c.mem, c.batchSize)
	d.useChunk(chunk, off, line)
	return d
}
