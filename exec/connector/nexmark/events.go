package nexmark

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/connector/generator"
	"github.com/wsql/wsql/exec/expr"
)

// The event stream as Flink's nexmark declares it: one row per event,
// event_type (0 person, 1 auction, 2 bid) and a ROW per kind, the ROW of
// the event's kind holding the row the per-table form gives for the
// event and the other two NULL.
var eventColumns = []Column{
	{"event_type", arrow.PrimitiveTypes.Int32},
	{"person", rowOf("person")},
	{"auction", rowOf("auction")},
	{"bid", rowOf("bid")},
}

func rowOf(table string) arrow.DataType {
	var fields []arrow.Field
	for _, c := range Columns(table) {
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type, Nullable: true})
	}
	return arrow.StructOf(fields...)
}

// EventColumns are the columns of the event stream (a table without
// 'nexmark.table').
func EventColumns() []Column { return append([]Column(nil), eventColumns...) }

// eventFiller makes the rows of the event stream: event_type from the
// mix, and each ROW column the query reads from its table's filler over
// the same events; a ROW column not read is all NULL.
type eventFiller struct {
	src    *Source
	mix    mix
	tables [3]*nexmarkFiller // by kind
	schema *arrow.Schema     // its ROW types, as the table declares them
	zeros  *memory.Buffer    // see zerosFor
}

func newEventFiller(s *Source, m mix, schema *arrow.Schema) *eventFiller {
	f := &eventFiller{src: s, mix: m, schema: schema}
	for k, t := range nexmarkTableNames {
		f.tables[k] = newTableFiller(s, m, t)
	}
	return f
}

func (f *eventFiller) Kind() string { return "nexmark" }

func (f *eventFiller) SaveState(e *checkpoint.Encoder) { saveNexmarkState(e, f.src) }

func (f *eventFiller) RestoreState(d *checkpoint.Decoder, _ int64) { restoreNexmarkState(d, f.src) }

func (f *eventFiller) Fill(mem memory.Allocator, cols []arrow.Array, from int64, n int) {
	s := f.src
	if s.Only != "" {
		f.fillOnly(mem, cols, from, n) // pushdown.go
		return
	}
	for i, c := range s.Columns {
		read := s.Read == nil || s.Read[i]
		if c == 0 {
			cols[i] = f.eventTypes(mem, from, n)
		} else {
			var fields []string // the fields read, nil for all
			if i < len(s.Fields) {
				fields = s.Fields[i]
			}
			cols[i] = f.row(mem, f.schema.Field(i).Type, c-1, from, n, read, read && s.timeOnly(i), fields)
		}
	}
}

// timeOnly tells whether the query reads schema field i only for its
// dateTime.
func (s *Source) timeOnly(i int) bool {
	if i >= len(s.Fields) || s.Fields[i] == nil {
		return false
	}
	for _, name := range s.Fields[i] {
		if !strings.EqualFold(name, "dateTime") {
			return false
		}
	}
	return true
}

// eventTypes is the event_type column of events [from, from+n).
func (f *eventFiller) eventTypes(mem memory.Allocator, from int64, n int) arrow.Array {
	buf, v := generator.NewValues[int32](mem, n)
	_, off := f.mix.split(from)
	for k := range v {
		v[k] = int32(f.mix.kindAt(off))
		if off++; off == f.mix.total {
			off = 0
		}
	}
	return expr.NewArray(arrow.PrimitiveTypes.Int32, n, nil, 0, buf)
}

// row is the ROW column of a kind over events [from, from+n): valid at
// the events of that kind when read, else all NULL (and its fields
// empty). With timeOnly, only the validity and dateTime are made, the
// other fields left empty; a bid's fields are drawn only as far as fields
// (those read, nil for all) need.
func (f *eventFiller) row(mem memory.Allocator, dt arrow.DataType, kind int, from int64, n int, read, timeOnly bool, fields []string) arrow.Array {
	valid, bits := expr.NewBits(mem, n)
	nulls := n
	var children []arrow.Array
	if read {
		if timeOnly {
			children = f.times(mem, kind, from, n)
		} else {
			children = f.tables[kind].rows(mem, from, n, true, depthOf(nexmarkTableNames[kind], fields))
		}
		_, off := f.mix.split(from)
		for k := range n {
			if f.mix.kindAt(off) == kind {
				bits[k>>3] |= 1 << (k & 7)
				nulls--
			}
			if off++; off == f.mix.total {
				off = 0
			}
		}
	} else {
		children = f.emptyColumns(mem, Columns(nexmarkTableNames[kind]), n)
	}
	return structArray(dt, n, valid, nulls, children)
}

// structArray is the ROW column of n rows of children, NULL where valid
// (nil: none) is unset; it takes valid and the children over.
func structArray(dt arrow.DataType, n int, valid *memory.Buffer, nulls int, children []arrow.Array) arrow.Array {
	data := make([]arrow.ArrayData, len(children))
	for i, c := range children {
		data[i] = c.Data()
	}
	d := array.NewData(dt, n, []*memory.Buffer{valid}, data, nulls, 0)
	if valid != nil {
		valid.Release()
	}
	for _, c := range children {
		c.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// times are the fields of a kind's ROW over events [from, from+n) with
// only dateTime made, at the events of that kind.
func (f *eventFiller) times(mem memory.Allocator, kind int, from int64, n int) []arrow.Array {
	cols := Columns(nexmarkTableNames[kind])
	out := f.emptyColumns(mem, cols, n)
	at := slices.IndexFunc(cols, func(c Column) bool { return c.Name == "dateTime" })
	out[at].Release()
	buf, v := generator.NewValues[int64](mem, n)
	_, off := f.mix.split(from)
	for k := range v {
		v[k] = 0
		if f.mix.kindAt(off) == kind {
			v[k] = f.src.eventTime(from + int64(k))
		}
		if off++; off == f.mix.total {
			off = 0
		}
	}
	out[at] = expr.NewArray(cols[at].Type, n, nil, 0, buf)
	return out
}

// emptyColumns are n zeros or empty strings per column, the fields of an
// all-NULL ROW. They share one zeroed buffer, the values of the numbers
// and the offsets of the strings: a zeroed buffer per field made the event
// stream as a query over the bid view reads it 1.9M events per CPU-second,
// one shared 2.7M.
func (f *eventFiller) emptyColumns(mem memory.Allocator, cols []Column, n int) []arrow.Array {
	zeros := f.zerosFor(mem, max(8*n, 4*(n+1)))
	out := make([]arrow.Array, len(cols))
	for i, c := range cols {
		zeros.Retain()
		if c.Type.ID() == arrow.STRING {
			out[i] = expr.NewArray(c.Type, n, nil, 0, zeros, memory.NewResizableBuffer(mem))
		} else {
			out[i] = expr.NewArray(c.Type, n, nil, 0, zeros)
		}
	}
	return out
}

// zerosFor is a buffer of at least size zero bytes for the empty columns
// and all-NULL validity bitmaps of a batch. Arrow buffers are not written
// once made, so the read keeps one for all its batches, grown when a batch
// needs more, rather than clearing one per batch (3% of Nexmark q7). The
// caller retains it for each array it makes of it.
func (f *eventFiller) zerosFor(mem memory.Allocator, size int) *memory.Buffer {
	if f.zeros == nil || f.zeros.Len() < size {
		if f.zeros != nil {
			f.zeros.Release()
		}
		f.zeros = memory.NewResizableBuffer(mem)
		f.zeros.Resize(size)
		clear(f.zeros.Bytes())
	}
	return f.zeros
}

// Close releases the zeros the read kept.
func (f *eventFiller) Close() error {
	if f.zeros != nil {
		f.zeros.Release()
		f.zeros = nil
	}
	return nil
}
