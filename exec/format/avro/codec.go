package avro

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	avrolib "github.com/twmb/avro"

	"github.com/wsql/wsql/exec/format/message"
)

// Codec is the 'avro' format (message.Codec): a message is one
// record of the schema Schema derives from the columns, written and read
// with that schema.
type Codec struct {
	// LegacyTimestamps is 'avro.timestamp_mapping.legacy': TIMESTAMP as
	// timestamp-millis (true, Flink's default) or local-timestamp-millis.
	LegacyTimestamps bool
}

var _ message.Codec = Codec{}

func (c Codec) NewMessageDecoder(schema *arrow.Schema, mem memory.Allocator) (message.Decoder, error) {
	node, err := c.node(schema.Fields())
	if err != nil {
		return nil, err
	}
	return NewDecoder(schema, mem, func([]byte) (*avrolib.SchemaNode, int, string, error) { return node, 0, "", nil }), nil
}

func (c Codec) node(fields []arrow.Field) (*avrolib.SchemaNode, error) {
	s, err := Schema(fields, c.LegacyTimestamps)
	if err != nil {
		return nil, err
	}
	return s.Root().ExpandReferences(), nil
}

func (c Codec) NewMessageEncoder(schema *arrow.Schema, _ *time.Location) (message.Encoder, error) {
	if _, err := Schema(schema.Fields(), c.LegacyTimestamps); err != nil {
		return nil, err
	}
	return NewEncoder(schema.Fields(), nil)
}

func (c Codec) Identity(b *strings.Builder) {
	fmt.Fprintf(b, ": legacy timestamps %t", c.LegacyTimestamps)
}
