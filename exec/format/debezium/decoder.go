package debezium

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
)

// The row kinds of the decoded changes, as windowop.RowKind writes them.
const (
	kindInsert       = "+I"
	kindUpdateBefore = "-U"
	kindUpdateAfter  = "+U"
	kindDelete       = "-D"
)

// decoder turns the JSON decoder's envelopes into changes, a batch at a
// time: per row only index and kind appends into reused slices; the
// columns are taken from before and after once per batch.
type decoder struct {
	inner   format.Decoder
	split   string
	schema  *arrow.Schema // the changes: row kind, then the table's fields
	mem     memory.Allocator
	payload bool // SchemaInclude: the envelope is the payload field
	ignore  bool
	onBad   func(*format.ParseError, []byte)
	std     format.TimestampStandard
	notNull []int // fields (after the row kind) that are NOT NULL

	skipped int64 // envelopes skipped here, not by the JSON decoder
	err     error // a bad envelope after the rows handed out before it

	idx   []int32 // per change: its row in before, or n + its row in after
	kinds []string
	raw   []byte
}

var _ format.Decoder = (*decoder)(nil)

func (d *decoder) Next() (arrow.RecordBatch, error) {
	for d.err == nil {
		from := d.inner.Position()
		rec, err := d.inner.Next()
		if err != nil {
			return nil, err
		}
		out, err := d.expand(rec, from)
		rec.Release()
		if err != nil {
			if out == nil {
				return nil, err
			}
			d.err = err // the changes before the bad envelope first
		}
		if out != nil {
			return out, nil
		}
		// every envelope of the batch was skipped: read on
	}
	return nil, d.err
}

// Skipped counts the bad envelopes skipped, by the JSON decoder and here.
func (d *decoder) Skipped() int64 { return d.inner.Skipped() + d.skipped }

// Position is the JSON decoder's, with the envelopes skipped here counted,
// so a resumed read counts them too.
func (d *decoder) Position() format.SplitPosition {
	p := d.inner.Position()
	p.Skipped += d.skipped
	return p
}

// ResumeAt continues a read that stood at p (see format.JSONDecoder.ResumeAt).
func (d *decoder) ResumeAt(p format.SplitPosition) {
	if r, ok := d.inner.(interface{ ResumeAt(format.SplitPosition) }); ok {
		r.ResumeAt(p)
		d.skipped = 0
	}
}

// Close stops a parallel decoder's goroutines (format.ParallelDecoder.Close).
func (d *decoder) Close() {
	if c, ok := d.inner.(interface{ Close() }); ok {
		c.Close()
	}
}

// envelopeColumns are the columns of a decoded envelope batch.
type envelopeColumns struct {
	before, after *array.Struct
	op            *array.String
	payload       *array.Struct // SchemaInclude's payload; nil without
}

// valid is false for a line without payload.
func (e envelopeColumns) valid(i int) bool { return e.payload == nil || e.payload.IsValid(i) }

func (d *decoder) columns(rec arrow.RecordBatch) envelopeColumns {
	if !d.payload {
		return envelopeColumns{before: rec.Column(0).(*array.Struct), after: rec.Column(1).(*array.Struct),
			op: rec.Column(2).(*array.String)}
	}
	p := rec.Column(0).(*array.Struct)
	return envelopeColumns{before: p.Field(0).(*array.Struct), after: p.Field(1).(*array.Struct),
		op: p.Field(2).(*array.String), payload: p}
}

// expand makes the changes of rec's envelopes, read from the lines after
// from. A bad envelope is skipped under ignore-parse-errors;
// otherwise it is the error, with the changes before it (nil if none).
func (d *decoder) expand(rec arrow.RecordBatch, from format.SplitPosition) (arrow.RecordBatch, error) {
	env := d.columns(rec)
	n := int(rec.NumRows())
	d.idx, d.kinds = d.idx[:0], d.kinds[:0]
	var bad error
	for i := 0; i < n && bad == nil; i++ {
		msg := d.change(env, i, n)
		if msg == "" {
			continue
		}
		perr := &format.ParseError{Source: d.split, Line: lineOf(from, i), Msg: msg}
		if !d.ignore {
			bad = perr
			break
		}
		d.skipped++
		if d.onBad != nil {
			d.raw = format.AppendRow(d.raw[:0], rec, i, int(rec.NumCols()), true, d.std)
			d.onBad(perr, d.raw)
		}
	}
	if len(d.idx) == 0 {
		return nil, bad
	}
	out, err := d.build(env, n)
	if err != nil {
		return nil, err
	}
	return out, bad
}

// lineOf is the line envelope i of a batch read after from starts on:
// exact when the batch has a row per line, as Debezium's files do (a blank
// line or a skipped bad line before it makes it the earliest it can be).
func lineOf(from format.SplitPosition, i int) int {
	return from.Line + i + 1
}

// change appends the changes of envelope i, or says what is wrong with it.
func (d *decoder) change(env envelopeColumns, i, n int) string {
	op := "null"
	if env.valid(i) && env.op.IsValid(i) {
		op = env.op.Value(i)
	}
	hasBefore := env.valid(i) && env.before.IsValid(i)
	hasAfter := env.valid(i) && env.after.IsValid(i)
	switch op {
	case "c", "r":
		if !hasAfter {
			return `the "after" field of a ` + opName(op) + ` message is null`
		}
		if msg := d.checkNotNull(env.after, i, "after"); msg != "" {
			return msg
		}
		d.add(int32(n+i), kindInsert)
	case "u":
		if !hasBefore {
			return `the "before" field of an update message is null; if you are using Debezium's Postgres connector, set the Postgres table's REPLICA IDENTITY to FULL`
		}
		if !hasAfter {
			return `the "after" field of an update message is null`
		}
		if msg := d.checkNotNull(env.before, i, "before"); msg != "" {
			return msg
		}
		if msg := d.checkNotNull(env.after, i, "after"); msg != "" {
			return msg
		}
		d.add(int32(i), kindUpdateBefore)
		d.add(int32(n+i), kindUpdateAfter)
	case "d":
		if !hasBefore {
			return `the "before" field of a delete message is null; if you are using Debezium's Postgres connector, set the Postgres table's REPLICA IDENTITY to FULL`
		}
		if msg := d.checkNotNull(env.before, i, "before"); msg != "" {
			return msg
		}
		d.add(int32(i), kindDelete)
	default:
		return `unknown "op" value "` + op + `": Debezium's op is "c", "r", "u" or "d"`
	}
	return ""
}

func opName(op string) string {
	if op == "r" {
		return "read"
	}
	return "create"
}

func (d *decoder) add(idx int32, kind string) {
	d.idx = append(d.idx, idx)
	d.kinds = append(d.kinds, kind)
}

// checkNotNull says which NOT NULL field of row i of side is null, if any.
func (d *decoder) checkNotNull(side *array.Struct, i int, name string) string {
	for _, c := range d.notNull {
		if side.Field(c).IsNull(i) {
			return `field ` + d.schema.Field(c+1).Name + ` of "` + name + `" is null, but column ` + d.schema.Field(c+1).Name + ` is NOT NULL`
		}
	}
	return ""
}

// build takes the changes' rows from before and after: each column of
// after as it is when the batch is all creates, in order; otherwise before
// and after concatenated and taken by idx.
func (d *decoder) build(env envelopeColumns, n int) (arrow.RecordBatch, error) {
	m := len(d.idx)
	cols := make([]arrow.Array, d.schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	kb := array.NewStringBuilder(d.mem)
	kb.Reserve(m)
	for _, k := range d.kinds {
		kb.Append(k)
	}
	cols[0] = kb.NewArray()
	kb.Release()
	inOrder := m == n
	for j, x := range d.idx {
		if x != int32(n+j) {
			inOrder = false
			break
		}
	}
	for c := 1; c < len(cols); c++ {
		a := env.after.Field(c - 1)
		if inOrder {
			a.Retain()
			cols[c] = a
			continue
		}
		both, err := array.Concatenate([]arrow.Array{env.before.Field(c - 1), a}, d.mem)
		if err != nil {
			return nil, err
		}
		cols[c], err = expr.Take(both, d.idx, d.mem)
		both.Release()
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(d.schema, cols, int64(m)), nil
}
