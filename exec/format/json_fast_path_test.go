package format

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// fastPathSchema is clickSchema with a top-level leaf of each kind the
// fast path specialises.
func fastPathSchema() *arrow.Schema {
	leaves := csvSchema("n", arrow.PrimitiveTypes.Int32, "d", arrow.PrimitiveTypes.Float64,
		"b", arrow.FixedWidthTypes.Boolean, "s", arrow.BinaryTypes.String,
		"ts6", &arrow.TimestampType{Unit: arrow.Microsecond}, "ltz", ltzType,
		"iv", arrow.FixedWidthTypes.Duration_ms, "ym", arrow.FixedWidthTypes.MonthInterval,
		"timestamp_one", arrow.PrimitiveTypes.Int64, "timestamp_two", arrow.PrimitiveTypes.Int64)
	return arrow.NewSchema(append(clickSchema().Fields(), leaves.Fields()...), nil)
}

// decodeJSONLines reads input whole, one pass or two, in batches of
// batchSize; it returns the rows, the bad rows' errors and the lines the
// fast path left to the two passes.
func decodeJSONLines(t *testing.T, input string, schema *arrow.Schema, twoPass bool, batchSize int) ([][]string, []string, int) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var bad []string
	d := NewJSONDecoder(strings.NewReader(input), "in.json", schema, JSONOptions{
		IgnoreParseErrors: true,
		OnBadRow:          func(e *ParseError, _ []byte) { bad = append(bad, e.Error()) },
	}, mem, batchSize)
	d.twoPass = twoPass
	var rows [][]string
	for {
		rec, err := d.Next()
		if err == io.EOF {
			return rows, bad, d.fastMisses
		}
		require.NoError(t, err)
		rows = append(rows, recordRows(rec)...)
		rec.Release()
	}
}

// Clean lines are all read by the fast path, to the rows the two passes
// read: keys in an order that changes from line to line, escaped keys,
// unknown fields of every kind, blanks around every token, strings whose
// escapes, non-ASCII characters and closing quote fall anywhere in a
// word, numbers just before the end of an object, values the fast path
// leaves to the general conversions, NULLs and missing fields at every
// level, in any batch size.
func TestJSONDecoderFastPath(t *testing.T) {
	lines := []string{
		`{"ts":"2024-01-01 00:00:01","user":{"id":1,"name":"ann","geo":{"country":"NL"}},"items":[{"sku":"a","price":1.5},{"price":"2","sku":null}],"tags":["x","y"],"attrs":{"k":1,"j":2},"seen":{"a":2},"n":-12,"d":0.25,"b":true,"s":"plain","ts6":"2024-02-29T23:59:59.123456","ltz":"2024-01-02 03:04:05+01:00"}`,
		`{"s":"é and 😀","b":false,"d":-0.0,"n":0,"user":{"name":"bob","id":2},"ts":"2024-01-01T00:00:02.5"}`,
		`{"\u0073":"tab\tquote\"slash\\\/","user":{"\u0069d":3,"na\u006de":"x\u00e9"},"n":7,"attrs":{"\u006b":4}}`,
		` { "n" : 5 , "user" : { "id" : 4 } , "tags" : [ "a" , null ] , "attrs" : { "k" : null } , "items" : [ { "sku" : "q" } ] } `,
		"{\"n\":1,\t\"user\":{\"id\":5}}\r",
		`{"x":{"a":[1,-2.5e3,0.5E+2,true,false,null,"s\"",{},[]]},"user":{"id":5,"y":[[{"z":"é"}]]},"z":"\u00e9","w":-0,"n":1}`,
		`{"user":{"id":9223372036854775807},"n":-2147483648,"d":123456789012345}`,
		`{"user":{"id":-9223372036854775808},"n":2147483647,"d":1e3,"ts6":"2024-01-01 00:00:00"}`,
		`{"n":1.0,"d":1.00000000000000000001,"user":{"id":1e2},"items":[{"price":1e-1}]}`,
		`{"n":"42","b":"TRUE","d":"NaN","s":12.50,"user":{"id":"8"}}`,
		`{"s":{"a": [1, "x y"] },"ts":"2024-01-01 00:00","ts6":"2024-01-01 00:00:00.1234567"}`,
		`{"s":true,"user":{"id":1,"geo":null},"items":[null,{}],"tags":null,"seen":{"x":1,"y":2}}`,
		`{"user":null,"items":[],"tags":[],"attrs":{},"seen":{}}`,
		`{}`,
		`{"user":{"geo":{"country":null},"id":0}}`,
		`{"iv":90000,"ym":-14,"user":{"id":1}}`, `{"iv":"90000","ym":1.2e1}`,
		`{"timestamp_one":1,"timestamp_two":2}`, `{"timestamp_two":3,"timestamp_one":4}`, `{"timestamp_one":5,"timestamp_one_more":6,"timestamp_two":7}`,
		`{"ts":"1969-12-31 23:59:59.999","ts6":"2024-01-01 00:00:00.123"}`, `{"ts":"2024-01-01 00:00:01.12","ts6":"2024-01-01 00:00:01.1234"}`,
	}
	for k := range 16 { // a string's special bytes at every place in a word
		pad := strings.Repeat("x", k)
		lines = append(lines,
			fmt.Sprintf(`{"s":"%s\"é%s","user":{"id":%d,"name":"%sé"}}`, pad, pad, k, pad),
			fmt.Sprintf(`{"s":"%s","tags":["%s\u00e9\n","%s😀"]}`, pad, pad, pad))
	}
	input := strings.Join(lines, "\n") + "\n"
	want, bad, _ := decodeJSONLines(t, input, fastPathSchema(), true, 4096)
	require.Empty(t, bad)
	require.Len(t, want, len(lines))
	for _, size := range []int{4096, 3, 1} {
		got, bad, misses := decodeJSONLines(t, input, fastPathSchema(), false, size)
		require.Empty(t, bad)
		require.Zero(t, misses, "clean lines left to the two passes")
		require.Equal(t, want, got, "batches of %d", size)
	}
	require.Equal(t, []string{"NULL", "7", "NULL", "tab\tquote\"slash\\/"}, []string{want[2][0], want[2][6], want[2][7], want[2][9]})
}

// Lines that are not clean are left to the two passes, which name their
// errors: a duplicate key, NULL in a NOT NULL field, invalid UTF-8 or a
// control byte in a string (also in a key or an unknown field), a bad
// escape, text after the object, a bad number (also one out of its
// type's range).
func TestJSONDecoderFastPathLeavesBadLines(t *testing.T) {
	lines := []string{
		`{"n":1,"n":2}`, `{"user":{"id":null}}`, `{"user":{"name":"a"}}`, "{\"s\":\"ab\xffcd\"}",
		"{\"x\":\"abcdefgh\x01\"}", "{\"k\xc3\":1}", `{"s":"\q"}`, `{"n":1}}`, `{"n":01}`, `{"d":1.}`,
		`{"n":-}`, `{"b":tru}`, `{"user":{"id":1,"id":2}}`, `{"ts":"2024-13-01 00:00:00"}`, `[1]`,
		`{"n":00}`, `{"n":2147483648}`, `{"user":{"id":9223372036854775808}}`,
	}
	input := strings.Join(lines, "\n") + "\n" + `{"n":3}` + "\n"
	want, wantBad, _ := decodeJSONLines(t, input, fastPathSchema(), true, 4096)
	got, bad, misses := decodeJSONLines(t, input, fastPathSchema(), false, 4096)
	require.Equal(t, want, got)
	require.Equal(t, wantBad, bad)
	require.Equal(t, len(lines), misses)
	require.Len(t, got, 3, "duplicate keys are read by the two passes, the last wins")
	require.Equal(t, "2", got[0][6])
}
