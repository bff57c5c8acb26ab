package format

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

var parallelSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// renderDecode renders every row a decoder gives, the bad rows it reports and
// how it ends, for comparing two decoders.
func renderDecode(t *testing.T, next func() (arrow.RecordBatch, error), skipped func() int64, bad *[]string) string {
	t.Helper()
	var out strings.Builder
	for {
		rec, err := next()
		if err != nil {
			if err != io.EOF {
				fmt.Fprintf(&out, "error: %v\n", err)
			}
			break
		}
		for i := range int(rec.NumRows()) {
			for c := range int(rec.NumCols()) {
				out.WriteString(rec.Column(c).ValueStr(i) + "|")
			}
			out.WriteString("\n")
		}
		rec.Release()
	}
	fmt.Fprintf(&out, "skipped %d\n", skipped())
	for _, b := range *bad {
		out.WriteString("bad " + b + "\n")
	}
	return out.String()
}

// randomCSV writes rows with quoted fields (some holding line ends and
// doubled quotes), CRLF line ends, blank lines, comments and bad rows.
func randomCSV(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		switch r.IntN(20) {
		case 0:
			b.WriteString("\n")
			continue
		case 1:
			b.WriteString("# a comment, \"with a quote\n")
			continue
		case 2:
			b.WriteString("not a time,x,1\n")
			continue
		}
		fmt.Fprintf(&b, "2024-03-01 09:00:%02d.%03d,", r.IntN(60), r.IntN(1000))
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "\"multi\nline %d, \"\"quoted\"\"\"", i)
		case 1:
			fmt.Fprintf(&b, "plain%d", i)
		case 2:
			b.WriteString("")
		default:
			fmt.Fprintf(&b, "\"q%d\"", i)
		}
		fmt.Fprintf(&b, ",%d.%d", r.IntN(1000), r.IntN(100))
		if r.IntN(5) == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestParallelDecoderMatchesTheSequentialOne(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 30 {
		text := randomCSV(r, 1+r.IntN(300))
		opts := CSVOptions{AllowComments: true, IgnoreParseErrors: round%3 != 0, IgnoreFirstLine: round%4 == 0}
		if round%5 == 0 {
			text = strings.TrimSuffix(text, "\n") // no line end at the end
		}
		var seqBad, parBad []string
		seqOpts := opts
		seqOpts.OnBadRow = func(e *ParseError, raw []byte) { seqBad = append(seqBad, e.Error()+" "+string(raw)) }
		seq := NewCSVDecoder(strings.NewReader(text), "f.csv", parallelSchema, seqOpts, mem, 7)
		want := renderDecode(t, seq.Next, seq.Skipped, &seqBad)

		chunk := 16 + r.IntN(200) // tiny chunks: many cuts, records spanning them
		onBad := func(e *ParseError, raw []byte) { parBad = append(parBad, e.Error()+" "+string(raw)) }
		par := newParallelDecoder(strings.NewReader(text), "f.csv", newCSVChunks("f.csv", parallelSchema, opts, mem, 7), 1+r.IntN(3), chunk, onBad)
		got := renderDecode(t, par.Next, par.Skipped, &parBad)
		par.Close()
		require.Equal(t, want, got, "round %d, chunk %d", round, chunk)
	}
}

func TestParallelDecoderJSONLines(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var b strings.Builder
	for i := range 500 {
		if i%37 == 0 {
			b.WriteString("{bad json\n")
			continue
		}
		fmt.Fprintf(&b, `{"ts": "2024-03-01 09:00:%02d", "s": "x\ny %d", "v": %d.5}`+"\n", i%60, i, i)
	}
	text := b.String()
	opts := JSONOptions{IgnoreParseErrors: true}
	var none []string
	seq := NewJSONDecoder(strings.NewReader(text), "f.json", parallelSchema, opts, mem, 10)
	want := renderDecode(t, seq.Next, seq.Skipped, &none)
	par := newParallelDecoder(strings.NewReader(text), "f.json", &jsonChunks{source: "f.json", schema: parallelSchema, opts: opts, mem: mem, batchSize: 10}, 2, 300, nil)
	got := renderDecode(t, par.Next, par.Skipped, &none)
	par.Close()
	require.Equal(t, want, got)
	require.Contains(t, got, "skipped 14")
}

func TestParallelDecoderCloseReleasesWhatWasNotRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	text := strings.Repeat("2024-03-01 09:00:00,abc,1.5\n", 20000)
	par := newParallelDecoder(strings.NewReader(text), "f.csv", newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, 100), 2, 4096, nil)
	rec, err := par.Next()
	require.NoError(t, err)
	rec.Release()
	par.Close()
	par.Close()
}

func TestParallelDecoderReportsReadErrorsInOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	text := strings.Repeat("2024-03-01 09:00:00,abc,1.5\n", 100)
	r := io.MultiReader(strings.NewReader(text), &failingReader{})
	par := newParallelDecoder(r, "f.csv", newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, 30), 2, 256, nil)
	defer par.Close()
	var none []string
	got := renderDecode(t, par.Next, par.Skipped, &none)
	require.Equal(t, 100, strings.Count(got, "abc"))
	require.Contains(t, got, "error: f.csv: disk on fire")
}

type failingReader struct{}

func (*failingReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

// A worker's chunk decoders hand their working slices on: the next
// chunk's decoder of the same worker starts with the last one's bounds
// and column slices, emptied, instead of growing its own.
func TestChunkDecodersHandOnTheirWorkingSlices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var text strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&text, "2024-03-01 09:00:%02d,key%d,%d.5\n", i%60, i%(1+i%97), i)
	}
	f := newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, 100)
	var w chunkWorker
	res := decodeChunk(f, chunkJob{data: []byte(text.String()), first: true}, &w)
	require.NoError(t, res.err)
	require.Len(t, res.batches, 30)
	releaseAll(res.batches)
	s := w.scratch
	require.NotNil(t, s, "the chunk's decoder left its slices to the worker")
	require.NotZero(t, cap(s.bounds))
	require.Len(t, s.cols, 3)
	require.NotZero(t, cap(s.cols[1].data), "the strings' bytes")
	d := f.decoder([]byte("2024-03-01 09:00:00,y,2\n"), 0, 0, true, nil, &w).(*CSVDecoder)
	defer d.releaseOutputs()
	require.Nil(t, w.scratch, "the next chunk's decoder took them")
	require.Equal(t, cap(s.bounds), cap(d.simple.bounds))
	require.Equal(t, []int32{0}, d.cols[1].offs)
	require.Empty(t, d.cols[1].data)
	rec, err := d.Next()
	require.NoError(t, err)
	require.Equal(t, `["y"]`, fmt.Sprint(rec.Column(1)))
	rec.Release()
}

// The JSON chunk decoders hand their batch's slices on too.
func TestJSONChunkDecodersHandOnTheirWorkingSlices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, `{"ts":"2024-03-01 09:00:%02d","s":"key%d","v":%d.5}`+"\n", i%60, i%(1+i%97), i)
	}
	f := &jsonChunks{source: "f.json", schema: parallelSchema, mem: mem, batchSize: 100}
	var w chunkWorker
	res := decodeChunk(f, chunkJob{data: []byte(text.String()), first: true}, &w)
	require.NoError(t, res.err)
	require.Len(t, res.batches, 20)
	releaseAll(res.batches)
	s := w.scratch
	require.NotNil(t, s, "the chunk's decoder left its slices to the worker")
	require.NotZero(t, cap(s.cols[1].data), "the strings' bytes")
	d := f.decoder([]byte(`{"ts":"2024-03-01 09:00:00","s":"y","v":2}`+"\n"), 0, 0, true, nil, &w).(*JSONDecoder)
	defer d.releaseOutputs()
	require.Nil(t, w.scratch, "the next chunk's decoder took them")
	require.Equal(t, cap(s.cols[1].data), cap(d.batch.cols[1].data))
	require.Equal(t, []int32{0}, d.batch.cols[1].offs)
	rec, err := d.Next()
	require.NoError(t, err)
	require.Equal(t, `["y"]`, fmt.Sprint(rec.Column(1)))
	rec.Release()
}

func releaseAll(batches []arrow.RecordBatch) {
	for _, b := range batches {
		b.Release()
	}
}

// A chunk decoder writes its fixed-width values straight into the buffer
// it reserved for the batch, CSV and JSON alike: the batch takes that
// buffer (as long as batchSize values) rather than a copy of the values.
func TestChunkDecodersWriteIntoTheirReservedBuffers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const batch = 1000
	for _, c := range []struct {
		name string
		f    chunkFormat
		text string
	}{
		{"csv", newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, batch), "2024-03-01 09:00:00,a,1.5\n2024-03-01 09:00:01,b,2.5\n"},
		{"json", &jsonChunks{source: "f.json", schema: parallelSchema, mem: mem, batchSize: batch},
			`{"ts":"2024-03-01 09:00:00","s":"a","v":1.5}` + "\n" + `{"ts":"2024-03-01 09:00:01","s":"b","v":2.5}` + "\n"},
	} {
		d := c.f.decoder([]byte(c.text), 0, 0, true, nil, &chunkWorker{})
		rec, err := d.Next()
		require.NoError(t, err, c.name)
		require.EqualValues(t, 2, rec.NumRows(), c.name)
		values := rec.Column(2).Data().Buffers()[1]
		require.GreaterOrEqual(t, values.Len(), 2*8, c.name)
		require.GreaterOrEqual(t, cap(values.Buf()), batch*8, "%s: the reserved buffer, not a copy", c.name)
		rec.Release()
		d.(interface{ releaseOutputs() }).releaseOutputs()
	}
}
