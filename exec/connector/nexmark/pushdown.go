package nexmark

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator"
	"github.com/wsql/wsql/exec/expr"
)

// Every Nexmark view is the event stream filtered by one kind (FROM
// datagen WHERE event_type = 2 for bids). Making every event and then
// dropping the others' rows cost a query over the bid view about half of
// its time; the event stream takes the WHERE instead and makes only the
// events of that kind. Event times grow with the event number, so an
// event stepped over is never later than the next one made, as
// exec.EqualsPusher requires.

// PushEquals takes WHERE event_type = v on the event stream: only events
// of kind v are made. A second kind is not taken (the WHERE, which stays,
// then drops every row made).
func (s *Source) PushEquals(col int, v int64) bool {
	if s.Table != "" || col < 0 || col >= len(s.Columns) || s.Columns[col] != 0 || v < kindPerson || v > kindBid {
		return false
	}
	table := nexmarkTableNames[v]
	if s.Only != "" && s.Only != table {
		return false
	}
	s.Only = table
	return true
}

// kindTable is the table whose rows the source makes: Table, or the one
// kind the event stream makes; empty for every event.
func (s *Source) kindTable() string {
	if s.Table != "" {
		return s.Table
	}
	return s.Only
}

// explainOnly is EXPLAIN's note of a kind taken, empty for none.
func (s *Source) explainOnly() string {
	if s.Only == "" {
		return ""
	}
	return fmt.Sprintf(", event_type=[%d] (taken from the WHERE: only these events are made)", kindOf(s.Only))
}

// Covered is the events the first made rows of the event stream stand
// for: every event before the next one of the kind made (all of them
// once the kind's rows are all made), the others stepped over.
func (f *eventFiller) Covered(made int64) int64 {
	s := f.src
	if s.Only == "" {
		return made
	}
	if s.EventsNum >= 0 && made >= s.Rows() {
		return s.EventsNum
	}
	return s.EventID(made)
}

// fillOnly makes rows [from, from+n) of the kind the event stream makes
// alone: event_type that kind, its ROW from its table's rows, the other
// ROWs NULL.
func (f *eventFiller) fillOnly(mem memory.Allocator, cols []arrow.Array, from int64, n int) {
	s := f.src
	kind := kindOf(s.Only)
	for i, c := range s.Columns {
		if c == 0 {
			buf, v := generator.NewValues[int32](mem, n)
			for k := range v {
				v[k] = int32(kind)
			}
			cols[i] = expr.NewArray(arrow.PrimitiveTypes.Int32, n, nil, 0, buf)
			continue
		}
		dt := f.schema.Field(i).Type
		var fields []string // the fields read, nil for all
		if i < len(s.Fields) {
			fields = s.Fields[i]
		}
		var valid *memory.Buffer
		nulls := n
		var children []arrow.Array
		switch read := s.Read == nil || s.Read[i]; {
		case c-1 != kind || !read:
			children = f.emptyColumns(mem, Columns(nexmarkTableNames[c-1]), n)
		case s.timeOnly(i):
			children = f.kindTimes(mem, from, n)
			nulls = 0
		default:
			children = f.tables[kind].rows(mem, from, n, false, depthOf(s.Only, fields))
			nulls = 0
		}
		if nulls > 0 { // all NULL
			valid = f.zerosFor(mem, int(bitutil.BytesForBits(int64(n))))
			valid.Retain()
		}
		cols[i] = structArray(dt, n, valid, nulls, children) // events.go
	}
}

// kindTimes are the fields of the kind's ROW over its rows [from,
// from+n) with only dateTime made.
func (f *eventFiller) kindTimes(mem memory.Allocator, from int64, n int) []arrow.Array {
	s := f.src
	cols := Columns(s.Only)
	out := f.emptyColumns(mem, cols, n)
	for j, c := range cols {
		if c.Name != "dateTime" {
			continue
		}
		out[j].Release()
		buf, v := generator.NewValues[int64](mem, n)
		for k := range v {
			v[k] = s.eventTime(s.EventID(from + int64(k)))
		}
		out[j] = expr.NewArray(c.Type, n, nil, 0, buf)
	}
	return out
}

var (
	_ exec.EqualsPusher = (*Source)(nil)
	_ generator.Stepper = (*eventFiller)(nil)
)
