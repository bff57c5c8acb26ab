package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// clickSchema is a clickstream line with a nested user, an array of items,
// tags, a map of attributes and a multiset.
func clickSchema() *arrow.Schema {
	user := arrow.StructOf(
		arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "geo", Type: arrow.StructOf(arrow.Field{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true})
	item := arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "price", Type: &arrow.Decimal128Type{Precision: 6, Scale: 2}, Nullable: true})
	attrs := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	ms := arrow.MapOfWithMetadata(arrow.BinaryTypes.String, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{MultisetMetadataKey}, []string{"count"}))
	ms.SetItemNullable(false)
	return csvSchema("ts", tsType, "user", user, "items", arrow.ListOf(item),
		"tags", arrow.ListOf(arrow.BinaryTypes.String), "attrs", attrs, "seen", ms)
}

// Nested objects and arrays decode straight into ROW, ARRAY, MAP and
// MULTISET columns at any depth: fields by name in any order, unknown ones
// ignored, a missing field or JSON null NULL, at every level.
func TestJSONDecoderNestedTypes(t *testing.T) {
	input := `{"ts":"2024-01-01 00:00:01","user":{"id":1,"name":"ann","geo":{"country":"NL"}},"items":[{"sku":"a","price":1.5},{"price":"2","sku":null}],"tags":["x","y"],"attrs":{"k":1,"j":2},"seen":{"a":2}}
{"ts":"2024-01-01 00:00:02","user":{"geo":null,"id":2,"extra":{"deep":[1,2]}},"items":[],"tags":null,"attrs":{}}
{"ts":"2024-01-01 00:00:03","user":null,"items":[null,{}],"tags":["q",null,"\u00e9"],"attrs":{"n":null}}
{"ts":"2024-01-01 00:00:04"}
{"user":{"id":5,"geo":{"country":"A"},"id":6,"geo":{"country":"B","country":"C"}}, "items" : [ { "sku" : "s" , "sku" : null } ] }
`
	for _, bs := range []int{1, 2, 4096} {
		rows, err := decodeJSON(t, input, clickSchema(), JSONOptions{}, bs)
		require.NoError(t, err)
		N := "NULL"
		require.Equal(t, [][]string{
			{"2024-01-01 00:00:01.000", "(1, ann, (NL))", "[(a, 1.50), (null, 2.00)]", "[x, y]", "{k=1, j=2}", "{a=2}"},
			{"2024-01-01 00:00:02.000", "(2, null, null)", "[]", N, "{}", N},
			{"2024-01-01 00:00:03.000", N, "[null, (null, null)]", "[q, null, é]", "{n=null}", N},
			{"2024-01-01 00:00:04.000", N, N, N, N, N},
			{N, "(6, null, (C))", "[(null, null)]", N, N, N}, // the last of duplicate keys wins, at every depth
		}, rows, "batch size %d", bs)
	}
}

// A bad value inside a nested column is a bad row, named by its path, with
// its line and value; the rows around it are whole (nothing of the bad
// row is left in the nested builders).
func TestJSONDecoderNestedBadRows(t *testing.T) {
	for _, c := range []struct{ line, err string }{
		{`{"user":{"id":"x"}}`, `in.json:2 (column user.id): cannot parse "x" as BIGINT: invalid integer`},
		{`{"user":{"id":null}}`, `in.json:2 (column user.id): NULL in NOT NULL field`},
		{`{"user":{"name":"b"}}`, `in.json:2 (column user.id): NULL in NOT NULL field`},
		{`{"user":[1]}`, "in.json:2 (column user): cannot parse \"[1]\" as ROW<`id` BIGINT NOT NULL, `name` STRING, `geo` ROW<`country` STRING>>: expected a JSON object"},
		{`{"items":{"sku":"a"}}`, "in.json:2 (column items): cannot parse \"{\\\"sku\\\":\\\"a\\\"}\" as ARRAY<ROW<`sku` STRING, `price` DECIMAL(6, 2)>>: expected a JSON array"},
		{`{"items":[{"price":"abc"}]}`, `in.json:2 (column items[].price): cannot parse "abc" as DECIMAL(6, 2): invalid decimal`},
		{`{"attrs":{"k":[1]}}`, `in.json:2 (column attrs{}): cannot parse "[1]" as INT: nested objects and arrays can only be read into STRING, ROW, ARRAY, MAP or MULTISET columns`},
		{`{"seen":{"a":null}}`, `in.json:2 (column seen{}): NULL in NOT NULL field`},
		{`{"tags":"x"}`, `in.json:2 (column tags): cannot parse "x" as ARRAY<STRING>: expected a JSON array`},
	} {
		input := `{"user":{"id":1,"geo":{"country":"NL"}},"items":[{"sku":"a"}],"tags":["t"]}` + "\n" + c.line + "\n" + `{"user":{"id":3},"tags":["u","v"],"attrs":{"z":9}}` + "\n"
		for _, bs := range []int{1, 4096} {
			rows, err := decodeJSON(t, input, clickSchema(), JSONOptions{}, bs)
			require.EqualError(t, err, c.err, c.line)
			require.Equal(t, [][]string{{"NULL", "(1, null, (NL))", "[(a, null)]", "[t]", "NULL", "NULL"}}, rows)

			var bad []string
			rows, err = decodeJSON(t, input, clickSchema(), JSONOptions{IgnoreParseErrors: true, OnBadRow: func(_ *ParseError, raw []byte) {
				bad = append(bad, string(raw))
			}}, bs)
			require.NoError(t, err)
			require.Equal(t, []string{c.line}, bad)
			require.Equal(t, [][]string{
				{"NULL", "(1, null, (NL))", "[(a, null)]", "[t]", "NULL", "NULL"},
				{"NULL", "(3, null, null)", "NULL", "[u, v]", "{z=9}", "NULL"},
			}, rows, "the bad row is rolled back whole")
		}
	}
}

// A refused row of a nested table is written back as the JSON it came as.
func TestJSONAppendRowNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	line := `{"ts":"2024-01-01 00:00:01.000","user":{"id":1,"name":"a\"b","geo":null},"items":[null,{"sku":"s","price":1.50}],"tags":[],"attrs":{"k":1},"seen":{"x":3}}`
	d := NewJSONDecoder(strings.NewReader(line+"\n"), "in.json", clickSchema(), JSONOptions{}, mem, 0)
	rec, err := d.Next()
	require.NoError(t, err)
	defer rec.Release()
	require.Equal(t, line, string(AppendRow(nil, rec, 0, 6, true, TimestampSQL)))
}

func benchNestedJSONInput(rows int) []byte {
	var sb strings.Builder
	for i := range rows {
		fmt.Fprintf(&sb, `{"ts":"2024-03-01 %02d:%02d:%02d.%03d","user":{"id":%d,"name":"user%d","country":"NL"},"page":"/p/%d","items":[{"sku":"s%d","qty":%d},{"sku":"t","qty":1}]}`+"\n",
			i/3600%24, i/60%60, i%60, i%1000, i%977, i%977, i%50, i%31, i%5)
	}
	return []byte(sb.String())
}

// BenchmarkJSONDecoderNested decodes a clickstream line with a user object
// and an array of two items into (TIMESTAMP(3), ROW<id BIGINT, name
// STRING, country STRING>, STRING, ARRAY<ROW<sku STRING, qty INT>>).
func BenchmarkJSONDecoderNested(b *testing.B) {
	const rows = 100_000
	input := benchNestedJSONInput(rows)
	user := arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true})
	item := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	schema := csvSchema("ts", tsType, "user", user, "page", arrow.BinaryTypes.String, "items", arrow.ListOf(item))
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

// A clean line is read in one pass; a line with any error is read again
// by the two passes (scanRow, then appendRow), which name the error. Both
// read every line of these inputs to the same rows and errors.
func TestJSONDecoderOnePassMatchesTwoPasses(t *testing.T) {
	inputs := []string{
		`{"ts":"2024-01-01 00:00:01","user":{"id":1,"name":"ann","geo":{"country":"NL"}},"items":[{"sku":"a","price":1.5},{"price":"2","sku":null}],"tags":["x","y"],"attrs":{"k":1,"j":2},"seen":{"a":2}}`,
		`{"user":{"geo":null,"id":2,"extra":{"deep":[1,2]}},"items":[],"tags":null,"attrs":{}}`,
		`{"user":{"id":5,"geo":{"country":"A"},"id":6,"geo":{"country":"B","country":"C"}}, "items" : [ { "sku" : "s" , "sku" : null } ] }`,
		`{"user":{"id":1},"user":{"id":"x"}}`, `{"user":{"id":"x"},"user":{"id":1}}`, `{"\u0075ser":{"\u0069d":7}}`,
		`{"user":{"id":1,}}`, `{"items":[1,]}`, `{"tags":["a" "b"]}`, `{"attrs":{"k":1` + "\n", `{"user":{"id":1}} x`,
		`{"user":{"id":1},"ts":"nope"}`, `{"ts":"nope","user":{"id":"x"}}`, "{\"tags\":[\"\xff\"]}", `{"user":{"id":null}}`,
	}
	for _, fail := range []bool{false, true} {
		for _, in := range inputs {
			input := in + "\n" + `{"user":{"id":3},"tags":["u"]}` + "\n"
			var got [2][][]string
			var errs [2]string
			for k, twoPass := range []bool{false, true} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var bad []string
				d := NewJSONDecoder(strings.NewReader(input), "in.json", clickSchema(), JSONOptions{
					IgnoreParseErrors: true, FailOnMissingField: fail,
					OnBadRow: func(e *ParseError, _ []byte) { bad = append(bad, e.Error()) },
				}, mem, 4096)
				d.twoPass = twoPass
				for {
					rec, err := d.Next()
					if err != nil {
						require.Equal(t, io.EOF, err)
						break
					}
					got[k] = append(got[k], recordRows(rec)...)
					rec.Release()
				}
				errs[k] = strings.Join(bad, "; ")
				mem.AssertSize(t, 0)
			}
			require.Equal(t, got[1], got[0], in)
			require.Equal(t, errs[1], errs[0], in)
		}
	}
}

// The nested decoder allocates per batch, not per row: 32768 rows in
// batches of 4096 take far fewer allocations than rows.
func TestJSONDecoderNestedAllocatesPerBatch(t *testing.T) {
	user := arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "country", Type: arrow.BinaryTypes.String, Nullable: true})
	item := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	schema := csvSchema("ts", tsType, "user", user, "page", arrow.BinaryTypes.String, "items", arrow.ListOf(item))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = 32768
	input := benchNestedJSONInput(rows)
	allocs := testing.AllocsPerRun(3, func() {
		d := NewJSONDecoder(bytes.NewReader(input), "bench", schema, JSONOptions{}, mem, 4096)
		n := 0
		for {
			rec, err := d.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			n += int(rec.NumRows())
			rec.Release()
		}
		require.Equal(t, rows, n)
	})
	require.Less(t, allocs/rows, 0.1, "%v allocations for %d rows", allocs, rows)
}
