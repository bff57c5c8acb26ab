package debezium

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
)

// Decoding is the format.Decoding of Debezium's JSON envelope. The schema
// it decodes into starts with the row kind column (a STRING: +I, -U, +U,
// -D); the other fields are the table's, read from before and after.
type Decoding struct {
	// JSON are the options of the envelope's JSON: IgnoreParseErrors
	// ('debezium-json.ignore-parse-errors') also skips an envelope whose
	// op or rows do not fit (see decoder.expand); TimestampStandard is
	// 'debezium-json.timestamp-format.standard'.
	JSON format.JSONOptions
	// SchemaInclude is 'debezium-json.schema-include': each line is
	// {"schema": ..., "payload": <envelope>}, as Kafka Connect writes it
	// with value.converter.schemas.enable.
	SchemaInclude bool
}

var _ format.Decoding = Decoding{}

func (d Decoding) NewDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize int) format.Decoder {
	inner := format.JSONDecoding{Options: d.JSON}.NewDecoder(r, split, d.envelope(schema), mem, batchSize)
	return d.wrap(inner, split, schema, mem)
}

func (d Decoding) NewParallelDecoder(r io.Reader, split string, schema *arrow.Schema, mem memory.Allocator, batchSize, files int, at format.SplitPosition) format.Decoder {
	inner := format.JSONDecoding{Options: d.JSON}.NewParallelDecoder(r, split, d.envelope(schema), mem, batchSize, files, at)
	return d.wrap(inner, split, schema, mem)
}

func (d Decoding) ForRead(onBad func(*format.ParseError, []byte), maxRecordBytes int) format.Decoding {
	if onBad != nil {
		if first := d.JSON.OnBadRow; first != nil {
			d.JSON.OnBadRow = func(e *format.ParseError, raw []byte) {
				first(e, raw)
				onBad(e, raw)
			}
		} else {
			d.JSON.OnBadRow = onBad
		}
	}
	if maxRecordBytes > 0 {
		d.JSON.MaxRecordBytes = maxRecordBytes
	}
	return d
}

// AppendRow writes row i of rec, a decoded batch (row kind first), as the
// one-change envelope the writer writes for it.
func (d Decoding) AppendRow(b []byte, rec arrow.RecordBatch, i, columns int) []byte {
	e := newEnvelopeText(rec.Schema(), columns, nil, d.JSON.TimestampStandard)
	e.bind(rec, columns)
	kinds, _ := rec.Column(0).(*array.String)
	return e.appendChange(b, kinds, i)
}

func (d Decoding) Identity(b *strings.Builder) {
	fmt.Fprintf(b, ": ignore parse errors %t, schema include %t, timestamp standard %v",
		d.JSON.IgnoreParseErrors, d.SchemaInclude, d.JSON.TimestampStandard)
}

// envelope is the schema the JSON decoder reads a line into: before and
// after as ROWs of the table's fields (all nullable: a create has no
// before; NOT NULL is checked on the change), and op; under a payload
// object with SchemaInclude.
func (d Decoding) envelope(schema *arrow.Schema) *arrow.Schema {
	var fields []arrow.Field
	for _, f := range schema.Fields()[1:] {
		f.Nullable = true
		fields = append(fields, f)
	}
	row := arrow.StructOf(fields...)
	env := []arrow.Field{
		{Name: "before", Type: row, Nullable: true},
		{Name: "after", Type: row, Nullable: true},
		{Name: "op", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	if d.SchemaInclude {
		env = []arrow.Field{{Name: "payload", Type: arrow.StructOf(env...), Nullable: true}}
	}
	return arrow.NewSchema(env, nil)
}

func (d Decoding) wrap(inner format.Decoder, split string, schema *arrow.Schema, mem memory.Allocator) format.Decoder {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	dec := &decoder{inner: inner, split: split, schema: schema, mem: mem, payload: d.SchemaInclude,
		ignore: d.JSON.IgnoreParseErrors, onBad: d.JSON.OnBadRow, std: d.JSON.TimestampStandard}
	for i, f := range schema.Fields()[1:] {
		if !f.Nullable {
			dec.notNull = append(dec.notNull, i)
		}
	}
	return dec
}
