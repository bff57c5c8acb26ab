package avro

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	avrolib "github.com/twmb/avro"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
)

// Picker finds the writer's schema of a message and the byte where its
// record starts (after a header); or bad, why the message cannot be read
// (a skippable bad message); or err, why the read cannot go on (a
// registry that cannot be reached).
type Picker func(msg []byte) (w *avrolib.SchemaNode, start int, bad string, err error)

// Decoder decodes messages into the columns of a schema
// (message.Decoder), with a program compiled for each writer's
// schema the messages name.
type Decoder struct {
	schema *arrow.Schema
	rb     *array.RecordBuilder
	pick   Picker
	progs  map[*avrolib.SchemaNode]*record
	bad    map[*avrolib.SchemaNode]string // writer schemas the columns cannot take
	r      reader
}

var _ message.Decoder = (*Decoder)(nil)

// NewDecoder decodes messages into schema's columns; pick finds each
// message's writer schema.
func NewDecoder(schema *arrow.Schema, mem memory.Allocator, pick Picker) *Decoder {
	return &Decoder{schema: schema, rb: array.NewRecordBuilder(mem, schema), pick: pick,
		progs: map[*avrolib.SchemaNode]*record{}, bad: map[*avrolib.SchemaNode]string{}}
}

// ParseWriter parses a writer's schema for a Picker, named types
// expanded where they are used.
func ParseWriter(text string) (*avrolib.SchemaNode, error) {
	s, err := avrolib.Parse(text)
	if err != nil {
		return nil, err
	}
	return s.Root().ExpandReferences(), nil
}

// Release frees the decoder's builders.
func (d *Decoder) Release() { d.rb.Release() }

// program is the compiled reading of w, or why the columns cannot take it.
func (d *Decoder) program(w *avrolib.SchemaNode) (*record, string) {
	if p, ok := d.progs[w]; ok {
		return p, ""
	}
	if msg, ok := d.bad[w]; ok {
		return nil, msg
	}
	p, err := compileRecord(w, d.schema.Fields(), d.rb.Fields(), "")
	if err != nil {
		d.bad[w] = "the message's schema does not fit the table: " + err.Error()
		return nil, d.bad[w]
	}
	d.progs[w] = p
	return p, ""
}

// Decode makes a row per message (message.Decoder). A message that
// fails after some of its values were appended makes the poll's messages
// decode again without it, each checked first.
func (d *Decoder) Decode(msgs [][]byte, bad func(int, *format.ParseError) error) (arrow.RecordBatch, error) {
	var skip []bool
	check := false
	for {
		again, err := d.decode(msgs, bad, &skip, check)
		if err != nil {
			d.discard()
			return nil, err
		}
		if !again {
			return d.rb.NewRecordBatch(), nil
		}
		d.discard()
		check = true
	}
}

// decode makes the rows; again is set when a message failed halfway and
// the rows must be made again.
func (d *Decoder) decode(msgs [][]byte, bad func(int, *format.ParseError) error, skip *[]bool, check bool) (again bool, err error) {
	d.rb.Reserve(len(msgs))
	r := &d.r
	for i, m := range msgs {
		if m == nil || *skip != nil && (*skip)[i] {
			d.nullRow()
			continue
		}
		w, start, why, err := d.pick(m)
		if err != nil {
			return false, err
		}
		var p *record
		if why == "" {
			p, why = d.program(w)
		}
		if why != "" {
			if err := d.skip(i, len(msgs), skip, bad, &format.ParseError{Line: 1, Msg: why}); err != nil {
				return false, err
			}
			d.nullRow()
			continue
		}
		if check {
			*r = reader{b: m, i: start, dry: true}
			if d.run(p, r); r.failed() {
				if err := d.skip(i, len(msgs), skip, bad, d.parseError(r)); err != nil {
					return false, err
				}
				d.nullRow()
				continue
			}
		}
		*r = reader{b: m, i: start}
		if d.run(p, r); r.failed() {
			if err := d.skip(i, len(msgs), skip, bad, d.parseError(r)); err != nil {
				return false, err
			}
			return true, nil
		}
	}
	return false, nil
}

// run reads one record and checks that it is the whole message.
func (d *Decoder) run(p *record, r *reader) {
	p.readFields(r)
	if !r.failed() && r.i != len(r.b) {
		r.col = ""
		r.fail(r.i, "%d bytes are left after the record", len(r.b)-r.i)
	}
}

func (d *Decoder) parseError(r *reader) *format.ParseError {
	e := &format.ParseError{Line: 1, Msg: fmt.Sprintf("%s (at byte %d)", r.msg, r.at)}
	if r.col != "" {
		e.Field = r.col
		if k := d.schema.FieldIndices(r.col); len(k) > 0 {
			e.Column = k[0] + 1
		}
	}
	return e
}

// skip hands message i to bad, and notes it skipped.
func (d *Decoder) skip(i, n int, skip *[]bool, bad func(int, *format.ParseError) error, e *format.ParseError) error {
	if err := bad(i, e); err != nil {
		return err
	}
	if *skip == nil {
		*skip = make([]bool, n)
	}
	(*skip)[i] = true
	return nil
}

// discard drops what the builders hold: rows, and part of a row.
func (d *Decoder) discard() {
	for _, b := range d.rb.Fields() {
		b.NewArray().Release()
	}
}

func (d *Decoder) nullRow() {
	for _, b := range d.rb.Fields() {
		b.AppendNull()
	}
}
