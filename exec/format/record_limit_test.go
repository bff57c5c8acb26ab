package format

import (
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// endlessReader serves n bytes of b (no line end) and then tail, and
// records the largest buffer a Read was given.
type endlessReader struct {
	b       byte
	n       int
	tail    string
	maxRead int
}

func (r *endlessReader) Read(p []byte) (int, error) {
	r.maxRead = max(r.maxRead, len(p))
	if r.n > 0 {
		k := min(len(p), r.n)
		for i := range p[:k] {
			p[i] = r.b
		}
		r.n -= k
		return k, nil
	}
	if r.tail == "" {
		return 0, io.EOF
	}
	k := copy(p, r.tail)
	r.tail = r.tail[k:]
	return k, nil
}

// A record with no end (a binary file, an unclosed quote) is a bad row once
// it passes 'wsql.max-record-bytes': skipped to its end without being held,
// and reading goes on after it. The buffer never grows past the limit.
func TestCSVDecoderOverLongRecordIsSkippedInBoundedMemory(t *testing.T) {
	schema := csvSchema("k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Int64)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const limit = 2 << 20
	const msg = "record longer than 2097152 bytes ('wsql.max-record-bytes'): look for a missing line end or an unclosed quote, or raise the setting"
	for _, c := range []struct {
		name, prefix string
		b            byte
		tail, want   string
	}{
		// 12 MiB of zero bytes, then rows.
		{"no line end", "", 0, "\na,1\nb,2\n", "a|1|\nb|2|\nskipped 1\nbad in.csv:1: " + msg + " \n"},
		// An unclosed quote: the field runs to the next quote, the record
		// to the line end after it, as the grammar has it.
		{"unclosed quote", "\"", 'q', "\n\"x\nb,2\r\"c\",3\r", "b|2|\nc|3|\nskipped 1\nbad in.csv:1: " + msg + " \n"},
	} {
		var bad []string
		opts := CSVOptions{IgnoreParseErrors: true, MaxRecordBytes: limit, OnBadRow: func(e *ParseError, raw []byte) {
			require.Nil(t, raw, "an over-long record is not held")
			bad = append(bad, e.Error()+" "+string(raw))
		}}
		in := &endlessReader{b: c.b, n: 12 << 20, tail: c.tail}
		d := NewCSVDecoder(&prefixReader{prefix: c.prefix, r: in}, "in.csv", schema, opts, mem, 0)
		require.Equal(t, c.want, renderDecode(t, d.Next, d.Skipped, &bad), c.name)
		require.LessOrEqual(t, len(d.buf), limit+1, "%s: the buffer grew past the limit", c.name)

		// The parallel decoder skips it the same way, in bounded chunks.
		bad = nil
		in = &endlessReader{b: c.b, n: 12 << 20, tail: c.tail}
		par := newParallelDecoder(&prefixReader{prefix: c.prefix, r: in}, "in.csv", newCSVChunks("in.csv", schema, opts, mem, 0), 2, 64<<10, opts.OnBadRow)
		require.Equal(t, c.want, renderDecode(t, par.Next, par.Skipped, &bad), "parallel: %s", c.name)
		par.Close()
		require.LessOrEqual(t, in.maxRead, limit+1+64<<10, "parallel: %s: a read past the limit and a chunk", c.name)
	}

	// Without ignore-parse-errors the read stops at the record, naming it.
	d := NewCSVDecoder(&endlessReader{b: 'x', n: 3 << 20}, "in.csv", schema, CSVOptions{MaxRecordBytes: limit}, mem, 0)
	_, err := decodeAll(t, d)
	require.ErrorIs(t, err, ErrBadRow)
	require.EqualError(t, err, "in.csv:1: "+msg)
	require.LessOrEqual(t, len(d.buf), limit+1)
}

// prefixReader reads prefix, then r.
type prefixReader struct {
	prefix string
	r      io.Reader
}

func (p *prefixReader) Read(b []byte) (int, error) {
	if p.prefix != "" {
		n := copy(b, p.prefix)
		p.prefix = p.prefix[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// Records over a small limit, in the buffer or not, at every place: a bad
// row each, with its line; the header and comment lines are just skipped;
// sequential and parallel reads agree, and so do the batch sizes.
func TestOverLongRecordsAtEveryPlace(t *testing.T) {
	schema := csvSchema("k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Int64)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long := strings.Repeat("z", 100)
	input := long + " header\n# " + long + "\na,1\n" + long + ",2\n\"" + long + "\nstill quoted\",3\r\nb,4\n" + long
	opts := CSVOptions{IgnoreFirstLine: true, AllowComments: true, IgnoreParseErrors: true, MaxRecordBytes: 32}
	const msg = ": record longer than 32 bytes ('wsql.max-record-bytes'): look for a missing line end or an unclosed quote, or raise the setting \n"
	want := "a|1|\nb|4|\nskipped 3\nbad in.csv:4" + msg + "bad in.csv:5" + msg + "bad in.csv:8" + msg
	var bad []string
	o := opts
	o.OnBadRow = func(e *ParseError, raw []byte) { bad = append(bad, e.Error()+" "+string(raw)) }
	for _, size := range []int{1, 4096} {
		bad = nil
		d := NewCSVDecoder(strings.NewReader(input), "in.csv", schema, o, mem, size)
		require.Equal(t, want, renderDecode(t, d.Next, d.Skipped, &bad))
		bad = nil
		d = NewCSVDecoder(&oneByteReader{data: []byte(input)}, "in.csv", schema, o, mem, size)
		require.Equal(t, want, renderDecode(t, d.Next, d.Skipped, &bad), "one byte per read")
	}
	for _, chunk := range []int{16, 64, 1 << 20} {
		bad = nil
		par := newParallelDecoder(strings.NewReader(input), "in.csv", newCSVChunks("in.csv", schema, opts, mem, 2), 2, chunk, o.OnBadRow)
		require.Equal(t, want, renderDecode(t, par.Next, par.Skipped, &bad), "parallel, chunks of %d", chunk)
		par.Close()
	}
}

func TestJSONDecoderOverLongLineIsSkippedInBoundedMemory(t *testing.T) {
	schema := csvSchema("k", arrow.BinaryTypes.String)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const limit = 1 << 20
	want := "a|\nskipped 1\nbad in.json:2: line longer than 1048576 bytes ('wsql.max-record-bytes'): look for a missing line end or an unclosed quote, or raise the setting \n"
	var bad []string
	opts := JSONOptions{IgnoreParseErrors: true, MaxRecordBytes: limit, OnBadRow: func(e *ParseError, raw []byte) { bad = append(bad, e.Error()+" "+string(raw)) }}
	in := &prefixReader{prefix: `{"k":"a"}` + "\n", r: &endlessReader{b: ' ', n: 9 << 20}}
	d := NewJSONDecoder(in, "in.json", schema, opts, mem, 0)
	require.Equal(t, want, renderDecode(t, d.Next, d.Skipped, &bad))
	require.LessOrEqual(t, len(d.buf), max(csvDefaultBufSize, limit+1))

	bad = nil
	er := &endlessReader{b: ' ', n: 9 << 20}
	par := newParallelDecoder(&prefixReader{prefix: `{"k":"a"}` + "\n", r: er}, "in.json", &jsonChunks{source: "in.json", schema: schema, opts: opts, mem: mem}, 2, 64<<10, opts.OnBadRow)
	require.Equal(t, want, renderDecode(t, par.Next, par.Skipped, &bad))
	par.Close()
	require.LessOrEqual(t, er.maxRead, limit+1+64<<10)
}
