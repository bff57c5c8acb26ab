package kafka

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/windowop"
)

// A format of binary messages (avro, avro-confluent) reads and writes a
// record a message through its message.Codec: no lines, no text.

// isMessageFormatOption reports an option of a format of messages: given
// unprefixed, it is the value's ('format'), not the key's.
func isMessageFormatOption(key string) bool {
	for _, f := range connector.Formats() {
		if f.Message != nil && slices.Contains(connector.Keys(f.Options, connector.Both), key) {
			return true
		}
	}
	return false
}

// topicOf is the table's first topic, for a format's default subject.
func topicOf(t *catalog.Table) string {
	o, _ := t.Options.Lookup(keyTopic)
	topic, _, _ := strings.Cut(o.Value, ";")
	return strings.TrimSpace(topic)
}

// messageDecoding sets d's codec when its format is one of messages.
func (d *partDecoding) messageDecoding(t *catalog.Table, fields []arrow.Field) (bool, error) {
	own := partTable(t, d.name+".", fields)
	c, err := connector.MessageFormat(d.format, own, d.name, topicOf(t))
	if c == nil || err != nil {
		return false, err
	}
	d.message = c
	d.ignore, err = formats.IgnoresBadMessages(own, d.format)
	return true, err
}

// decodeMessages decodes part d of every record of m, a row per record,
// NULL rows for those found bad.
func (d *partDecoding) decodeMessages(m *messages, mem memory.Allocator, c *decoderCache) (arrow.RecordBatch, error) {
	if c.msg == nil || c.mem != mem {
		dec, err := d.message.NewMessageDecoder(d.schema, mem)
		if err != nil {
			return nil, err
		}
		c.msg, c.mem, c.dec = dec, mem, nil
	}
	msgs := make([][]byte, len(m.recs))
	for i, r := range m.recs {
		b := d.part(r)
		switch {
		case m.bad[i]:
		case b == nil && d.name == "value":
			m.markBad(i) // a tombstone makes no row, as in Flink
		default:
			msgs[i] = b
		}
	}
	return c.msg.Decode(msgs, func(i int, e *format.ParseError) error {
		m.markBad(i)
		if d.ignore {
			return nil
		}
		e.Source = where(m.recs[i]) + " " + d.name
		return e
	})
}

// messageWriting is a sink's writing of a part in a format of messages:
// a writer.Writing only so a part's writer is one type (sink.go), its
// NewWriter refused.
type messageWriting struct {
	codec message.Codec
	mu    sync.Mutex
	enc   message.Encoder
}

func (m *messageWriting) NewWriter(io.Writer, *arrow.Schema, *time.Location) (writer.ResultWriter, error) {
	return nil, fmt.Errorf("kafka: a format of binary messages has no writer of lines")
}

// messageWritingOf is the writing of a part in a format of messages; nil
// for a format of text.
func messageWritingOf(t *catalog.Table, name, f string, fields []arrow.Field) (*messageWriting, error) {
	c, err := connector.MessageFormat(f, partTable(t, name+".", fields), name, topicOf(t))
	if c == nil || err != nil {
		return nil, err
	}
	return &messageWriting{codec: c}, nil
}

// encode writes each row of the columns arrs, a message each.
func (m *messageWriting) encode(arrs []arrow.Array, fields []arrow.Field, n int, loc *time.Location) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.enc == nil {
		enc, err := m.codec.NewMessageEncoder(arrow.NewSchema(fields, nil), loc)
		if err != nil {
			return nil, err
		}
		m.enc = enc
	}
	part := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	defer part.Release()
	out := make([][]byte, n)
	return out, m.enc.Encode(part, out)
}

// encodeValues writes each row's value; in a changelog format the row's
// kind goes to the writer first, which writes the change (debezium-json:
// +I and +U as "c" with after, -U and -D as "d" with before).
func (w *sinkWriter) encodeValues(rec arrow.RecordBatch, shift int) ([][]byte, error) {
	if !w.s.changelog {
		return w.encode(rec, shift, w.s.valueCols, w.s.value, "")
	}
	n := int(rec.NumRows())
	arrs := []arrow.Array{rec.Column(0)}
	fields := []arrow.Field{windowop.RowKindField()}
	if shift == 0 { // an append-only query: every row an insert
		kinds := array.NewStringBuilder(memory.DefaultAllocator)
		defer kinds.Release()
		for range n {
			kinds.Append(string(windowop.Insert))
		}
		arrs[0] = kinds.NewArray()
		defer arrs[0].Release()
	}
	for _, c := range w.s.valueCols {
		q := c
		if w.s.order != nil {
			q = w.s.order[c]
		}
		arrs, fields = append(arrs, rec.Column(q+shift)), append(fields, w.s.schema.Field(c))
	}
	part := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	defer part.Release()
	var buf bytes.Buffer
	fw, err := w.s.value.NewWriter(&buf, part.Schema(), w.loc)
	if err != nil {
		return nil, err
	}
	if err := fw.WriteBatch(part); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	// a change is one line of JSON, whose strings escape line breaks
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != n {
		return nil, fmt.Errorf("table %s: %d changes written as %d messages", w.s.table.Name, n, len(lines))
	}
	return lines, nil
}
