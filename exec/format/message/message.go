// Package message declares the formats of whole binary messages (avro,
// avro-confluent): a connector of messages (kafka) decodes a poll's
// messages and encodes a batch's rows through a Codec, a message a row,
// with no lines or text between. Its bad messages are exec/format's
// ParseErrors.
package message

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
)

// Codec is a format of whole binary messages (avro, avro-confluent)
// with a table's options resolved: a connector of messages (kafka) decodes
// a poll's messages with it and encodes a batch's rows into messages, one
// a row. Unlike a Decoding it never sees lines: a message is one record.
type Codec interface {
	// NewMessageDecoder decodes messages into the columns of schema. A
	// read makes one and keeps it for its polls.
	NewMessageDecoder(schema *arrow.Schema, mem memory.Allocator) (Decoder, error)
	// NewMessageEncoder encodes rows of schema, a message a row; loc is
	// the session's time zone.
	NewMessageEncoder(schema *arrow.Schema, loc *time.Location) (Encoder, error)
	// Identity writes the resolved options into a query's identity.
	Identity(b *strings.Builder)
}

// Decoder decodes batches of messages.
type Decoder interface {
	// Decode makes one row per message, in order: a nil message is a row
	// of NULLs (a record without a key), and so is a message it cannot
	// read, which it hands to bad with the error (whose Line is 1 and
	// whose Msg says where in the message and which column): bad returns
	// nil to skip it, or the error that stops the read.
	Decode(msgs [][]byte, bad func(i int, e *format.ParseError) error) (arrow.RecordBatch, error)
}

// Encoder encodes the rows of a batch, one message each.
type Encoder interface {
	// Encode writes row i of rec as out[i]; out has rec's length.
	Encode(rec arrow.RecordBatch, out [][]byte) error
}
