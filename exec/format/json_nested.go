package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format/jsontext"
)

// A ROW, ARRAY, MAP or MULTISET column of the JSON decoder is a tree of
// nestedColumns: a struct holds one child per field, a list one for its
// elements, a map one for its keys and one for its values, and the leaves
// are the scalar csvColumns the top-level columns are built in, so nested
// scalars read the same text forms. A JSON object is read into a ROW by
// field name (a missing field or null is NULL, an unknown one ignored, the
// last of duplicate keys wins), a JSON array into an ARRAY, an object into
// a MAP<STRING, T>, and into a MULTISET<STRING> an object of element →
// count (Flink's JSON form of a multiset). Everything is appended to
// reusable slices; a bad row is rolled back by truncating the tree to the
// rows before it, top down.

type nestedKind uint8

const (
	nestedLeaf nestedKind = iota
	nestedStruct
	nestedList
	nestedMap
)

type nestedColumn struct {
	kind    nestedKind
	dt      arrow.DataType
	path    string // user.address.city, items[], tags{} for errors
	notNull bool

	valid    []bool
	offs     []int32 // list and map: element offsets, one more than values
	children []*nestedColumn
	leaf     csvColumn

	// struct: field by key, and which fields the current object gave (a
	// field's row equals seq)
	fields jsonFields
	vals   []jsonValue
	seq    uint64
}

// newNestedColumn prepares the builder of a nested column; it refuses what
// Flink's JSON format cannot read (map keys other than strings).
func newNestedColumn(f arrow.Field, path string) (*nestedColumn, error) {
	n := &nestedColumn{dt: f.Type, path: path, notNull: !f.Nullable}
	switch t := f.Type.(type) {
	case *arrow.StructType:
		n.kind = nestedStruct
		n.fields.index = make(map[string]int, t.NumFields())
		n.vals = make([]jsonValue, t.NumFields())
		for k, cf := range t.Fields() {
			child, err := newNestedColumn(cf, path+"."+cf.Name)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, child)
			n.fields.index[cf.Name] = k
		}
	case *arrow.MapType:
		n.kind = nestedMap
		if t.KeyType().ID() != arrow.STRING {
			return nil, fmt.Errorf("column %s: json format reads only STRING keys of a MAP or MULTISET, as Flink's does, not %s", path, SQLTypeName(t.KeyType()))
		}
		key, err := newNestedColumn(t.KeyField(), path+"{key}")
		if err != nil {
			return nil, err
		}
		value, err := newNestedColumn(t.ItemField(), path+"{}")
		if err != nil {
			return nil, err
		}
		n.children = []*nestedColumn{key, value}
		n.offs = append(n.offs, 0)
	case *arrow.ListType:
		n.kind = nestedList
		elem, err := newNestedColumn(t.ElemField(), path+"[]")
		if err != nil {
			return nil, err
		}
		n.children = []*nestedColumn{elem}
		n.offs = append(n.offs, 0)
	default:
		n.kind = nestedLeaf
		if !jsonSupported(f.Type) {
			return nil, fmt.Errorf("column %s: json format does not support type %s", path, f.Type)
		}
		if err := n.leaf.init(f); err != nil {
			return nil, err
		}
		n.leaf.name = path
	}
	return n, nil
}

func (n *nestedColumn) appendNull() {
	switch n.kind {
	case nestedLeaf:
		n.leaf.appendNull()
	case nestedStruct:
		n.valid = append(n.valid, false)
		for _, c := range n.children {
			c.appendNull()
		}
	default:
		n.valid = append(n.valid, false)
		n.offs = append(n.offs, n.offs[len(n.offs)-1])
	}
}

// truncate keeps the first k values (and their elements).
func (n *nestedColumn) truncate(k int) {
	switch n.kind {
	case nestedLeaf:
		n.leaf.truncate(k)
	case nestedStruct:
		n.valid = n.valid[:min(k, len(n.valid))]
		for _, c := range n.children {
			c.truncate(k)
		}
	default:
		n.valid = n.valid[:min(k, len(n.valid))]
		n.offs = n.offs[:k+1]
		for _, c := range n.children {
			c.truncate(int(n.offs[k]))
		}
	}
}

// full ends a batch before offsets could overflow int32.
func (n *nestedColumn) full() bool {
	if n.kind == nestedLeaf {
		return n.leaf.full()
	}
	if (n.kind == nestedList || n.kind == nestedMap) && int(n.offs[len(n.offs)-1]) >= csvMaxStringBytes {
		return true
	}
	for _, c := range n.children {
		if c.full() {
			return true
		}
	}
	return false
}

// build makes the Arrow array of the first k values.
func (n *nestedColumn) build(mem memory.Allocator, k int) arrow.Array {
	data := n.buildData(mem, k)
	defer data.Release()
	return array.MakeFromData(data)
}

func (n *nestedColumn) buildData(mem memory.Allocator, k int) arrow.ArrayData {
	if n.kind == nestedLeaf {
		arr := n.leaf.build(mem, k)
		defer arr.Release()
		data := arr.Data()
		data.Retain()
		return data
	}
	nulls := 0
	for _, v := range n.valid[:k] {
		if !v {
			nulls++
		}
	}
	var bitmap *memory.Buffer
	if nulls > 0 {
		bitmap = csvBitmap(mem, n.valid[:k])
		defer bitmap.Release()
	}
	var children []arrow.ArrayData
	bufs := []*memory.Buffer{bitmap}
	switch n.kind {
	case nestedStruct:
		for _, c := range n.children {
			children = append(children, c.buildData(mem, k))
		}
	case nestedList:
		children = []arrow.ArrayData{n.children[0].buildData(mem, int(n.offs[k]))}
	case nestedMap:
		m := int(n.offs[k])
		key, value := n.children[0].buildData(mem, m), n.children[1].buildData(mem, m)
		entries := array.NewData(n.dt.(*arrow.MapType).Elem(), m, []*memory.Buffer{nil}, []arrow.ArrayData{key, value}, 0, 0)
		key.Release()
		value.Release()
		children = []arrow.ArrayData{entries}
	}
	if n.kind != nestedStruct {
		offs := csvBuffer(mem, arrow.Int32Traits.CastToBytes(n.offs[:k+1]))
		defer offs.Release()
		bufs = append(bufs, offs)
	}
	data := array.NewData(n.dt, k, bufs, children, nulls, 0)
	for _, c := range children {
		c.Release()
	}
	return data
}

// nestedError is a bad value inside a nested column: its path names it.
type nestedError struct {
	path, typ, msg string
	value          []byte
}

// appendNested appends the checked JSON value v of line b to n.
func (d *JSONDecoder) appendNested(n *nestedColumn, b []byte, v jsonValue) *nestedError {
	s := jsonScanner{b: b, i: v.start}
	if v.kind == jsonString {
		s.i-- // v.start is past a string's opening quote
	}
	return d.appendNestedAt(n, &s, 1)
}

// errNestedSyntax stops appendNestedAt at a syntax error: the line is then
// read again by scanRow, which names it.
var errNestedSyntax = &nestedError{msg: "invalid JSON"}

// appendNestedAt appends the JSON value at s.i, at nesting depth depth, to
// n and moves s past it, checking its syntax on the way. Containers are
// read once, straight into the children: a ROW's fields as they come (a
// duplicate key replaces the value appended for it), then NULL for the
// fields the object left out.
func (d *JSONDecoder) appendNestedAt(n *nestedColumn, s *jsonScanner, depth int) *nestedError {
	b := s.b
	if s.i == len(b) {
		return errNestedSyntax
	}
	c := b[s.i]
	if c == 'n' || n.kind == nestedLeaf {
		v, ok := s.value(depth)
		switch {
		case !ok:
			return errNestedSyntax
		case v.kind == jsonNull:
			if n.notNull {
				return &nestedError{path: n.path, msg: "NULL in NOT NULL field"}
			}
			n.appendNull()
		default: // a leaf
			if msg, bad := d.appendJSONScalar(&n.leaf, b, v); msg != "" {
				return &nestedError{path: n.path, typ: n.leaf.sqlType, msg: msg, value: bad}
			}
		}
		return nil
	}
	want, closing, what := byte('{'), byte('}'), "expected a JSON object"
	if n.kind == nestedList {
		want, closing, what = '[', ']', "expected a JSON array"
	}
	if c != want {
		v, ok := s.value(depth)
		if !ok {
			return errNestedSyntax
		}
		return &nestedError{path: n.path, typ: SQLTypeName(n.dt), msg: what, value: b[v.start:v.end]}
	}
	if depth >= jsonMaxDepth {
		return errNestedSyntax
	}
	s.i++
	s.ws()
	rows := len(n.valid) // a ROW's children hold this many values before this one
	count := int32(0)
	if n.kind != nestedStruct {
		count = n.offs[len(n.offs)-1]
	}
	n.seq++
	empty := s.i < len(b) && b[s.i] == closing
	for pos := 0; !empty; pos++ {
		var err *nestedError
		switch n.kind {
		case nestedStruct:
			err = d.appendField(n, s, depth, pos, rows)
		case nestedList:
			err = d.appendNestedAt(n.children[0], s, depth+1)
		default: // a map: an object of key → value
			keys := n.children[0]
			ks, ke, kesc, ok := s.keyText()
			if !ok {
				return errNestedSyntax
			}
			if msg, bad := d.appendJSONScalar(&keys.leaf, b, jsonValue{kind: jsonString, start: ks, end: ke, esc: kesc}); msg != "" {
				return &nestedError{path: keys.path, typ: keys.leaf.sqlType, msg: msg, value: bad}
			}
			err = d.appendNestedAt(n.children[1], s, depth+1)
		}
		if err != nil {
			return err
		}
		count++
		s.ws()
		if s.i < len(b) && b[s.i] == ',' {
			s.i++
			s.ws()
			continue
		}
		if s.i == len(b) || b[s.i] != closing {
			return errNestedSyntax
		}
		break
	}
	s.i++
	if n.kind == nestedStruct {
		for k, child := range n.children {
			if n.vals[k].row != n.seq {
				if child.notNull {
					return &nestedError{path: child.path, msg: "NULL in NOT NULL field"}
				}
				child.appendNull()
			}
		}
	} else {
		n.offs = append(n.offs, count)
	}
	n.valid = append(n.valid, true)
	return nil
}

// appendField appends the field `"key": value` at s.i, the pos-th of its
// object, to the ROW n, whose children held rows values before the object.
func (d *JSONDecoder) appendField(n *nestedColumn, s *jsonScanner, depth, pos, rows int) *nestedError {
	ks, ke, kesc, ok := s.keyText()
	if !ok {
		return errNestedSyntax
	}
	key := s.b[ks:ke]
	if kesc {
		d.scratch = jsontext.Unescape(d.scratch[:0], key)
		key = d.scratch
	}
	k := n.fields.find(pos, key)
	if k < 0 { // an unknown field: skipped
		if _, ok := s.value(depth + 1); !ok {
			return errNestedSyntax
		}
		return nil
	}
	if n.vals[k].row == n.seq { // a duplicate key: the last wins
		n.children[k].truncate(rows)
	}
	n.vals[k].row = n.seq
	return d.appendNestedAt(n.children[k], s, depth+1)
}

// IsNestedType tells ROW, ARRAY, MAP and MULTISET (Arrow struct, list and
// map), the types the JSON decoder reads through a nestedColumn.
func IsNestedType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.MAP:
		return true
	}
	return false
}
