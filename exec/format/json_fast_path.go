package format

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/jsonfast"
)

// newFastPath makes the reader of clean lines (package jsonfast) over the
// batch's columns: each column, and each part of a nested one, as
// pointers to its buffers, so both paths append to the same slices and a
// line the fast path gives up on is rolled back as any other. Reading a
// line straight into the columns, specialised to the schema, took
// BenchmarkJSONDecoderNested from 8,512 to 2,683 instructions per line
// (0.68M to about 2.1M rows per CPU-second, medians on a quiet machine)
// and BenchmarkJSONDecoder from 3,791 to 1,473 (1.60M to 3.65M). A library
// parser (simdjson-go, AVX2) was measured slower on these short lines
// before filling any column: 0.5M rows per CPU-second for its parse
// alone (docs/performance.md).
func (d *JSONDecoder) newFastPath() *jsonfast.Decoder {
	fields := make([]jsonfast.Field, len(d.batch.cols))
	for i := range d.batch.cols {
		fields[i] = jsonfast.Field{Name: d.schema.Field(i).Name, Node: d.fastColumn(&d.batch.cols[i])}
	}
	return jsonfast.NewDecoder(fields, d.opts.FailOnMissingField, d.fastGeneral)
}

func (d *JSONDecoder) fastColumn(c *csvColumn) *jsonfast.Node {
	if c.kind == csvNested {
		return d.fastNested(c.nested)
	}
	n := &jsonfast.Node{NotNull: c.notNull, ID: len(d.leaves), Valid: &c.valid, Width: c.width}
	d.leaves = append(d.leaves, c)
	switch c.kind {
	case csvString, csvBinary:
		n.Offs, n.Data = &c.offs, &c.data
	case csvBool:
		n.Bools = &c.bools
	default:
		n.Fixed = &c.fixed
	}
	switch {
	case c.kind == csvString:
		n.Kind = jsonfast.String
	case c.kind == csvInt:
		n.Kind, n.Min, n.Max = jsonfast.Int, c.min, c.max
	case c.kind == csvFloat64:
		n.Kind = jsonfast.Float64
	case c.kind == csvBool:
		n.Kind = jsonfast.Bool
	case c.kind == csvTimestamp && !c.zoned:
		n.Kind, n.Digits = jsonfast.Timestamp, TimeUnitDigits(c.unit)
	}
	return n
}

func (d *JSONDecoder) fastNested(n *nestedColumn) *jsonfast.Node {
	if n.kind == nestedLeaf {
		return d.fastColumn(&n.leaf)
	}
	node := &jsonfast.Node{NotNull: n.notNull, Valid: &n.valid, Offs: &n.offs}
	switch n.kind {
	case nestedStruct:
		node.Kind, node.Offs = jsonfast.Struct, nil
		for k, child := range n.children {
			node.Fields = append(node.Fields, jsonfast.Field{Name: n.dt.(*arrow.StructType).Field(k).Name, Node: d.fastNested(child)})
		}
	case nestedList:
		node.Kind, node.Elem = jsonfast.List, d.fastNested(n.children[0])
	case nestedMap:
		node.Kind, node.Key, node.Value = jsonfast.Map, d.fastNested(n.children[0]), d.fastNested(n.children[1])
	}
	return node
}

// fastGeneral appends the non-null value at b[i] to the fast path's leaf
// id as the general path does, for the values the fast path does not
// specialise; it returns the index after the value, or -1.
func (d *JSONDecoder) fastGeneral(id int, b []byte, i, depth int) int {
	s := jsonScanner{b: b, i: i}
	v, ok := s.value(depth)
	if !ok || v.kind == jsonNull {
		return -1
	}
	if msg, _ := d.appendJSONScalar(d.leaves[id], b, v); msg != "" {
		return -1
	}
	return s.i
}
