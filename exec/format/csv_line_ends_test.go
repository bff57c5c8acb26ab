package format

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A file with only CR line ends (old Mac files, some exports) reads as
// lines, like DuckDB and Python read it; "\r\n" stays one line end, mixed
// files work, and line numbers count every line end, also in quotes.
func TestCSVDecoderCROnlyLineEnds(t *testing.T) {
	schema := csvSchema("k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Int64)
	input := "h,v\ra,1\rb,2\r\r\"c\rd\",3\rbad,x\r\ne,4\nf,5\r\"g\",6\r"
	want := "a|1|\nb|2|\nc\rd|3|\ne|4|\nf|5|\ng|6|\nskipped 1\nbad in.csv:7:2 (column v): cannot parse \"x\" as BIGINT: invalid integer bad,x\n"
	opts := CSVOptions{IgnoreFirstLine: true, IgnoreParseErrors: true}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var bad []string
	onBad := func(e *ParseError, raw []byte) { bad = append(bad, e.Error()+" "+string(raw)) }
	for _, size := range []int{1, 2, 4096} {
		bad = nil
		o := opts
		o.OnBadRow = onBad
		d := NewCSVDecoder(strings.NewReader(input), "in.csv", schema, o, mem, size)
		require.Equal(t, want, renderDecode(t, d.Next, d.Skipped, &bad), "batch size %d", size)
		require.Equal(t, int64(10), d.Lines())
		// One byte at a time: a '\r' ending a read waits for the next byte.
		bad = nil
		d = NewCSVDecoder(&oneByteReader{data: []byte(input)}, "in.csv", schema, o, mem, size)
		require.Equal(t, want, renderDecode(t, d.Next, d.Skipped, &bad), "one byte per read, batch size %d", size)
	}
	for _, chunk := range []int{1, 7, 64 << 10} {
		bad = nil
		par := newParallelDecoder(strings.NewReader(input), "in.csv", newCSVChunks("in.csv", schema, opts, mem, 2), 2, chunk, onBad)
		require.Equal(t, want, renderDecode(t, par.Next, par.Skipped, &bad), "parallel, chunks of %d", chunk)
		par.Close()
	}
	// Unquoted, so the parallel decoder cuts at the last line end.
	plain := strings.Repeat("x,1\r", 1000) + "y,2\r\n"
	bad = nil
	par := newParallelDecoder(strings.NewReader(plain), "in.csv", newCSVChunks("in.csv", schema, CSVOptions{}, mem, 100), 3, 64, onBad)
	got := renderDecode(t, par.Next, par.Skipped, &bad)
	par.Close()
	require.Equal(t, strings.Repeat("x|1|\n", 1000)+"y|2|\nskipped 0\n", got)
}

// oneByteReader returns one byte per Read.
type oneByteReader struct{ data []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	return 1, nil
}

func TestCSVLineEndHelpers(t *testing.T) {
	require.Equal(t, -1, csvLineEnd([]byte("abc")))
	require.Equal(t, 3, csvLineEnd([]byte("abc\r\nd")))
	require.Equal(t, 3, csvLineEnd([]byte("abc\rd\n")))
	long := bytes.Repeat([]byte{'x'}, 3*csvLineEndWindow)
	require.Equal(t, len(long), csvLineEnd(append(long, '\r', 'x', '\n')))
	require.Equal(t, 4, csvCountLineEnds([]byte("a\rb\r\nc\n\r")))
	require.Equal(t, 2, csvLastLineEnd([]byte("a\rb\r")), "a final '\\r' may be half a \"\\r\\n\"")
	require.Equal(t, 5, csvLastLineEnd([]byte("a\rb\r\nc")))
	require.Equal(t, 0, csvLastLineEnd([]byte("abc\r")))
}
