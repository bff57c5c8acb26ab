package debezium

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/internal/arrowtest"
)

// changeSchema is what a source decodes: the row kind, then the table's.
var changeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "op", Type: arrow.BinaryTypes.String},
	{Name: "id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "weight", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

const envelopes = `{"before":null,"after":{"id":1,"name":"scooter","weight":5.18},"op":"c","ts_ms":1}
{"before":null,"after":{"id":2,"name":"car","weight":900.5},"op":"r","source":{"db":"x"}}
{"before":{"id":1,"name":"scooter","weight":5.18},"after":{"id":1,"name":"scooter","weight":5.15},"op":"u"}
{"before":{"id":2,"name":"car","weight":900.5},"after":null,"op":"d"}
{"op":"c","after":{"id":3,"name":null}}
`

// wantChanges are the changes of envelopes, as Flink's
// DebeziumJsonDeserializationSchema emits them.
const wantChanges = `+I,1,scooter,5.18
+I,2,car,900.5
-U,1,scooter,5.18
+U,1,scooter,5.15
-D,2,car,900.5
+I,3,,
`

// readAll decodes every batch of d as text lines; the error that ends it.
func readAll(t *testing.T, d format.Decoder) (string, error) {
	var b []byte
	for {
		rec, err := d.Next()
		if errors.Is(err, io.EOF) {
			return string(b), nil
		}
		if err != nil {
			return string(b), err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			b = format.AppendRow(b, rec, i, int(rec.NumCols()), false, 0)
			b = append(b, '\n')
		}
		rec.Release()
	}
}

func TestEnvelopesBecomeChanges(t *testing.T) {
	for _, size := range []int{1, 2, 3, 4096} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		got, err := readAll(t, Decoding{}.NewDecoder(strings.NewReader(envelopes), "in.json", changeSchema, mem, size))
		require.NoError(t, err)
		require.Equal(t, wantChanges, got, "batch size %d", size)
		par := Decoding{}.NewParallelDecoder(strings.NewReader(envelopes), "in.json", changeSchema, mem, size, 1, format.SplitPosition{})
		got, err = readAll(t, par)
		par.(interface{ Close() }).Close()
		require.NoError(t, err)
		require.Equal(t, wantChanges, got, "parallel, batch size %d", size)
		mem.AssertSize(t, 0)
	}
}

func TestSchemaIncludeReadsThePayload(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := `{"schema":{"type":"struct"},"payload":{"before":null,"after":{"id":7,"name":"van","weight":1},"op":"c"}}
{"schema":{"type":"struct"},"payload":{"before":{"id":7,"name":"van","weight":1},"after":null,"op":"d"}}
`
	got, err := readAll(t, Decoding{SchemaInclude: true}.NewDecoder(strings.NewReader(in), "in.json", changeSchema, mem, 10))
	require.NoError(t, err)
	require.Equal(t, "+I,7,van,1.0\n-D,7,van,1.0\n", got)
}

func TestBadEnvelopes(t *testing.T) {
	for _, c := range []struct{ line, err string }{
		{`{"before":null,"after":{"id":1},"op":"x"}`, `in.json:2: unknown "op" value "x": Debezium's op is "c", "r", "u" or "d"`},
		{`{"before":null,"after":{"id":1}}`, `in.json:2: unknown "op" value "null"`},
		{`{"before":null,"after":{"id":1},"op":"u"}`, `in.json:2: the "before" field of an update message is null; if you are using Debezium's Postgres connector`},
		{`{"before":null,"after":null,"op":"d"}`, `in.json:2: the "before" field of a delete message is null`},
		{`{"before":null,"after":null,"op":"c"}`, `in.json:2: the "after" field of a create message is null`},
		{`{"before":null,"after":{"name":"x"},"op":"c"}`, `in.json:2: field id of "after" is null, but column id is NOT NULL`},
		{`{"before":null,"after":{"id":"one"},"op":"c"}`, `in.json:2 (column after.id): cannot parse "one" as INT`},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		in := `{"before":null,"after":{"id":5},"op":"c"}` + "\n" + c.line + "\n" + `{"before":null,"after":{"id":6},"op":"c"}` + "\n"
		got, err := readAll(t, Decoding{}.NewDecoder(strings.NewReader(in), "in.json", changeSchema, mem, 10))
		require.Error(t, err, c.line)
		require.Contains(t, err.Error(), c.err)
		require.ErrorIs(t, err, format.ErrBadRow)
		require.Equal(t, "+I,5,,\n", got, "the changes before the bad line first")

		var skipped []string
		d := Decoding{JSON: format.JSONOptions{IgnoreParseErrors: true}}.ForRead(func(e *format.ParseError, raw []byte) {
			skipped = append(skipped, string(raw))
		}, 0)
		dec := d.NewDecoder(strings.NewReader(in), "in.json", changeSchema, mem, 1)
		got, err = readAll(t, dec)
		require.NoError(t, err)
		require.Equal(t, "+I,5,,\n+I,6,,\n", got, c.line)
		require.Len(t, skipped, 1)
		require.EqualValues(t, 1, dec.Skipped())
		mem.AssertSize(t, 0)
	}
}

// The writer writes Flink's debezium-json: creates for +I and +U, deletes
// for -U and -D; what it writes reads back as +I and -D.
func TestWriterWritesFlinksEnvelope(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := arrowtest.Record(t, mem, changeSchema,
		[]any{"+I", int32(1), "scooter", 5.18},
		[]any{"-U", int32(1), "scooter", 5.18},
		[]any{"+U", int32(1), nil, 5.15},
		[]any{"-D", int32(1), nil, 5.15},
	)
	defer rec.Release()
	var out bytes.Buffer
	w, err := Writing{}.NewWriter(&out, changeSchema, nil)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(rec))
	require.NoError(t, w.Close())
	require.Equal(t, `{"before":null,"after":{"id":1,"name":"scooter","weight":5.18},"op":"c"}
{"before":{"id":1,"name":"scooter","weight":5.18},"after":null,"op":"d"}
{"before":null,"after":{"id":1,"name":null,"weight":5.15},"op":"c"}
{"before":{"id":1,"name":null,"weight":5.15},"after":null,"op":"d"}
`, out.String())

	got, err := readAll(t, Decoding{}.NewDecoder(&out, "out.json", changeSchema, mem, 3))
	require.NoError(t, err)
	require.Equal(t, "+I,1,scooter,5.18\n-D,1,scooter,5.18\n+I,1,,5.15\n-D,1,,5.15\n", got)

	// a refused row's text in the bad-rows file is its envelope
	require.Equal(t, `{"before":{"id":1,"name":"scooter","weight":5.18},"after":null,"op":"d"}`,
		string(Decoding{}.AppendRow(nil, rec, 1, 4)))
}
