package format

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A helping Next that must queue a result while results is full moves the
// oldest queued channels ahead of the rest instead of waiting for room it
// would have to make itself, and Next still hands them out in order.
func TestHelpingNextQueuesAheadWhenResultsAreFull(t *testing.T) {
	d := &ParallelDecoder{results: make(chan chan chunkResult, 2), stop: make(chan struct{})}
	var outs []chan chunkResult
	for i := range 4 {
		out := make(chan chunkResult, 1)
		out <- chunkResult{limit: int64(i)}
		outs = append(outs, out)
	}
	require.True(t, d.queue(outs[0]))
	require.True(t, d.queue(outs[1]))
	d.helping = true
	require.True(t, d.queue(outs[2]))
	require.True(t, d.queue(outs[3]))
	d.helping = false
	require.Equal(t, []chan chunkResult{outs[0], outs[1]}, d.ahead)
	close(d.results)
	for i := range 4 {
		out, ok := d.nextResult()
		require.True(t, ok)
		require.Equal(t, int64(i), d.wait(out).limit)
	}
	_, ok := d.nextResult()
	require.False(t, ok)
}

// With two workers or more, Next's goroutine is the last of them: it cuts
// and decodes chunks whenever the next one is not there yet, among them
// chunks skipped whole as over-long records (each a result of its own, so
// a helping Next can fill the queue by itself), and the rows, bad rows and
// positions are those of the sequential decoder.
func TestNextDecodesChunksItself(t *testing.T) {
	schema := csvSchema("k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Int64)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long := strings.Repeat("z", 100)
	var in strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&in, "k%d,%d\n", i%7, i)
		if i%10 == 0 {
			for range 1 + i%5 { // runs of over-long records
				in.WriteString(long + "\n")
			}
		}
	}
	opts := CSVOptions{IgnoreParseErrors: true, MaxRecordBytes: 32}
	var seqBad []string
	o := opts
	o.OnBadRow = func(e *ParseError, raw []byte) { seqBad = append(seqBad, e.Error()) }
	seq := NewCSVDecoder(strings.NewReader(in.String()), "in.csv", schema, o, mem, 5)
	want := renderDecode(t, seq.Next, seq.Skipped, &seqBad)
	for _, workers := range []int{2, 3} {
		for _, chunk := range []int{40, 64, 200} {
			var bad []string
			par := newParallelDecoder(strings.NewReader(in.String()), "in.csv", newCSVChunks("in.csv", schema, opts, mem, 5), workers, chunk,
				func(e *ParseError, _ []byte) { bad = append(bad, e.Error()) })
			require.NotNil(t, par.helper)
			require.Equal(t, want, renderDecode(t, par.Next, par.Skipped, &bad), "%d workers, chunks of %d", workers, chunk)
			require.NotNil(t, par.helper.buf, "Next cut no chunk of its own in %d chunks", in.Len()/chunk)
			par.Close()
		}
	}
	par := newParallelDecoder(strings.NewReader(in.String()), "in.csv", newCSVChunks("in.csv", schema, opts, mem, 5), 1, 64, nil)
	require.Nil(t, par.helper, "one worker: a goroutine of its own, as before")
	par.Close()
}
