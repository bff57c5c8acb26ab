package debezium

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
)

// envelopeText writes changes as Debezium's envelope, as Flink's
// DebeziumJsonSerializationSchema does: +I and +U as a create
// ({"before":null,"after":{...},"op":"c"}), -U and -D as a delete
// ({"before":{...},"after":null,"op":"d"}); Flink does not join -U and +U
// into one "u" message. The row's fields are the columns after the row
// kind, written as the json format writes them.
type envelopeText struct {
	keys       [][]byte // `{"name":` for the first field, `,"name":` after
	precisions []int
	loc        *time.Location
	std        format.TimestampStandard
	cols       []arrow.Array
	apps       []func(dst []byte, i int) []byte
}

// newEnvelopeText writes the fields 1 to columns-1 of schema.
func newEnvelopeText(schema *arrow.Schema, columns int, loc *time.Location, std format.TimestampStandard) *envelopeText {
	if loc == nil {
		loc = time.UTC
	}
	e := &envelopeText{loc: loc, std: std}
	for i := 1; i < columns; i++ {
		f := schema.Field(i)
		sep := byte(',')
		if i == 1 {
			sep = '{'
		}
		e.keys = append(e.keys, append(format.AppendJSONString([]byte{sep}, f.Name), ':'))
		e.precisions = append(e.precisions, timeprecision.Of(f))
	}
	e.cols = make([]arrow.Array, len(e.keys))
	e.apps = make([]func([]byte, int) []byte, len(e.keys))
	return e
}

// bind makes the writer write rec's rows (once per batch).
func (e *envelopeText) bind(rec arrow.RecordBatch, columns int) {
	for c := 1; c < columns; c++ {
		col := rec.Column(c)
		e.cols[c-1] = col
		e.apps[c-1] = timeprecision.Trim(format.JSONValueAppender(col, e.loc, e.std), e.precisions[c-1])
	}
}

// appendChange writes row i, whose row kind is kinds' row i (nil: an
// insert), without a line end.
func (e *envelopeText) appendChange(b []byte, kinds *array.String, i int) []byte {
	create := true
	if kinds != nil && kinds.IsValid(i) {
		switch kinds.Value(i) {
		case kindUpdateBefore, kindDelete:
			create = false
		}
	}
	if create {
		b = append(b, `{"before":null,"after":`...)
		b = e.appendRow(b, i)
		return append(b, `,"op":"c"}`...)
	}
	b = append(b, `{"before":`...)
	b = e.appendRow(b, i)
	return append(b, `,"after":null,"op":"d"}`...)
}

func (e *envelopeText) appendRow(b []byte, i int) []byte {
	for c, col := range e.cols {
		b = append(b, e.keys[c]...)
		if col.IsNull(i) {
			b = append(b, "null"...)
		} else {
			b = e.apps[c](b, i)
		}
	}
	if len(e.cols) == 0 {
		b = append(b, '{')
	}
	return append(b, '}')
}
