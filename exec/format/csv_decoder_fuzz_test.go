package format

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// fuzzFields has a column of every type the CSV and JSON decoders read.
var fuzzFields = []arrow.Field{
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "d38", Type: &arrow.Decimal128Type{Precision: 38, Scale: 4}, Nullable: true},
	{Name: "dt", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "t", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
	{Name: "t6", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}, // NOT NULL, as a rowtime
	{Name: "tsz", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "tsn", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true},
	{Name: "by", Type: arrow.BinaryTypes.Binary, Nullable: true},                                        // BYTES, base64
	{Name: "t0", Type: arrow.FixedWidthTypes.Time32s, Nullable: true},                                   // TIME(0)
	{Name: "ts0", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true},                       // TIMESTAMP(0)
	{Name: "tsu", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true}, // TIMESTAMP_LTZ(6)
	{Name: "iv", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},                               // INTERVAL DAY TO SECOND: milliseconds
	{Name: "ym", Type: arrow.FixedWidthTypes.MonthInterval, Nullable: true},                             // INTERVAL YEAR TO MONTH: months
}

// fuzzAllTypes is the pick of every column of fuzzFields.
const fuzzAllTypes = 255

// fuzzSchema picks n columns of fuzzFields starting at start (wrapping), so
// every type gets to be the first of few columns, where fuzzed rows often
// have the right number of fields.
func fuzzSchema(pick uint8) *arrow.Schema {
	if pick == fuzzAllTypes {
		return arrow.NewSchema(fuzzFields, nil)
	}
	n := len(fuzzFields)
	start, count := int(pick)%n, 1+int(pick/uint8(n))%n
	fields := make([]arrow.Field, count)
	for i := range fields {
		fields[i] = fuzzFields[(start+i)%n]
	}
	return arrow.NewSchema(fields, nil)
}

// fuzzing tells a -fuzz run from a plain test run: seeds of megabytes run
// in every go test, but the fuzzer would spend its time minimizing them.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// fuzzDecode renders what a decoder gives (renderDecode) and also returns
// the rows and the error it ended with. Every batch holds a row, so more
// calls than lines+2 mean the decoder does not make progress.
func fuzzDecode(t *testing.T, next func() (arrow.RecordBatch, error), skipped func() int64, bad *[]string, lines int) (string, int, error) {
	t.Helper()
	rows, calls := 0, 0
	var last error
	counted := func() (arrow.RecordBatch, error) {
		calls++
		require.LessOrEqual(t, calls, lines+2, "decoder makes no progress")
		rec, err := next()
		if rec != nil {
			require.Positive(t, rec.NumRows(), "empty batch")
			rows += int(rec.NumRows())
		}
		if err != nil && err != io.EOF {
			last = err
		}
		return rec, err
	}
	return renderDecode(t, counted, skipped, bad), rows, last
}

// fuzzResume reads k batches with the decoder open(nil, ...) makes, takes
// its position, resumes a decoder open(&pos, ...) makes there, and renders,
// as renderDecode does, the rows of both, the bad rows both reported and how
// the second read ends: the same as an uninterrupted read's rendering.
// open's decoders report bad rows to bad; done closes one.
func fuzzResume(t *testing.T, k int, open func(at *SplitPosition, bad *[]string) (d Decoder, done func())) string {
	t.Helper()
	var bad []string
	var rows strings.Builder
	d, done := open(nil, &bad)
	for range k {
		rec, err := d.Next()
		if err != nil {
			break // the resumed read ends the same way
		}
		for i := range int(rec.NumRows()) {
			for c := range int(rec.NumCols()) {
				rows.WriteString(rec.Column(c).ValueStr(i) + "|")
			}
			rows.WriteString("\n")
		}
		rec.Release()
	}
	pos := d.Position()
	require.Equal(t, d.Skipped(), pos.Skipped)
	done()
	r, done := open(&pos, &bad)
	defer done()
	return rows.String() + renderDecode(t, r.Next, r.Skipped, &bad)
}

// resumableDecoder is a sequential decoder that can start at a position.
type resumableDecoder interface {
	Decoder
	ResumeAt(SplitPosition)
}

// sequentialAt is fuzzResume's open for a sequential decoder over data:
// from its start, or from a position on, as a restart reads a file.
func sequentialAt(t *testing.T, data []byte, newDecoder func(r io.Reader, onBad func(*ParseError, []byte)) resumableDecoder) func(at *SplitPosition, bad *[]string) (Decoder, func()) {
	return func(at *SplitPosition, bad *[]string) (Decoder, func()) {
		onBad := func(e *ParseError, raw []byte) { *bad = append(*bad, e.Error()+" "+string(raw)) }
		if at == nil {
			return newDecoder(bytes.NewReader(data), onBad), func() {}
		}
		require.LessOrEqual(t, at.Offset, int64(len(data)))
		d := newDecoder(bytes.NewReader(data[at.Offset:]), onBad)
		d.ResumeAt(*at)
		return d, func() {}
	}
}

// requireClearError: a bad row is a *ParseError that says where it is;
// anything else names the source.
func requireClearError(t *testing.T, err error, source string, lines int, csv bool) {
	t.Helper()
	var perr *ParseError
	if !errors.As(err, &perr) {
		require.Contains(t, err.Error(), source)
		return
	}
	require.ErrorIs(t, err, ErrBadRow)
	require.Equal(t, source, perr.Source)
	require.NotEmpty(t, perr.Msg)
	require.True(t, perr.Line >= 1 && perr.Line <= lines, "line %d of %d: %v", perr.Line, lines, err)
	if csv && !strings.Contains(perr.Msg, "wsql.max-record-bytes") {
		require.Positive(t, perr.Column, "%v", err)
	}
	require.LessOrEqual(t, len(perr.Value), csvMaxValueInError+len("..."))
	require.True(t, strings.HasPrefix(err.Error(), source+":"), "%v", err)
}

// csvRecordCount counts the records a decode should see (rows read plus
// rows skipped) for input without the quote character, where a record is
// a line: not blank, not a comment, not the header.
func csvRecordCount(data []byte, opts CSVOptions) int {
	// Each line end ("\n", "\r\n", "\r") becomes a '\n'.
	norm := bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte{'\n'}), []byte{'\r'}, []byte{'\n'})
	lines := bytes.Split(norm, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // text ends with a line end
	}
	if opts.IgnoreFirstLine && len(lines) > 0 {
		lines = lines[1:]
	}
	n := 0
	for _, l := range lines {
		if len(l) == 0 || opts.AllowComments && l[0] == '#' {
			continue
		}
		n++
	}
	return n
}

func FuzzCSVDecoder(f *testing.F) {
	const allTypes = fuzzAllTypes
	row := "x,true,-128,32767,-2147483648,9223372036854775807,1.5,-2e300,12345678.99,1e-4,2024-02-29,23:59:59.999,00:00:00.123456,2024-03-01 09:00:00.123,2024-03-01T09:00:00+08:00,2262-04-10 23:47:16.854775807,/w==,12:00:01,2024-03-01 09:00:00,2024-03-01T09:00:00.123456Z,90061001,-14\n"
	f.Add([]byte(row+row), byte(0), byte(0), uint8(0), "", uint8(1), uint8(allTypes))
	f.Add([]byte("AAEC\n\"aGk\"\n!!\n\n\"\"\n"), byte(0), byte(0), uint8(0), "", uint8(1), uint8(16))
	f.Add([]byte("a;'b;''c''\n'\nd';x\n"), byte(';'), byte('\''), uint8(1), "", uint8(2), uint8(0))
	f.Add([]byte("# comment, \"open quote\nh1,h2\n\"x\"y,1\n,\n\"\",\n\r\nNULL,NULL\n"), byte(0), byte(0), uint8(7), "NULL", uint8(3), uint8(22))
	f.Add([]byte("\xff\xfe,1\n\"\xc3\x28\",2\nok,3"), byte(0), byte(0), uint8(1), "", uint8(1), uint8(22*1))
	f.Add([]byte("99999999999999999999,1e400,-0,NaN\n 1 , true \n"), byte(0), byte(0), uint8(1), "", uint8(2), uint8(22*3+2))
	f.Add([]byte("2024-13-01,25:00,2024-02-30 00:00:00,9999-12-31T23:59:59.999999999Z\n"), byte(0), byte(0), uint8(0), "", uint8(1), uint8(22*3+10))
	f.Add([]byte("\"unterminated,1\nx,2\n"), byte(0), byte(0), uint8(1), "", uint8(1), uint8(22))
	f.Add([]byte("a,b\n"), byte('"'), byte('"'), uint8(0), "", uint8(1), uint8(22))
	// Line ends "\r" (old Mac files), mixed with "\r\n" and "\n", also in quotes.
	f.Add([]byte("x,1\ry,2\r\r\"a\rb\",3\r\nz,4\n\"q\"\r"), byte(0), byte(0), uint8(0), "", uint8(1), uint8(22*1))
	f.Add([]byte("h\r# note\rx,1\r\"bad\"x\ry,2"), byte(0), byte(0), uint8(7), "", uint8(2), uint8(22*1))
	// Records over a limit of 16 bytes: unquoted, in an unclosed quote, the header, a comment.
	f.Add([]byte("a,1\nmuch too long,2\n\"open,3\nb,4\n"), byte(0), byte(0), uint8(1), "", uint8(2<<3|1), uint8(22*1))
	f.Add([]byte("a long header line\n# a long comment line\r\nx,1\r\"q\"\"\"q\"\"\"q\"\"\",2\r\n"), byte(0), byte(0), uint8(7), "", uint8(2<<3|3), uint8(22*1))
	f.Add([]byte("a,1\nmuch too long,2\n"), byte(0), byte(0), uint8(0), "", uint8(2<<3|1), uint8(22*1))
	// Records longer than the decoder's first buffer and many chunks.
	if !fuzzing() {
		long := strings.Repeat("y", csvDefaultBufSize+100)
		f.Add([]byte("a\n"+long+"\n\""+long+"\"\nb\n"), byte(0), byte(0), uint8(1), "", uint8(5), uint8(0))
	}
	f.Add([]byte(strings.Repeat("z", 3000)+"\xff\n"+strings.Repeat("1,", 2000)+"\n"), byte(0), byte(0), uint8(1), "", uint8(1), uint8(0))
	// Runs of simple records broken by what only the record parser reads:
	// a quote, "\r\n", a blank line, a comment, a field too many or too
	// few, an empty field, spaces, a bad value, a non-ASCII string, a
	// timestamp whose minute changes, with 'T', without seconds, of a
	// second past 59, on a day that does not exist.
	f.Add([]byte("2024-03-01 08:59:59.985,2024-03-01T09:00:00Z,2024-03-01 09:00:00.123456789\n2024-03-01 09:00:00,,2024-03-01 09:00\n2024-03-01T09:00,\"2024-03-01 09:00\",2024-03-01 09:00:01\r\n\n# c\n2024-03-01 09:01:00.1,2024-03-01 09:01:00\n2024-03-01 09:01:00.123456789,,\n 2024-03-01 09:02:00 ,, \n2024-03-01 09:02:60,,\n2024-02-30 09:02:00,,\n2024-03-01 09:03:00.5,,,\n2024-03-01 09:03:00.5,,\n"), byte(0), byte(0), uint8(3), "", uint8(2), uint8(22*2+13))
	f.Add([]byte("k1,true,1\nk\xc3\xa9,false,2\nNULL,NULL,NULL\n,,\nk\xff,true,3\nk2, true ,128\nk3,true,-1\n"), byte(0), byte(0), uint8(1), "NULL", uint8(1), uint8(22*2))
	f.Add([]byte("1,1.5,2.25\n-9,1e3,-0.5\n2,x,3\n3,4,99999999999999999\n4,5,1.\n5,6,.5\n6,7,+8\n"), byte(0), byte(0), uint8(1), "", uint8(3), uint8(22*2+5))
	// Nested columns (flags bit 7): a ROW and an ARRAY after the picked
	// columns, their elements separated by ';' (csv.array-element-delimiter).
	f.Add([]byte("x,1;a,1;2;3\ny,;,\"\"\nz,NULL;b,NULL\nw,1,\n\"v\",\"2;\"\"q\"\"\",\"4;5\"\n"), byte(0), byte(0), uint8(128|1), "NULL", uint8(2), uint8(0))
	f.Add([]byte("1|2;x|7\n3|bad;y|8;9\n"), byte('|'), byte(0), uint8(128|1|8), "", uint8(1), uint8(4))

	f.Fuzz(func(t *testing.T, data []byte, delim, quote byte, flags uint8, null string, batch, pick uint8) {
		const source = "fuzz.csv"
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		schema := fuzzSchema(pick)
		if flags&128 != 0 {
			schema = csvNestedFuzzSchema(schema)
		}
		opts := CSVOptions{
			FieldDelimiter:    delim,
			QuoteChar:         quote,
			IgnoreParseErrors: flags&1 != 0,
			AllowComments:     flags&2 != 0,
			IgnoreFirstLine:   flags&4 != 0,
			NullLiteral:       null,
		}
		workers, chunk := 1+int(flags>>3)%3, 16<<(flags>>5%4)
		small := 1 + int(batch)%8
		opts.MaxRecordBytes = 8 * int(batch>>3) // records over a small limit too
		lines := csvCountLineEnds(data) + 1

		decode := func(size int, simple bool) (string, int, int64, error) {
			var bad []string
			o := opts
			o.OnBadRow = func(e *ParseError, raw []byte) {
				requireClearError(t, e, source, lines, true)
				bad = append(bad, e.Error()+" "+string(raw))
			}
			d := NewCSVDecoder(bytes.NewReader(data), source, schema, o, mem, size)
			d.simple.on = d.simple.on && simple
			text, rows, err := fuzzDecode(t, d.Next, d.Skipped, &bad, lines)
			return text, rows, d.Skipped(), err
		}
		want, rows, skipped, err := decode(small, true)
		if err != nil {
			requireClearError(t, err, source, lines, true)
		}
		big, _, _, _ := decode(4096, true)
		require.Equal(t, want, big, "batch size %d and 4096", small)
		// The column-at-a-time path reads what the record parser reads.
		records, _, _, _ := decode(small, false)
		require.Equal(t, records, want, "without the simple-rows path")

		// Resumed at a batch boundary, the read goes on as if uninterrupted.
		k := (len(data) + int(pick)) % 6
		resumed := fuzzResume(t, k, sequentialAt(t, data, func(r io.Reader, onBad func(*ParseError, []byte)) resumableDecoder {
			o := opts
			o.OnBadRow = onBad
			return NewCSVDecoder(r, source, schema, o, mem, small)
		}))
		require.Equal(t, want, resumed, "resumed after %d batches of %d", k, small)

		valid := err == nil || errors.Is(err, ErrBadRow)
		if valid && opts.IgnoreParseErrors {
			require.NotErrorIs(t, err, ErrBadRow, "bad rows are skipped")
			q := opts.QuoteChar
			if q == 0 {
				q = '"'
			}
			if bytes.IndexByte(data, q) < 0 {
				require.Equal(t, csvRecordCount(data, opts), rows+int(skipped))
			} else if !opts.IgnoreFirstLine && csvRecordCount(data, opts) > 0 {
				// The first line that is not blank or a comment starts a record.
				require.Positive(t, rows+int(skipped))
			}
		}
		if !valid {
			return // bad options: the planner rejects them before a file is split
		}
		var parBad []string
		onBad := func(e *ParseError, raw []byte) { parBad = append(parBad, e.Error()+" "+string(raw)) }
		par := newParallelDecoder(bytes.NewReader(data), source, newCSVChunks(source, schema, opts, mem, small), workers, chunk, onBad)
		defer par.Close()
		got, _, _ := fuzzDecode(t, par.Next, par.Skipped, &parBad, lines)
		require.Equal(t, want, got, "parallel: %d workers, chunks of %d bytes", workers, chunk)

		resumed = fuzzResume(t, k, func(at *SplitPosition, bad *[]string) (Decoder, func()) {
			var p SplitPosition
			if at != nil {
				p = *at
			}
			require.LessOrEqual(t, p.Offset, int64(len(data)))
			onBad := func(e *ParseError, raw []byte) { *bad = append(*bad, e.Error()+" "+string(raw)) }
			d := newParallelDecoderAt(bytes.NewReader(data[p.Offset:]), source, newCSVChunks(source, schema, opts, mem, small), workers, chunk, onBad, p)
			return d, d.Close
		})
		require.Equal(t, want, resumed, "parallel resumed after %d batches of %d", k, small)
	})
}

// csvNestedFuzzSchema is schema with a ROW<i INT, s STRING> and an
// ARRAY<BIGINT> column after its columns: the csv format's nested columns.
func csvNestedFuzzSchema(schema *arrow.Schema) *arrow.Schema {
	row := arrow.StructOf(arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})
	return arrow.NewSchema(append(schema.Fields(),
		arrow.Field{Name: "r", Type: row, Nullable: true},
		arrow.Field{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}), nil)
}
