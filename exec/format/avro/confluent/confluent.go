// Package confluent is Flink's 'avro-confluent' format: Avro records in
// the Confluent wire format (a magic byte 0, the writer schema's id in the
// schema registry as 4 bytes big-endian, then the record in Avro's binary
// encoding). A read fetches each writer schema by its id (once) and reads
// the record through exec/format/avro's resolution against the table's
// columns; a write registers the table's schema (exec/format/avro's
// Schema, Flink's mapping) under the subject at its first row and puts
// the id the registry gives before each record. The registry client is
// franz-go's pkg/sr.
package confluent

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	avrolib "github.com/twmb/avro"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/wsql/wsql/exec/format/avro"
	"github.com/wsql/wsql/exec/format/message"
)

// Options are the resolved 'avro-confluent.*' options.
type Options struct {
	URL string
	// Subject is the subject a write registers the schema under (Flink's
	// default <topic>-value or <topic>-key); a read does not use it.
	Subject string
	// User and Password are 'basic-auth.user-info', Token
	// 'bearer-auth.token'.
	User, Password, Token string
	LegacyTimestamps      bool
}

// timeout bounds each request to the registry.
const timeout = 30 * time.Second

// Codec is the avro-confluent format of one message part
// (message.Codec). Its registry's schemas are cached by id and
// shared by every read of the table.
type Codec struct {
	opts Options
	cl   *sr.Client

	mu   sync.Mutex
	byID map[int]*avrolib.SchemaNode
	bad  map[int]string // ids the registry has no Avro schema under
}

var _ message.Codec = (*Codec)(nil)

// New makes the codec; nothing is asked of the registry until a message
// is read or written.
func New(o Options) (*Codec, error) {
	opts := []sr.ClientOpt{sr.URLs(strings.Split(o.URL, ",")...), sr.UserAgent("wsql")}
	if o.User != "" || o.Password != "" {
		opts = append(opts, sr.BasicAuth(o.User, o.Password))
	}
	if o.Token != "" {
		opts = append(opts, sr.BearerToken(o.Token))
	}
	cl, err := sr.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("avro-confluent: %w", err)
	}
	return &Codec{opts: o, cl: cl, byID: map[int]*avrolib.SchemaNode{}, bad: map[int]string{}}, nil
}

func (c *Codec) Identity(b *strings.Builder) {
	fmt.Fprintf(b, ": url %s, subject %s, legacy timestamps %t", c.opts.URL, c.opts.Subject, c.opts.LegacyTimestamps)
}

func (c *Codec) NewMessageDecoder(schema *arrow.Schema, mem memory.Allocator) (message.Decoder, error) {
	if _, err := avro.Schema(schema.Fields(), c.opts.LegacyTimestamps); err != nil {
		return nil, err
	}
	return avro.NewDecoder(schema, mem, c.pick), nil
}

// HeaderSize is the Confluent wire format's header: the magic byte and
// the schema id.
const HeaderSize = 5

// pick reads a message's header and finds its writer schema (avro.Picker).
func (c *Codec) pick(msg []byte) (*avrolib.SchemaNode, int, string, error) {
	if len(msg) < HeaderSize {
		return nil, 0, fmt.Sprintf("a message of %d bytes is shorter than the Confluent wire format's header (magic byte 0 and a 4-byte schema id)", len(msg)), nil
	}
	if msg[0] != 0 {
		return nil, 0, fmt.Sprintf("the message starts with byte %d, not the Confluent wire format's magic byte 0", msg[0]), nil
	}
	id := int(binary.BigEndian.Uint32(msg[1:5]))
	w, bad, err := c.schema(id)
	return w, HeaderSize, bad, err
}

// schema is the writer schema of id, fetched from the registry once.
func (c *Codec) schema(id int) (*avrolib.SchemaNode, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.byID[id]; ok {
		return w, "", nil
	}
	if bad, ok := c.bad[id]; ok {
		return nil, bad, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s, err := c.cl.SchemaByID(ctx, id)
	var re *sr.ResponseError
	switch {
	case errors.As(err, &re) && re.SchemaError() == sr.ErrSchemaNotFound:
		c.bad[id] = fmt.Sprintf("schema id %d is not in the schema registry", id)
		return nil, c.bad[id], nil
	case err != nil:
		return nil, "", fmt.Errorf("avro-confluent: fetching schema id %d from the schema registry at %s: %w", id, c.opts.URL, err)
	case s.Type != sr.TypeAvro:
		c.bad[id] = fmt.Sprintf("schema id %d is a %s schema, not Avro", id, s.Type)
		return nil, c.bad[id], nil
	case len(s.References) > 0:
		c.bad[id] = fmt.Sprintf("schema id %d refers to other schemas, which wsql does not resolve yet", id)
		return nil, c.bad[id], nil
	}
	w, err := avro.ParseWriter(s.Schema)
	if err != nil {
		c.bad[id] = fmt.Sprintf("schema id %d does not parse: %v", id, err)
		return nil, c.bad[id], nil
	}
	c.byID[id] = w
	return w, "", nil
}

func (c *Codec) NewMessageEncoder(schema *arrow.Schema, _ *time.Location) (message.Encoder, error) {
	s, err := avro.Schema(schema.Fields(), c.opts.LegacyTimestamps)
	if err != nil {
		return nil, err
	}
	return &encoder{c: c, fields: schema.Fields(), text: s.String()}, nil
}

// encoder registers the schema at its first batch, then writes each row
// after the header of the id the registry gave.
type encoder struct {
	c      *Codec
	fields []arrow.Field
	text   string
	enc    *avro.Encoder
}

func (e *encoder) Encode(rec arrow.RecordBatch, out [][]byte) error {
	if e.enc == nil {
		id, err := e.c.register(e.text)
		if err != nil {
			return err
		}
		header := binary.BigEndian.AppendUint32([]byte{0}, uint32(id))
		if e.enc, err = avro.NewEncoder(e.fields, header); err != nil {
			return err
		}
	}
	return e.enc.Encode(rec, out)
}

// register registers schema text under the subject; the registry gives
// the id of the same schema registered before.
func (c *Codec) register(text string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	id, err := c.cl.RegisterSchema(ctx, c.opts.Subject, sr.Schema{Schema: text, Type: sr.TypeAvro}, -1, -1)
	if err != nil {
		return 0, fmt.Errorf("avro-confluent: registering the table's schema under subject %s at %s: %w", c.opts.Subject, c.opts.URL, err)
	}
	return id, nil
}
