package avro

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	avrolib "github.com/twmb/avro"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
)

// everyType is a column of every type the format maps, nullable and not.
func everyType() *arrow.Schema {
	multiset := arrow.MapOfWithMetadata(arrow.BinaryTypes.String, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
		arrow.NewMetadata([]string{format.MultisetMetadataKey}, []string{"count"}))
	multiset.SetItemNullable(false)
	fields := []arrow.Field{
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "bin", Type: arrow.BinaryTypes.Binary},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 20, Scale: 3}},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "t", Type: arrow.FixedWidthTypes.Time32ms},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "ts6", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "ltz", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "arr", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true})},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64)},
		{Name: "ms", Type: multiset},
		{Name: "row", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})},
	}
	var all []arrow.Field
	for _, f := range fields {
		f.Nullable = true
		all = append(all, f)
	}
	all = append(all, arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "name", Type: arrow.BinaryTypes.String})
	return arrow.NewSchema(all, nil)
}

const everyTypeRows = `[
{"b": true, "i8": -128, "i16": 32767, "i32": -2147483648, "i64": 9223372036854775807, "f32": 1.5, "f64": -2.25,
 "s": "héllo", "bin": "AQL/", "dec": "-12345678901234567.891", "d": 19000, "t": 45296789, "ts": 1700000000123,
 "ts6": 1700000000123456, "ltz": -1000, "arr": [1, null, 3], "m": [{"key": "a", "value": 1.5}, {"key": "b", "value": null}],
 "ms": [{"key": "x", "value": 2}], "row": {"x": 7, "y": null}, "id": 1, "name": "first"},
{"b": null, "i8": null, "i16": null, "i32": null, "i64": null, "f32": null, "f64": null, "s": null, "bin": null,
 "dec": null, "d": null, "t": null, "ts": null, "ts6": null, "ltz": null, "arr": null, "m": null, "ms": null, "row": null,
 "id": 2, "name": ""},
{"b": false, "i8": 0, "i16": 0, "i32": 0, "i64": 0, "f32": 0, "f64": 0, "s": "", "bin": "", "dec": "0.001", "d": -1,
 "t": 0, "ts": -1, "ts6": 0, "ltz": 0, "arr": [], "m": [], "ms": [], "row": {"x": -1, "y": "y"}, "id": 3, "name": "third"}
]`

func roundTripBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	rec, _, err := array.RecordFromJSON(mem, everyType(), strings.NewReader(everyTypeRows))
	require.NoError(t, err)
	return rec
}

func encodeAll(t *testing.T, c message.Codec, rec arrow.RecordBatch) [][]byte {
	e, err := c.NewMessageEncoder(rec.Schema(), time.UTC)
	require.NoError(t, err)
	out := make([][]byte, rec.NumRows())
	require.NoError(t, e.Encode(rec, out))
	return out
}

func TestRoundTripOfEveryType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := roundTripBatch(t, mem)
	defer rec.Release()
	msgs := encodeAll(t, Codec{LegacyTimestamps: true}, rec)

	d, err := Codec{LegacyTimestamps: true}.NewMessageDecoder(rec.Schema(), mem)
	require.NoError(t, err)
	got, err := d.Decode(msgs, func(i int, e *format.ParseError) error { return e })
	require.NoError(t, err)
	defer got.Release()
	require.Truef(t, array.RecordEqual(rec, got), "want\n%v\ngot\n%v", rec, got)

	// the messages are Avro of the schema, as another implementation reads them
	s, err := Schema(rec.Schema().Fields(), true)
	require.NoError(t, err)
	var v map[string]any
	_, err = s.Decode(msgs[0], &v)
	require.NoError(t, err)
	require.Equal(t, "héllo", v["s"])
	require.Equal(t, int64(9223372036854775807), v["i64"])
	require.Equal(t, map[string]any{"x": int64(7), "y": nil}, v["row"])
	require.Equal(t, time.UnixMilli(1700000000123).UTC(), v["ts"].(time.Time).UTC())
	_, err = s.Decode(msgs[1], &v)
	require.NoError(t, err)
	require.Nil(t, v["dec"])
}

func TestSchemaFollowsFlinksMapping(t *testing.T) {
	s, err := Schema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "at", Type: arrow.StructOf(arrow.Field{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	}, true)
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"record","name":"record","fields":[
		{"name":"id","type":"long"},
		{"name":"qty","type":["null","int"],"default":null},
		{"name":"price","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},
		{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"day","type":["null",{"type":"int","logicalType":"date"}],"default":null},
		{"name":"at","type":["null",{"type":"record","name":"record_at","fields":[{"name":"city","type":["null","string"],"default":null}]}],"default":null}
	]}`, s.String())

	s, err = Schema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}}, false)
	require.NoError(t, err)
	require.Contains(t, s.String(), "local-timestamp-millis")

	_, err = Schema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}}}, true)
	require.EqualError(t, err, "column ts of type TIMESTAMP(9) cannot be read or written as Avro: Avro's timestamps hold at most microseconds, as in Flink; declare a precision of at most 6")
	_, err = Schema([]arrow.Field{{Name: "m", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32)}}, true)
	require.ErrorContains(t, err, "column m of type MAP<INT, INT> cannot be read or written as Avro: an Avro map's keys are strings")
}

func TestBadMessagesNameByteAndColumnAndAreSkipped(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := roundTripBatch(t, mem)
	defer rec.Release()
	msgs := encodeAll(t, Codec{LegacyTimestamps: true}, rec)
	d, err := Codec{LegacyTimestamps: true}.NewMessageDecoder(rec.Schema(), mem)
	require.NoError(t, err)

	bad := [][]byte{msgs[0], msgs[2][:len(msgs[2])-3], msgs[1], append([]byte{4}, msgs[2]...), msgs[2]}
	_, err = d.Decode(bad, func(i int, e *format.ParseError) error { return e })
	require.EqualError(t, err, "input:1:21 (column name): a length of 5 bytes where 2 are left (at byte 53)")

	var skipped []int
	var errs []string
	got, err := d.Decode(bad, func(i int, e *format.ParseError) error {
		skipped, errs = append(skipped, i), append(errs, e.Error())
		return nil
	})
	require.NoError(t, err)
	defer got.Release()
	require.Equal(t, []int{1, 3}, skipped)
	require.Equal(t, []string{"input:1:21 (column name): a length of 5 bytes where 2 are left (at byte 53)", "input:1:1 (column b): union branch 2 of 2 (at byte 0)"}, errs)
	require.EqualValues(t, 5, got.NumRows())
	ids := got.Column(got.Schema().FieldIndices("id")[0]).(*array.Int64)
	require.Equal(t, "[1 (null) 2 (null) 3]", ids.String())
	for _, i := range []int{0, 2, 4} {
		want := map[int]int{0: 0, 2: 1, 4: 2}[i]
		for c := range got.NumCols() {
			require.Equal(t, rec.Column(int(c)).GetOneForMarshal(want), got.Column(int(c)).GetOneForMarshal(i), "row %d column %d", i, c)
		}
	}
}

// TestWriterSchemaIsResolved reads messages written with another schema:
// fields in another order, one the table lacks (skipped), a nullable
// column the writer lacks (NULL), int widened to long and float to double,
// an enum into a STRING, a union of several branches.
func TestWriterSchemaIsResolved(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	w := avrolib.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"extra","type":{"type":"array","items":{"type":"map","values":"string"}}},
		{"name":"qty","type":"int"},
		{"name":"id","type":"string"},
		{"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"]}},
		{"name":"amount","type":["null","float","string"]},
		{"name":"gone","type":["null",{"type":"record","name":"Gone","fields":[{"name":"a","type":"long"}]}]}
	]}`)
	type order struct {
		Extra  []map[string]string `avro:"extra"`
		Qty    int32               `avro:"qty"`
		ID     string              `avro:"id"`
		Color  string              `avro:"color"`
		Amount any                 `avro:"amount"`
		Gone   *struct {
			A int64 `avro:"a"`
		} `avro:"gone"`
	}
	m1, err := w.Encode(&order{Extra: []map[string]string{{"k": "v"}}, Qty: 3, ID: "o1", Color: "GREEN", Amount: float32(2.5)})
	require.NoError(t, err)
	m2, err := w.Encode(&order{Qty: -4, ID: "o2", Color: "RED", Amount: "many"})
	require.NoError(t, err)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64},
		{Name: "color", Type: arrow.BinaryTypes.String},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	node, err := ParseWriter(w.String())
	require.NoError(t, err)
	d := NewDecoder(schema, mem, func([]byte) (*avrolib.SchemaNode, int, string, error) { return node, 0, "", nil })
	var errs []string
	got, err := d.Decode([][]byte{m1, m2}, func(i int, e *format.ParseError) error { errs = append(errs, e.Error()); return nil })
	require.NoError(t, err)
	defer got.Release()
	require.Equal(t, []string{`input:1:4 (column amount): the writer's union branch 2 (string) cannot be read into column amount of type DOUBLE (at byte 6)`}, errs)
	js, err := got.MarshalJSON()
	require.NoError(t, err)
	require.JSONEq(t, `[{"id":"o1","qty":3,"color":"GREEN","amount":2.5,"note":null},{"id":null,"qty":null,"color":null,"amount":null,"note":null}]`, string(js))

	// a NOT NULL column the writer lacks cannot be read
	schema = arrow.NewSchema([]arrow.Field{{Name: "missing", Type: arrow.BinaryTypes.String}}, nil)
	d = NewDecoder(schema, mem, func([]byte) (*avrolib.SchemaNode, int, string, error) { return node, 0, "", nil })
	_, err = d.Decode([][]byte{m1}, func(i int, e *format.ParseError) error { return e })
	require.EqualError(t, err, "input:1: the message's schema does not fit the table: the writer's schema has no field missing, and column missing is NOT NULL")
}

// TIME(0) and TIMESTAMP(0), kept in seconds, are written in milliseconds
// as Flink's mapping says, and read back; a writer's microseconds and
// nanoseconds are cut to the column's unit toward the past.
func TestSecondsAndFinerWriterUnits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "t", Type: arrow.FixedWidthTypes.Time32s},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Second}},
	}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"t": 3723, "ts": -2}]`))
	require.NoError(t, err)
	defer rec.Release()
	msgs := encodeAll(t, Codec{LegacyTimestamps: true}, rec)
	require.Equal(t, append(putLong(nil, 3723000), putLong(nil, -2000)...), msgs[0])
	d, err := Codec{LegacyTimestamps: true}.NewMessageDecoder(schema, mem)
	require.NoError(t, err)
	got, err := d.Decode(msgs, func(int, *format.ParseError) error { return nil })
	require.NoError(t, err)
	defer got.Release()
	require.True(t, array.RecordEqual(rec, got), "%v", got)

	w, err := ParseWriter(`{"type":"record","name":"r","fields":[{"name":"ts","type":{"type":"long","logicalType":"timestamp-nanos"}}]}`)
	require.NoError(t, err)
	ms := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}}}, nil)
	d2 := NewDecoder(ms, mem, func([]byte) (*avrolib.SchemaNode, int, string, error) { return w, 0, "", nil })
	got2, err := d2.Decode([][]byte{putLong(nil, -1_500_000), putLong(nil, 2_999_999)}, func(_ int, e *format.ParseError) error { return e })
	require.NoError(t, err)
	defer got2.Release()
	require.Equal(t, "[-2 2]", got2.Column(0).(*array.Timestamp).String())
}
