package format

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// resumeSchema is the table of the resume tests.
var resumeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// resumeCSV writes n records of every kind: quoted fields with delimiters,
// line ends and doubled quotes, CRLF line ends, blank lines, comments, and
// (after the first ten, so a failing read has batches before it) bad rows
// of each kind; then tail, without a line end.
func resumeCSV(header, comments bool, n int, tail string) string {
	var b strings.Builder
	if header {
		b.WriteString("s,n,x\r\n")
	}
	for i := range n {
		bad := i > 10
		switch i % 9 {
		case 0:
			fmt.Fprintf(&b, "\"a, %d\",%d,%d.5\n", i, i, i)
		case 1:
			fmt.Fprintf(&b, "\"multi\nline \"\"%d\"\"\r\n\",%d,\r\n", i, i)
		case 2:
			fmt.Fprintf(&b, "\nplain%d,%d,1e%d\n", i, i, i%5)
		case 3:
			if comments {
				fmt.Fprintf(&b, "# a comment, \"%d\n", i)
			}
			fmt.Fprintf(&b, "p%d,%d,%d\n", i, i, i)
		case 4:
			if bad {
				fmt.Fprintf(&b, "bad%d,notanint,1\n", i)
			} else {
				fmt.Fprintf(&b, "good%d,%d,1\n", i, i)
			}
		case 5:
			fmt.Fprintf(&b, "\r\nx%d,%d,2\r\n", i, i)
		case 6:
			if bad {
				fmt.Fprintf(&b, "too,%d,many,fields\n", i)
			} else {
				fmt.Fprintf(&b, "\"\",%d,\n", i)
			}
		case 7:
			if bad {
				fmt.Fprintf(&b, "\"q\"x,%d,3\n", i)
			} else {
				fmt.Fprintf(&b, "\"q\",%d,3\n", i)
			}
		case 8:
			fmt.Fprintf(&b, ",%d,\n", i)
		}
	}
	b.WriteString(tail)
	return b.String()
}

// resumeJSON writes a byte order mark and n lines of every kind: escapes,
// blank lines, CRLF, nested values, and (after the first ten) bad lines;
// then tail, without a line end.
func resumeJSON(n int, tail string) string {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf{\"s\":\"bom\",\"n\":0,\"x\":0}\n")
	for i := range n {
		bad := i > 10
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, `{"s":"esc \"q\" \\ \u00e9 \n\t%d","n":%d,"x":%d.25}`+"\n", i, i, i)
		case 1:
			fmt.Fprintf(&b, "\n{\"n\":%d}\r\n", i)
		case 2:
			fmt.Fprintf(&b, "   \r\n{\"x\":1e3,\"s\":\"a\",\"n\":%d, \"extra\":[1,{\"a\":\"}\"}]}\n", i)
		case 3:
			if bad {
				fmt.Fprintf(&b, "{\"s\":\"x%d\",\"n\":\"abc\"}\n", i)
			} else {
				fmt.Fprintf(&b, "{\"s\":\"x%d\",\"n\":\"%d\"}\n", i, i)
			}
		case 4:
			if bad {
				fmt.Fprintf(&b, "{\"s\":%d  \n", i)
			} else {
				fmt.Fprintf(&b, "{\"s\":%d}\n", i)
			}
		case 5:
			if bad {
				fmt.Fprintf(&b, "not json %d\n", i)
			} else {
				b.WriteString("{}\n")
			}
		case 6:
			fmt.Fprintf(&b, `{"s":"\ud83d\ude00","n":%d,"x":null}`+"\n", i)
		}
	}
	b.WriteString(tail)
	return b.String()
}

// resumeDecoder makes a decoder over r for the resume tests, resumed at
// at if not nil; done closes it.
type resumeDecoder func(r io.Reader, mem memory.Allocator, batch int, onBad func(*ParseError, []byte), at *SplitPosition) (d Decoder, done func())

func csvResume(opts CSVOptions) resumeDecoder {
	return func(r io.Reader, mem memory.Allocator, batch int, onBad func(*ParseError, []byte), at *SplitPosition) (Decoder, func()) {
		o := opts
		o.OnBadRow = onBad
		d := NewCSVDecoder(r, "t.csv", resumeSchema, o, mem, batch)
		if at != nil {
			d.ResumeAt(*at)
		}
		return d, func() {}
	}
}

func jsonResume(opts JSONOptions) resumeDecoder {
	return func(r io.Reader, mem memory.Allocator, batch int, onBad func(*ParseError, []byte), at *SplitPosition) (Decoder, func()) {
		o := opts
		o.OnBadRow = onBad
		d := NewJSONDecoder(r, "t.json", resumeSchema, o, mem, batch)
		if at != nil {
			d.ResumeAt(*at)
		}
		return d, func() {}
	}
}

func parallelResume(format func(mem memory.Allocator, batch int) chunkFormat, source string, workers, chunk int) resumeDecoder {
	return func(r io.Reader, mem memory.Allocator, batch int, onBad func(*ParseError, []byte), at *SplitPosition) (Decoder, func()) {
		var p SplitPosition
		if at != nil {
			p = *at
		}
		d := newParallelDecoderAt(r, source, format(mem, batch), workers, chunk, onBad, p)
		return d, d.Close
	}
}

// resumeRun is what a read gave: every row as text, the bad rows reported
// (error and raw text), and how it ended.
type resumeRun struct {
	rows    []string
	bad     []string
	skipped int64
	err     string // "" for io.EOF
}

// readBatches calls Next for up to limit batches (all when limit < 0),
// adding to run; it reports whether the read ended and the position after
// each batch.
func readBatches(t *testing.T, d Decoder, run *resumeRun, limit int) (ended bool, positions []SplitPosition) {
	t.Helper()
	for limit < 0 || len(positions) < limit {
		rec, err := d.Next()
		if err != nil {
			require.Nil(t, rec)
			if err != io.EOF {
				run.err = err.Error()
			}
			return true, positions
		}
		require.NotNil(t, rec, "a batch or an error")
		require.Positive(t, rec.NumRows())
		for i := range int(rec.NumRows()) {
			var row strings.Builder
			for c := range int(rec.NumCols()) {
				row.WriteString(rec.Column(c).ValueStr(i) + "|")
			}
			run.rows = append(run.rows, row.String())
		}
		rec.Release()
		positions = append(positions, d.Position())
		require.Equal(t, d.Skipped(), d.Position().Skipped)
	}
	return false, positions
}

// openAt opens path and seeks to off, as a resumed read does.
func openAt(t *testing.T, path string, off int64) *os.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	_, err = f.Seek(off, io.SeekStart)
	require.NoError(t, err)
	return f
}

// requireResumes reads data uninterrupted, then for every batch boundary
// (and after the end) reads up to it, takes the position, and resumes a new
// decoder there on the file: the two parts must make up the uninterrupted
// read exactly. It returns the uninterrupted read.
func requireResumes(t *testing.T, path, data string, mk resumeDecoder, batch int) resumeRun {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	read := func(run *resumeRun, at *SplitPosition, limit int) (bool, []SplitPosition, SplitPosition, int64) {
		var off int64
		if at != nil {
			off = at.Offset
		}
		f := openAt(t, path, off)
		defer f.Close()
		onBad := func(e *ParseError, raw []byte) {
			run.bad = append(run.bad, fmt.Sprintf("%v [%s]", e, raw))
		}
		d, done := mk(f, mem, batch, onBad, at)
		defer done()
		if at != nil {
			require.Equal(t, *at, d.Position(), "a resumed decoder starts where it was resumed")
		} else {
			require.Equal(t, SplitPosition{}, d.Position())
		}
		ended, positions := readBatches(t, d, run, limit)
		return ended, positions, d.Position(), d.Skipped()
	}

	var full resumeRun
	ended, positions, _, skipped := read(&full, nil, -1)
	require.True(t, ended)
	full.skipped = skipped
	for _, p := range positions {
		require.Equal(t, strings.Count(data[:p.Offset], "\n"), p.Line, "Line counts the line ends up to Offset")
		require.Equal(t, p.Offset > 0, p.Started)
	}

	for k := 0; k <= len(positions)+1; k++ {
		limit := k
		if k > len(positions) {
			limit = -1 // after the end (io.EOF or the error)
		}
		var got resumeRun
		ended, before, pos, skipped := read(&got, nil, limit)
		require.Equal(t, append([]SplitPosition{}, positions[:min(k, len(positions))]...), append([]SplitPosition{}, before...),
			"positions do not depend on where the read stops")
		require.Equal(t, pos.Skipped, skipped)
		if k > 0 && k <= len(positions) {
			require.Equal(t, positions[k-1], pos)
		}
		require.Equal(t, limit < 0, ended)
		require.Equal(t, strings.Count(data[:pos.Offset], "\n"), pos.Line)
		got.err = ""
		var after []SplitPosition
		_, after, _, got.skipped = read(&got, &pos, -1)
		require.Equal(t, full, got, "resumed after batch %d at %+v", k, pos)
		// the batches after a resume are the uninterrupted read's, so
		// what depends on batch boundaries (a parallel window's order of
		// results) is the same too
		require.Equal(t, append([]SplitPosition{}, positions[min(k, len(positions)):]...), append([]SplitPosition{}, after...),
			"batches after resuming at batch %d", k)
	}
	return full
}

func TestSplitPositionResume(t *testing.T) {
	type dataset struct {
		name  string
		data  string
		kinds map[string]resumeDecoder
	}
	csvKinds := func(opts CSVOptions) map[string]resumeDecoder {
		format := func(mem memory.Allocator, batch int) chunkFormat {
			return newCSVChunks("t.csv", resumeSchema, opts, mem, batch)
		}
		return map[string]resumeDecoder{
			"sequential":     csvResume(opts),
			"parallel64x3":   parallelResume(format, "t.csv", 3, 64),
			"parallel200x2":  parallelResume(format, "t.csv", 2, 200),
			"parallel4096x1": parallelResume(format, "t.csv", 1, 4096),
		}
	}
	jsonKinds := func(opts JSONOptions) map[string]resumeDecoder {
		format := func(mem memory.Allocator, batch int) chunkFormat {
			return &jsonChunks{source: "t.json", schema: resumeSchema, opts: opts, mem: mem, batchSize: batch}
		}
		return map[string]resumeDecoder{
			"sequential":     jsonResume(opts),
			"parallel64x3":   parallelResume(format, "t.json", 3, 64),
			"parallel200x2":  parallelResume(format, "t.json", 2, 200),
			"parallel4096x1": parallelResume(format, "t.json", 1, 4096),
		}
	}
	headerComments := CSVOptions{IgnoreFirstLine: true, AllowComments: true}
	plain := CSVOptions{}
	skip := func(o CSVOptions) CSVOptions { o.IgnoreParseErrors = true; return o }
	var sets []dataset
	for _, ignore := range []bool{true, false} {
		suffix := map[bool]string{true: "/ignore", false: "/fail"}[ignore]
		hc, pl := headerComments, plain
		if ignore {
			hc, pl = skip(hc), skip(pl)
		}
		sets = append(sets,
			dataset{"csv-header-comments" + suffix, resumeCSV(true, true, 40, "last,99,9.5"), csvKinds(hc)},
			dataset{"csv-plain-bad-tail" + suffix, resumeCSV(false, false, 40, "last,bad,9.5"), csvKinds(pl)},
			dataset{"csv-header-only" + suffix, "s,n,x\n", csvKinds(hc)},
			dataset{"csv-trailing-comment" + suffix, "s,n,x\n# c\n\"a\nb\",1,2\n\n# end", csvKinds(hc)},
			dataset{"json" + suffix, resumeJSON(40, `{"s":"last","n":99}`), jsonKinds(JSONOptions{IgnoreParseErrors: ignore})},
			dataset{"json-bad-bom-line" + suffix, "\xef\xbb\xbf{bad\n{\"n\":1}\n\n", jsonKinds(JSONOptions{IgnoreParseErrors: ignore})},
			dataset{"json-empty" + suffix, "", jsonKinds(JSONOptions{IgnoreParseErrors: ignore})},
			dataset{"csv-bom-header" + suffix, "\xef\xbb\xbf" + resumeCSV(true, true, 40, "last,99,9.5"), csvKinds(hc)},
			dataset{"csv-bom-plain" + suffix, "\xef\xbb\xbf" + resumeCSV(false, false, 40, "last,bad,9.5"), csvKinds(pl)},
			dataset{"json-bom" + suffix, "\xef\xbb\xbf" + resumeJSON(40, `{"s":"last","n":99}`), jsonKinds(JSONOptions{IgnoreParseErrors: ignore})},
		)
	}
	dir := t.TempDir()
	for i, set := range sets {
		path := filepath.Join(dir, fmt.Sprintf("split%d", i))
		require.NoError(t, os.WriteFile(path, []byte(set.data), 0o644))
		t.Run(set.name, func(t *testing.T) {
			for _, batch := range []int{1, 3, 4096} {
				var want *resumeRun
				for _, kind := range []string{"sequential", "parallel64x3", "parallel200x2", "parallel4096x1"} {
					t.Run(fmt.Sprintf("%s/batch%d", kind, batch), func(t *testing.T) {
						got := requireResumes(t, path, set.data, set.kinds[kind], batch)
						if want == nil {
							want = &got
							return
						}
						require.Equal(t, *want, got, "the parallel decoder reads as the sequential one")
					})
				}
				if want == nil {
					return // failed
				}
				if strings.Contains(set.name, "/ignore") && len(set.data) > 1000 {
					require.NotEmpty(t, want.bad)
					require.EqualValues(t, len(want.bad), want.skipped)
				}
				if strings.Contains(set.name, "/fail") && len(set.data) > 1000 {
					require.NotEmpty(t, want.err) // not io.EOF
				}
			}
		})
	}
}

// TestSplitPositionFailingRow pins where a read stopped by a bad row stands:
// at the start of that row, so that a resumed read fails with the same
// error (line and column included).
func TestSplitPositionFailingRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	input := "h\n# c\na,1,1\n\n\"b\nc\",x,2\n"
	d := NewCSVDecoder(strings.NewReader(input), "t.csv", resumeSchema, CSVOptions{IgnoreFirstLine: true, AllowComments: true}, mem, 10)
	rec, err := d.Next()
	require.NoError(t, err)
	require.EqualValues(t, 1, rec.NumRows())
	rec.Release()
	pos := d.Position()
	require.Equal(t, SplitPosition{Offset: int64(strings.Index(input, "\"b")), Line: 4, Started: true}, pos)
	_, err = d.Next()
	require.EqualError(t, err, `t.csv:5:2 (column n): cannot parse "x" as INT: invalid integer`)
	require.Equal(t, pos, d.Position())

	r := NewCSVDecoder(strings.NewReader(input[pos.Offset:]), "t.csv", resumeSchema, CSVOptions{IgnoreFirstLine: true, AllowComments: true}, mem, 10)
	r.ResumeAt(pos)
	_, err = r.Next()
	require.EqualError(t, err, `t.csv:5:2 (column n): cannot parse "x" as INT: invalid integer`)
}
