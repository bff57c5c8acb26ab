package confluent

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	avrolib "github.com/twmb/avro"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/wsql/wsql/exec/format"
)

var orders = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "item", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
}, nil)

func TestWritesRegisterTheSchemaAndReadBack(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	reg := srfake.New()
	defer reg.Close()
	c, err := New(Options{URL: reg.URL(), Subject: "orders-value", LegacyTimestamps: true})
	require.NoError(t, err)

	rec, _, err := array.RecordFromJSON(mem, orders, strings.NewReader(`[{"id": 1, "item": "pen", "price": "1.50"}, {"id": 2, "item": null, "price": null}]`))
	require.NoError(t, err)
	defer rec.Release()
	e, err := c.NewMessageEncoder(orders, time.UTC)
	require.NoError(t, err)
	out := make([][]byte, 2)
	require.NoError(t, e.Encode(rec, out))

	got, ok := reg.GetSchema("orders-value", 1)
	require.True(t, ok, "the schema is registered under the subject")
	require.JSONEq(t, `{"type":"record","name":"record","fields":[{"name":"id","type":"long"},
		{"name":"item","type":["null","string"],"default":null},
		{"name":"price","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null}]}`, got.Schema.Schema)
	for _, m := range out {
		require.Equal(t, byte(0), m[0], "magic byte")
		require.Equal(t, uint32(got.ID), binary.BigEndian.Uint32(m[1:5]))
	}
	// the record after the header: id 1 (zig-zag 2), "pen" (branch 1), 1.50
	// as 150 (branch 1; two bytes, 0 and 150, as Java's BigInteger writes it)
	require.Equal(t, []byte{2, 2, 6, 'p', 'e', 'n', 2, 4, 0, 150}, out[0][5:])

	d, err := c.NewMessageDecoder(orders, mem)
	require.NoError(t, err)
	back, err := d.Decode(out, func(i int, e *format.ParseError) error { return e })
	require.NoError(t, err)
	defer back.Release()
	require.True(t, array.RecordEqual(rec, back), "%v", back)
}

// TestReadsResolveEachWriterSchema reads messages of two writer schemas
// (an older one without item, a newer one with an extra field and qty as
// int) by their ids, and names the messages it cannot read.
func TestReadsResolveEachWriterSchema(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	reg := srfake.New()
	defer reg.Close()
	v1 := `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"}]}`
	v2 := `{"type":"record","name":"Order","fields":[{"name":"note","type":"string"},{"name":"id","type":"long"},{"name":"item","type":["null","string"]}]}`
	id1, _, err := reg.RegisterSchema("orders-value", sr.Schema{Schema: v1})
	require.NoError(t, err)
	id2, _, err := reg.RegisterSchema("orders-value", sr.Schema{Schema: v2})
	require.NoError(t, err)
	wire := func(id int, schema string, v any) []byte {
		b, err := avrolib.MustParse(schema).AppendEncode(binary.BigEndian.AppendUint32([]byte{0}, uint32(id)), v)
		require.NoError(t, err)
		return b
	}
	item := "ink"
	msgs := [][]byte{
		wire(id1, v1, map[string]any{"id": int32(7)}),
		wire(id2, v2, map[string]any{"note": "x", "id": int64(8), "item": &item}),
		{1, 0, 0, 0, 1, 2},
		wire(999, v1, map[string]any{"id": int32(9)}),
		{0, 0},
	}
	c, err := New(Options{URL: reg.URL(), LegacyTimestamps: true})
	require.NoError(t, err)
	d, err := c.NewMessageDecoder(orders, mem)
	require.NoError(t, err)
	var errs []string
	got, err := d.Decode(msgs, func(i int, e *format.ParseError) error { errs = append(errs, e.Error()); return nil })
	require.NoError(t, err)
	defer got.Release()
	require.Equal(t, []string{
		"input:1: the message starts with byte 1, not the Confluent wire format's magic byte 0",
		"input:1: schema id 999 is not in the schema registry",
		"input:1: a message of 2 bytes is shorter than the Confluent wire format's header (magic byte 0 and a 4-byte schema id)",
	}, errs)
	js, err := got.MarshalJSON()
	require.NoError(t, err)
	require.JSONEq(t, `[{"id":7,"item":null,"price":null},{"id":8,"item":"ink","price":null},
		{"id":null,"item":null,"price":null},{"id":null,"item":null,"price":null},{"id":null,"item":null,"price":null}]`, string(js))

	// a registry that cannot be reached stops the read: it is no bad message
	reg.Close()
	c, err = New(Options{URL: reg.URL(), LegacyTimestamps: true})
	require.NoError(t, err)
	d, err = c.NewMessageDecoder(orders, mem)
	require.NoError(t, err)
	_, err = d.Decode(msgs[:1], func(i int, e *format.ParseError) error { return nil })
	require.ErrorContains(t, err, "avro-confluent: fetching schema id 1 from the schema registry at "+reg.URL())
}

func TestBasicAuthIsSent(t *testing.T) {
	reg := srfake.New(srfake.WithAuth("Basic dTpw")) // u:p
	defer reg.Close()
	c, err := New(Options{URL: reg.URL(), Subject: "s", User: "u", Password: "p"})
	require.NoError(t, err)
	_, err = c.register(`"long"`)
	require.NoError(t, err)
	c, err = New(Options{URL: reg.URL(), Subject: "s", User: "u", Password: "wrong"})
	require.NoError(t, err)
	_, err = c.register(`"long"`)
	require.ErrorContains(t, err, "registering the table's schema under subject s")
}
