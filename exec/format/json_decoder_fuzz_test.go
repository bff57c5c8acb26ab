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

// jsonRecordCount counts the lines that are not blank: each is a row read
// or a row skipped.
func jsonRecordCount(data []byte, limit int) int {
	n := 0
	lines := bytes.Split(data, []byte{'\n'})
	for i, l := range lines {
		length := len(l) // a line longer than the limit is a bad row, even a blank one
		if i < len(lines)-1 {
			length++
		}
		if i == 0 {
			l = bytes.TrimPrefix(l, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.Trim(l, " \t\r")) > 0 || length > recordLimit(limit) {
			n++
		}
	}
	return n
}

func FuzzJSONDecoder(f *testing.F) {
	const allTypes = fuzzAllTypes
	f.Add([]byte(`{"s":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","b":true,"i8":-128,"i16":"32767","i32":1e3,"i64":9223372036854775807,"f32":1.5,"f64":"NaN","d":12345678.99,"d38":1e-4,"dt":"2024-02-29","t":"23:59:59.999","t6":"00:00:00.123456","ts":"2024-03-01 09:00:00.123","tsz":"2024-03-01T09:00:00+08:00","tsn":"2262-04-10 23:47:16.854775807","by":"AAEC","t0":"12:00:01","ts0":"2024-03-01 09:00:00","tsu":"2024-03-01T09:00:00.123456Z","iv":90061001,"ym":"-14"}`+"\n"), uint8(0), uint8(1), uint8(allTypes))
	f.Add([]byte("\xef\xbb\xbf{\"s\":{\"a\":[1, {\"b\":null}],\"c\":\"\\u0000\"}}\n\n  \r\n{\"s\":1,\"s\":\"dup\"}\n{\"s\":[]}"), uint8(1), uint8(2), uint8(0))
	f.Add([]byte(`{"i8":128}`+"\n"+`{"i64":99999999999999999999}`+"\n"+`{"f64":1e400}`+"\n"+`{"i32":1.5}`+"\n"+`{"d":1e39}`+"\n"), uint8(1), uint8(1), uint8(22*3+2))
	f.Add([]byte("{\"s\":\"\xff\"}\n{\"s\":\"\\ud800\"}\n{\"\xc3\x28\":1}\n{\"s\":\"ok\"}"), uint8(1), uint8(3), uint8(0))
	f.Add([]byte("{\"ts\":\"2024-03-01 09:00:00\"}\n{}\n[1]\n{\"a\":}\n{\"a\":1,}\n{\"a\" 1}\n{\"a\":1} x\n"), uint8(3), uint8(1), uint8(13))
	f.Add([]byte(strings.Repeat("[", 1200)+strings.Repeat("]", 1200)+"\n{\"s\":"+strings.Repeat("[", 999)+strings.Repeat("]", 999)+"}\n"), uint8(1), uint8(1), uint8(0))
	// Lines longer than the decoder's first buffer (see fuzzing).
	long := strings.Repeat("y", 3000)
	if !fuzzing() {
		long = strings.Repeat("y", csvDefaultBufSize+100)
	}
	f.Add([]byte(`{"s":"`+long+`"}`+"\n{\"s\":\"\\u"+long+"\n{\"s\":\"a\"}\n"), uint8(1), uint8(5), uint8(0))
	// Lines over a limit of 16 bytes, the last without its line end.
	f.Add([]byte("{\"s\":\"ok\"}\n{\"s\":\"much too long\"}\n"+strings.Repeat(" ", 40)+"\n{}\n{\"s\":\"long, no end\"}"), uint8(1), uint8(2<<3|1), uint8(0))
	f.Add([]byte("{\"s\":\"much too long\"}\n{}\n"), uint8(0), uint8(2<<3|1), uint8(0))
	// Nested columns: objects, arrays, maps and multisets at depth, NULLs
	// inside, type mismatches, NOT NULL fields left out.
	f.Add([]byte(`{"r":{"id":1,"tags":["a",null],"in":{"x":1.5}},"a":[{"k":"v","n":[1,2]},null,{}],"m":{"a":1,"b":null},"ms":{"x":2}}`+"\n"+
		`{"r":{"tags":"no"},"a":{},"m":[],"ms":{"x":null}}`+"\n"+`{"r":null,"a":[],"m":{},"ms":{}}`+"\n"+`{"r":{"id":"x","in":[]}}`+"\n"), uint8(1), uint8(2), uint8(0))
	f.Add([]byte(`{"a":[{"n":[1,"2",3.0,1e2]},{"n":[true]}],"r":{"id":9,"id":10,"in":{"x":null}}}`+"\n"+`{"m":{"\u0041":1,"k":"7"}}`+"\n"), uint8(0), uint8(1), uint8(3))

	f.Fuzz(func(t *testing.T, data []byte, flags, batch, pick uint8) {
		const source = "fuzz.json"
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		schema := jsonFuzzSchema(pick)
		opts := JSONOptions{
			IgnoreParseErrors:  flags&1 != 0,
			FailOnMissingField: flags&2 != 0,
			TimestampStandard:  TimestampStandard(flags >> 2 % 2),
		}
		workers, chunk := 1+int(flags>>3)%3, 16<<(flags>>5%4)
		small := 1 + int(batch)%8
		opts.MaxRecordBytes = 8 * int(batch>>3) // lines over a small limit too
		lines := bytes.Count(data, []byte{'\n'}) + 1

		decode := func(size int, twoPass bool) (string, int, int64, error) {
			var bad []string
			o := opts
			o.OnBadRow = func(e *ParseError, raw []byte) {
				requireClearError(t, e, source, lines, false)
				bad = append(bad, e.Error()+" "+string(raw))
			}
			d := NewJSONDecoder(bytes.NewReader(data), source, schema, o, mem, size)
			d.twoPass = twoPass
			text, rows, err := fuzzDecode(t, d.Next, d.Skipped, &bad, lines)
			return text, rows, d.Skipped(), err
		}
		want, rows, skipped, err := decode(small, false)
		if err != nil {
			requireClearError(t, err, source, lines, false)
		}
		big, _, _, _ := decode(4096, false)
		require.Equal(t, want, big, "batch size %d and 4096", small)
		// The one pass over a line reads what the two passes (scanRow,
		// then appendRow) read, which also name the errors.
		twoPass, _, _, _ := decode(small, true)
		require.Equal(t, want, twoPass, "one pass and two passes")

		// Resumed at a batch boundary, the read goes on as if uninterrupted.
		k := (len(data) + int(pick)) % 6
		resumed := fuzzResume(t, k, sequentialAt(t, data, func(r io.Reader, onBad func(*ParseError, []byte)) resumableDecoder {
			o := opts
			o.OnBadRow = onBad
			return NewJSONDecoder(r, source, schema, o, mem, small)
		}))
		require.Equal(t, want, resumed, "resumed after %d batches of %d", k, small)
		if opts.IgnoreParseErrors {
			require.NoError(t, err, "bad rows are skipped")
			require.Equal(t, jsonRecordCount(data, opts.MaxRecordBytes), rows+int(skipped))
		}

		var parBad []string
		onBad := func(e *ParseError, raw []byte) { parBad = append(parBad, e.Error()+" "+string(raw)) }
		format := &jsonChunks{source: source, schema: schema, opts: opts, mem: mem, batchSize: small}
		par := newParallelDecoder(bytes.NewReader(data), source, format, workers, chunk, onBad)
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
			d := newParallelDecoderAt(bytes.NewReader(data[p.Offset:]), source, format, workers, chunk, onBad, p)
			return d, d.Close
		})
		require.Equal(t, want, resumed, "parallel resumed after %d batches of %d", k, small)
	})
}

// jsonFuzzSchema is fuzzSchema's scalar columns and nested ones: a ROW
// (with a NOT NULL field, an ARRAY and a ROW inside), an ARRAY of ROWs, a
// MAP and a MULTISET.
func jsonFuzzSchema(pick uint8) *arrow.Schema {
	inner := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	row := arrow.StructOf(
		arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		arrow.Field{Name: "in", Type: inner, Nullable: true})
	elem := arrow.StructOf(
		arrow.Field{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "n", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})
	ms := arrow.MapOfWithMetadata(arrow.BinaryTypes.String, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{MultisetMetadataKey}, []string{"count"}))
	ms.SetItemNullable(false)
	fields := append(fuzzSchema(pick).Fields(),
		arrow.Field{Name: "r", Type: row, Nullable: true},
		arrow.Field{Name: "a", Type: arrow.ListOf(elem), Nullable: true},
		arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int16), Nullable: true},
		arrow.Field{Name: "ms", Type: ms, Nullable: true})
	return arrow.NewSchema(fields, nil)
}
