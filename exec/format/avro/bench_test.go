package avro

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
)

// benchMessages are n records of six fields, as the library comparison in
// doc.go measured them.
func benchMessages(b *testing.B, n int) (*arrow.Schema, [][]byte) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	s, err := Schema(schema.Fields(), true)
	if err != nil {
		b.Fatal(err)
	}
	msgs := make([][]byte, n)
	for i := range n {
		name, amt, q := "user-"+string(rune('a'+i%26)), float64(i)*1.5, int32(i%100)
		msgs[i], err = s.Encode(&benchRecord{ID: int64(i), Name: &name, Amount: &amt, TS: time.UnixMilli(1700000000000 + int64(i)), Qty: &q, Flag: i%2 == 0})
		if err != nil {
			b.Fatal(err)
		}
	}
	return schema, msgs
}

type benchRecord struct {
	ID     int64     `avro:"id"`
	Name   *string   `avro:"name"`
	Amount *float64  `avro:"amount"`
	TS     time.Time `avro:"ts"`
	Qty    *int32    `avro:"qty"`
	Flag   bool      `avro:"flag"`
}

// BenchmarkDecode decodes 300,000 records into Arrow columns, 4096 a
// batch; BenchmarkDecodeLibrary decodes them into Go structs with
// twmb/avro, for comparison.
func BenchmarkDecode(b *testing.B) {
	schema, msgs := benchMessages(b, 300_000)
	b.ResetTimer()
	d, err := Codec{LegacyTimestamps: true}.NewMessageDecoder(schema, memory.DefaultAllocator)
	if err != nil {
		b.Fatal(err)
	}
	fail := func(_ int, e *format.ParseError) error { return e }
	b.ReportAllocs()
	for b.Loop() {
		for at := 0; at < len(msgs); at += 4096 {
			rec, err := d.Decode(msgs[at:min(at+4096, len(msgs))], fail)
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	}
}

func BenchmarkDecodeLibrary(b *testing.B) {
	schema, msgs := benchMessages(b, 300_000)
	s, err := Schema(schema.Fields(), true)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.ReportAllocs()
	for b.Loop() {
		var r benchRecord
		for _, m := range msgs {
			if _, err := s.Decode(m, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}
