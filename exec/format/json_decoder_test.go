package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// decodeJSON decodes input with a checked allocator; rows as text, first error.
func decodeJSON(t *testing.T, input string, schema *arrow.Schema, opts JSONOptions, batchSize int) ([][]string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewJSONDecoder(strings.NewReader(input), "in.json", schema, opts, mem, batchSize)
	var rows [][]string
	for {
		rec, err := d.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		n := rec.NumRows()
		rows = append(rows, recordRows(rec)...)
		rec.Release()
		if batchSize > 0 {
			require.LessOrEqual(t, n, int64(batchSize))
		}
	}
}

func TestJSONDecoderTypes(t *testing.T) {
	schema := csvSchema("s", arrow.BinaryTypes.String, "b", arrow.FixedWidthTypes.Boolean,
		"i8", arrow.PrimitiveTypes.Int8, "i16", arrow.PrimitiveTypes.Int16,
		"i32", arrow.PrimitiveTypes.Int32, "i64", arrow.PrimitiveTypes.Int64,
		"f32", arrow.PrimitiveTypes.Float32, "f64", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "d", arrow.FixedWidthTypes.Date32,
		"t", arrow.FixedWidthTypes.Time32ms, "ts", tsType, "ltz", ltzType)
	input := `{"s":"héllo","b":true,"i8":-128,"i16":32767,"i32":-2147483648,"i64":9223372036854775807,"f32":1.5,"f64":30,"dec":123.456,"d":"2024-02-29","t":"23:59:59.999","ts":"2024-01-02 03:04:05.678","ltz":"2024-01-02 03:04:05Z"}
  { "ltz" : "2024-01-02T03:04:05.1Z" , "ts" : "2024-01-02T03:04:05" , "unknown": {"deep": [1, {"x": null}], "s": "not me"}, "s" : "a\"b\\c\/\n\u00e9\ud83d\ude00" }
{"s": null, "b": "FALSE", "i32": "  42 ", "i64": 1e3, "f64": "NaN", "dec": "-0.5", "f32": -1E-2}
{}
`
	rows, err := decodeJSON(t, input, schema, JSONOptions{}, 0)
	require.NoError(t, err)
	N := "NULL"
	require.Equal(t, [][]string{
		{"héllo", "true", "-128", "32767", "-2147483648", "9223372036854775807", "1.5", "30.0", "123.46", "2024-02-29", "23:59:59.999", "2024-01-02 03:04:05.678", "2024-01-02 03:04:05.000"},
		{"a\"b\\c/\né😀", N, N, N, N, N, N, N, N, N, N, "2024-01-02 03:04:05.000", "2024-01-02 03:04:05.100"},
		{N, "false", N, N, "42", "1000", "-0.01", "NaN", "-0.50", N, N, N, N},
		{N, N, N, N, N, N, N, N, N, N, N, N, N},
	}, rows)
}

// TestJSONDecoderStringColumns pins what a STRING column takes: any
// scalar's text as written, nested JSON compacted (Flink's asText and
// toString), the empty string (not NULL).
func TestJSONDecoderStringColumns(t *testing.T) {
	schema := csvSchema("s", arrow.BinaryTypes.String)
	input := `{"s": 12.50}
{"s": false}
{"s": ""}
{"s": { "a" : [1, 2, "x y", "q\"} "], "b": {} }}
{"s": []}
{"s": null}
`
	rows, err := decodeJSON(t, input, schema, JSONOptions{}, 0)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"12.50"}, {"false"}, {""}, {`{"a":[1,2,"x y","q\"} "],"b":{}}`}, {"[]"}, {"NULL"}}, rows)
}

func TestJSONDecoderTimestamps(t *testing.T) {
	schema := csvSchema("ts", tsType, "ltz", ltzType)
	input := `{"ts": "2024-01-02 03:04:05", "ltz": "2024-01-02 03:04:05.123+08:00"}
{"ts": "2024-01-02T03:04:05.1239", "ltz": "2024-01-02T03:04:05-0130"}
{"ts": "1969-12-31 23:59:59.999", "ltz": "2024-01-02 03:04:05-05"}
{"ts": "2024-01-02 03:04", "ltz": "2024-01-02 03:04:05"}
`
	for _, std := range []TimestampStandard{TimestampSQL, TimestampISO8601} {
		rows, err := decodeJSON(t, input, schema, JSONOptions{TimestampStandard: std}, 0)
		require.NoError(t, err)
		require.Equal(t, [][]string{
			{"2024-01-02 03:04:05.000", "2024-01-01 19:04:05.123"},
			{"2024-01-02 03:04:05.123", "2024-01-02 04:34:05.000"},
			{"1969-12-31 23:59:59.999", "2024-01-02 08:04:05.000"},
			{"2024-01-02 03:04:00.000", "2024-01-02 03:04:05.000"},
		}, rows, "both standards read both forms")
	}

	_, err := decodeJSON(t, `{"ts": "2024-01-02 03:04:05Z"}`, schema, JSONOptions{}, 0)
	require.ErrorContains(t, err, `in.json:1 (column ts): cannot parse "2024-01-02 03:04:05Z" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]. The value has a time zone`,
		"a zone-less TIMESTAMP takes no zone")
	_, err = decodeJSON(t, `{"ts": 1700000000000}`, schema, JSONOptions{TimestampStandard: TimestampISO8601}, 0)
	require.ErrorContains(t, err, `in.json:1 (column ts): cannot parse "1700000000000" as TIMESTAMP(3): expected yyyy-MM-ddTHH:mm:ss[.SSS]. The value looks like epoch milliseconds`)
	_, err = decodeJSON(t, `{"ltz": "2024-01-02 03:04:05+25:00"}`, schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1 (column ltz): cannot parse "2024-01-02 03:04:05+25:00" as TIMESTAMP_LTZ(3): invalid UTC offset +25:00`)
	_, err = decodeJSON(t, `{"ltz": "2024-01-02"}`, schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1 (column ltz): cannot parse "2024-01-02" as TIMESTAMP_LTZ(3): expected yyyy-MM-dd HH:mm:ss[.SSS][Z|+HH:mm]`)
	_, err = decodeJSON(t, `{"ts": "2024-02-30 00:00:00"}`, schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1 (column ts): cannot parse "2024-02-30 00:00:00" as TIMESTAMP(3): day 30 out of range for 2024-02`)
}

func TestJSONDecoderNumbers(t *testing.T) {
	schema := csvSchema("i", arrow.PrimitiveTypes.Int32, "l", arrow.PrimitiveTypes.Int64,
		"dec", &arrow.Decimal128Type{Precision: 5, Scale: 2}, "d", arrow.PrimitiveTypes.Float64)
	rows, err := decodeJSON(t, `{"i": 1.0, "l": -12.5e1, "dec": 1.005, "d": 1e400}
{"i": 0.0e-7, "l": 90000000000000000000e-2, "dec": 12e-1, "d": "-Infinity"}
{"i": -0, "l": "-9223372036854775808", "dec": -999.994, "d": -0.0}
`, schema, JSONOptions{}, 0)
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"1", "-125", "1.01", "Infinity"},
		{"0", "900000000000000000", "1.20", "-Infinity"},
		{"0", "-9223372036854775808", "-999.99", "-0.0"},
	}, rows)

	for _, c := range []struct{ line, msg string }{
		{`{"i": 1.5}`, `in.json:1 (column i): cannot parse "1.5" as INT: not an integer`},
		{`{"i": 1e-1}`, `in.json:1 (column i): cannot parse "1e-1" as INT: not an integer`},
		{`{"i": 2147483648}`, `in.json:1 (column i): cannot parse "2147483648" as INT: value out of range`},
		{`{"i": 3e9}`, `in.json:1 (column i): cannot parse "3e9" as INT: value out of range`},
		{`{"l": 1e99999999999999999999}`, `in.json:1 (column l): cannot parse "1e99999999999999999999" as BIGINT: value out of range`},
		{`{"l": 9223372036854775808}`, `in.json:1 (column l): cannot parse "9223372036854775808" as BIGINT: value out of range`},
		{`{"i": true}`, `in.json:1 (column i): cannot parse "true" as INT: invalid integer`},
		{`{"i": "4x"}`, `in.json:1 (column i): cannot parse "4x" as INT: invalid integer`},
		{`{"i": " "}`, `in.json:1 (column i): cannot parse " " as INT: empty string`},
		{`{"i": [1]}`, `in.json:1 (column i): cannot parse "[1]" as INT: nested objects and arrays can only be read into STRING, ROW, ARRAY, MAP or MULTISET columns`},
		{`{"dec": 1000}`, `in.json:1 (column dec): cannot parse "1000" as DECIMAL(5, 2): value out of range for precision 5`},
		{`{"d": "one"}`, `in.json:1 (column d): cannot parse "one" as DOUBLE: invalid number`},
	} {
		_, err := decodeJSON(t, c.line, schema, JSONOptions{}, 0)
		require.EqualError(t, err, c.msg, c.line)
		require.ErrorIs(t, err, ErrBadRow)
	}

	bools := csvSchema("b", arrow.FixedWidthTypes.Boolean)
	rows, err = decodeJSON(t, `{"b": "True"}`+"\n"+`{"b": false}`, bools, JSONOptions{}, 0)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"true"}, {"false"}}, rows)
	_, err = decodeJSON(t, `{"b": 1}`, bools, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1 (column b): cannot parse "1" as BOOLEAN: expected true or false`)
}

func TestJSONDecoderSyntaxErrors(t *testing.T) {
	schema := csvSchema("s", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64)
	for _, c := range []struct{ line, msg string }{
		{`[1, 2]`, "expected a JSON object"},
		{`"s"`, "expected a JSON object"},
		{`{"s": "a" "n": 1}`, `expected ',' or '}'`},
		{`{"s": "a",}`, "expected a string key"},
		{`{"s" "a"}`, "expected ':' after a key"},
		{`{s: 1}`, "expected a string key"},
		{`{"s": "abc`, "unterminated string"},
		{`{"s": "a\qb"}`, `invalid escape "\\q"`},
		{`{"s": "a\u12"}`, `invalid \u escape`},
		{"{\"s\": \"a\tb\"}", "control character in a string"},
		{`{"n": 01}`, `expected ',' or '}'`},
		{`{"n": -}`, "invalid number"},
		{`{"n": 1.}`, "invalid number"},
		{`{"n": 1e}`, "invalid number"},
		{`{"n": tru}`, "invalid literal"},
		{`{"n": NaN}`, `unexpected character 'N'`},
		{`{"n": 1} x`, "unexpected text after the object"},
		{`{"n": [1, 2}`, `expected ',' or ']'`},
		{`{"n": {"a" 1}}`, "expected ':' after a key"},
		{`{"n":`, "expected a value"},
		{`{"é": 1 2}`, `expected ',' or '}'`},
		{"{\"s\": \"\xff\"}", "invalid UTF-8"},
	} {
		_, err := decodeJSON(t, c.line+"\n", schema, JSONOptions{}, 0)
		require.ErrorIs(t, err, ErrBadRow, c.line)
		require.Contains(t, err.Error(), "in.json:1: invalid JSON at character ", c.line)
		require.True(t, strings.HasSuffix(err.Error(), ": "+c.msg), "%s: %v", c.line, err)
	}
	// the character (not byte) position of the problem
	_, err := decodeJSON(t, `{"é": 1 2}`, schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1: invalid JSON at character 9: expected ',' or '}'`)
	_, err = decodeJSON(t, "{\"s\": \"ab\xff\"}", schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:1: invalid JSON at character 10: invalid UTF-8`)

	deep := `{"s": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "}"
	_, err = decodeJSON(t, deep, schema, JSONOptions{}, 0)
	require.ErrorContains(t, err, "nested too deeply")
}

func TestJSONDecoderBadRows(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: tsType}, // NOT NULL, as the planner declares a rowtime
		{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	input := `{"ts": "2024-01-01 00:00:00", "usr": "a", "v": 1}
{"ts": "2024-01-01 00:00:01", "usr": "b", "v": 2}

{"ts": "2024-01-01 00:00:02", "usr": "c", "v": "abc"}
{"usr": "d", "v": 4}
{"ts": "2024-01-01 00:00:04", "usr": "e", "v": 5,}
{"ts": null, "usr": "f"}
{"ts": "2024-01-01 00:00:07", "usr": "g"}
`
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewJSONDecoder(strings.NewReader(input), "clicks.json", schema, JSONOptions{}, mem, 100)
	rec, err := d.Next()
	require.NoError(t, err, "rows before the bad one come first")
	require.EqualValues(t, 2, rec.NumRows())
	rec.Release()
	_, err = d.Next()
	require.EqualError(t, err, `clicks.json:4 (column v): cannot parse "abc" as DOUBLE: invalid number`)
	var perr *ParseError
	require.ErrorAs(t, err, &perr)
	require.Equal(t, ParseError{Source: "clicks.json", Line: 4, Field: "v", Value: "abc", Type: "DOUBLE", Msg: "invalid number"}, *perr)
	_, err2 := d.Next()
	require.Equal(t, err, err2, "the error is sticky")

	for _, bs := range []int{1, 3, 4096} {
		var raws, msgs []string
		d := NewJSONDecoder(strings.NewReader(input), "clicks.json", schema, JSONOptions{
			IgnoreParseErrors: true,
			OnBadRow: func(err *ParseError, raw []byte) {
				raws = append(raws, string(raw))
				msgs = append(msgs, err.Error())
			},
		}, mem, bs)
		var rows [][]string
		for {
			rec, err := d.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			rows = append(rows, recordRows(rec)...)
			rec.Release()
		}
		require.Equal(t, [][]string{
			{"2024-01-01 00:00:00.000", "a", "1.0"},
			{"2024-01-01 00:00:01.000", "b", "2.0"},
			{"2024-01-01 00:00:07.000", "g", "NULL"},
		}, rows, "batch size %d", bs)
		require.EqualValues(t, 4, d.Skipped())
		require.EqualValues(t, 8, d.Lines())
		require.Equal(t, []string{
			`clicks.json:4 (column v): cannot parse "abc" as DOUBLE: invalid number`,
			`clicks.json:5 (column ts): NULL in NOT NULL column`,
			`clicks.json:6: invalid JSON at character 50: expected a string key`,
			`clicks.json:7 (column ts): NULL in NOT NULL column`,
		}, msgs)
		require.Equal(t, `{"usr": "d", "v": 4}`, raws[1], "raw lines as read")
	}

	_, err = decodeJSON(t, `{"ts": "2024-01-01 00:00:00", "usr": "a"}`, schema, JSONOptions{FailOnMissingField: true}, 0)
	require.EqualError(t, err, `in.json:1 (column v): field is missing`)
	rows, err := decodeJSON(t, `{"ts": "2024-01-01 00:00:00", "usr": "a", "v": null}`, schema, JSONOptions{FailOnMissingField: true}, 0)
	require.NoError(t, err, "null is present, not missing")
	require.Equal(t, [][]string{{"2024-01-01 00:00:00.000", "a", "NULL"}}, rows)
}

func TestJSONDecoderLines(t *testing.T) {
	schema := csvSchema("n", arrow.PrimitiveTypes.Int32, "k", arrow.BinaryTypes.String)
	// a byte order mark, CRLF line ends, blank lines, duplicate keys (the
	// last wins), escaped keys, no final line end
	input := "\xef\xbb\xbf{\"n\": 1}\r\n\r\n  \t \n{\"n\": 2, \"n\": 3, \"\\u006b\": \"x\"}\r\n{\"n\": \"z\"}"
	rows, err := decodeJSON(t, input, schema, JSONOptions{IgnoreParseErrors: true}, 0)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"1", "NULL"}, {"3", "x"}}, rows)
	_, err = decodeJSON(t, input, schema, JSONOptions{}, 0)
	require.EqualError(t, err, `in.json:5 (column n): cannot parse "z" as INT: invalid integer`)
	require.Contains(t, NewJSONDecoder(strings.NewReader(""), "x", csvSchema("m", arrow.FixedWidthTypes.Float16), JSONOptions{}, nil, 0).err.Error(),
		"json format does not support type")
}

// TestJSONDecoderBatchingIsInvisible checks that batch size and read
// pattern never change the decoded data.
func TestJSONDecoderBatchingIsInvisible(t *testing.T) {
	schema := csvSchema("ts", tsType, "key", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Float64,
		"d", &arrow.Decimal128Type{Precision: 9, Scale: 3}, "ok", arrow.FixedWidthTypes.Boolean)
	var sb strings.Builder
	for i := range 200 {
		switch i % 7 {
		case 3:
			fmt.Fprintf(&sb, `{"ok": false, "d": %d.125, "key": "k,%d\"\nx", "ts": "1969-12-31 23:59:%02d.%03d", "extra": [{}]}`+"\r\n", i, i, i%60, i)
		case 5:
			fmt.Fprintf(&sb, `{"ts": "bad", "key": "k%d"}`+"\n", i)
		default:
			fmt.Fprintf(&sb, `{"ts": "2024-03-01 10:%02d:%02d.%d", "key": "k%d", "v": %g, "d": -%d.5, "ok": true}`+"\n", i%60, i%60, i%10, i, float64(i)/3, i)
		}
	}
	input := sb.String()
	opts := JSONOptions{IgnoreParseErrors: true}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := decodeJSON(t, input, schema, opts, 4096)
	require.NoError(t, err)
	require.Len(t, want, 200-28)
	require.Equal(t, []string{"1969-12-31 23:59:03.003", "k,3\"\nx", "NULL", "3.125", "false"}, want[3])

	readers := map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(input) },
		"onebyte":  func() io.Reader { return iotest.OneByteReader(strings.NewReader(input)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(input)) },
		"dataerr":  func() io.Reader { return iotest.DataErrReader(strings.NewReader(input)) },
		"tinybufs": func() io.Reader { return strings.NewReader(input) },
	}
	for name, mk := range readers {
		for _, bs := range []int{1, 3, 4096} {
			d := NewJSONDecoder(mk(), "in", schema, opts, mem, bs)
			if name == "tinybufs" {
				d.buf = make([]byte, 3) // forces refills and growth inside lines
			}
			var got [][]string
			for {
				rec, err := d.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				require.LessOrEqual(t, rec.NumRows(), int64(bs))
				got = append(got, recordRows(rec)...)
				rec.Release()
			}
			require.Equal(t, want, got, "%s, batch size %d", name, bs)
			require.EqualValues(t, 28, d.Skipped())
		}
	}
}

// TestJSONDecoderStreamsFromPipe checks that rows already read are handed
// out before the decoder blocks on a slow stream.
func TestJSONDecoderStreamsFromPipe(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pr, pw := io.Pipe()
	d := NewJSONDecoder(pr, "stdin", csvSchema("n", arrow.PrimitiveTypes.Int32), JSONOptions{}, mem, 4096)
	go func() { _, _ = pw.Write([]byte("{\"n\":1}\n{\"n\":2}\n{\"n\":")) }()
	rec, err := d.Next()
	require.NoError(t, err)
	require.Equal(t, [][]string{{"1"}, {"2"}}, recordRows(rec))
	rec.Release()
	go func() {
		_, _ = pw.Write([]byte("34}\r\n"))
		_ = pw.Close()
	}()
	rec, err = d.Next()
	require.NoError(t, err)
	require.Equal(t, [][]string{{"34"}}, recordRows(rec))
	rec.Release()
	_, err = d.Next()
	require.Equal(t, io.EOF, err)
}

func benchJSONInput(rows int) []byte {
	var sb strings.Builder
	for i := range rows {
		fmt.Fprintf(&sb, `{"ts": "2024-03-01 %02d:%02d:%02d.%03d", "key": "user%d", "v": %d.%d, "page": "/p/%d"}`+"\n",
			i/3600%24, i/60%60, i%60, i%1000, i%1000, i%977, i%10, i%50)
	}
	return []byte(sb.String())
}

// BenchmarkJSONDecoder decodes rows of (TIMESTAMP(3), STRING, DOUBLE) from
// objects with one more, unknown field.
func BenchmarkJSONDecoder(b *testing.B) {
	const rows = 100_000
	input := benchJSONInput(rows)
	schema := csvSchema("ts", tsType, "key", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Float64)
	mem := memory.NewGoAllocator()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	cpu0 := cputime.Process().Seconds()
	b.ResetTimer()
	for range b.N {
		d := NewJSONDecoder(bytes.NewReader(input), "bench", schema, JSONOptions{}, mem, 4096)
		n := 0
		for {
			rec, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += int(rec.NumRows())
			rec.Release()
		}
		if n != rows {
			b.Fatalf("decoded %d rows", n)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	// On a shared machine wall time counts other processes' turns too.
	b.ReportMetric(float64(rows)*float64(b.N)/(cputime.Process().Seconds()-cpu0), "rows/cpu-s")
}

// BenchmarkJSONStdlibBaseline is the yardstick for BenchmarkJSONDecoder:
// encoding/json into a struct, line by line, without building Arrow arrays.
func BenchmarkJSONStdlibBaseline(b *testing.B) {
	const rows = 100_000
	input := benchJSONInput(rows)
	var row struct {
		TS  string  `json:"ts"`
		Key string  `json:"key"`
		V   float64 `json:"v"`
	}
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rest := input
		for len(rest) > 0 {
			k := bytes.IndexByte(rest, '\n')
			if err := json.Unmarshal(rest[:k], &row); err != nil {
				b.Fatal(err)
			}
			rest = rest[k+1:]
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
