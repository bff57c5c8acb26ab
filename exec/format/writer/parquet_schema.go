package writer

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// The Parquet layout of an Arrow schema is the one arrow-go's pqarrow
// writes (parquet/pqarrow/schema.go, fieldToNode), so that a reader that
// knows either gets back the same types: the same physical and logical
// types, lists and maps in Parquet's three-level form with the element,
// key and value named as pqarrow names them, fields in the schema's order.

// A parquetColumn is an Arrow field as it is laid out in Parquet: a leaf
// column, or a group (a ROW, ARRAY or MAP) over its children.
type parquetColumn struct {
	kind     columnKind
	optional bool // a NULL here is written as one definition level less
	// a list or map: the repetition level of its second and later entries
	repLevel int
	leaf     int              // a leaf's column index
	value    leafValue        // a leaf's value
	children []*parquetColumn // a struct's fields; a list's element; a map's key and value
	leaves   []int            // the column indexes of the leaves under this node
}

type columnKind uint8

const (
	leafColumn columnKind = iota
	structColumn
	listColumn
	mapColumn
)

// parquetLayout is the Parquet schema of an Arrow schema and the tree that
// shreds its rows into it. schema is the stored one (storedSchema): its
// intervals are integers, read from the batches' interval arrays as the
// integers they hold.
func parquetLayout(schema *arrow.Schema) (*parquet.Schema, []*parquetColumn, error) {
	var b layoutBuilder
	fields := make([]parquet.Field, schema.NumFields())
	cols := make([]*parquetColumn, schema.NumFields())
	for i, f := range schema.Fields() {
		node, col, err := b.field(f, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("parquet: column %s: %w", f.Name, err)
		}
		fields[i] = namedNode{Node: node, name: f.Name}
		cols[i] = col
	}
	return parquet.NewSchema("schema", orderedGroup(fields)), cols, nil
}

type layoutBuilder struct{ leaves int }

// field lays out f, under repeated repeated ancestors.
func (b *layoutBuilder) field(f arrow.Field, repeated int) (parquet.Node, *parquetColumn, error) {
	col := &parquetColumn{optional: f.Nullable}
	var node parquet.Node
	switch t := f.Type.(type) {
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return nil, nil, fmt.Errorf("a ROW without fields has no Parquet form")
		}
		col.kind = structColumn
		fields := make([]parquet.Field, t.NumFields())
		for i, cf := range t.Fields() {
			cn, cc, err := b.field(cf, repeated)
			if err != nil {
				return nil, nil, err
			}
			fields[i] = namedNode{Node: cn, name: cf.Name}
			col.children = append(col.children, cc)
		}
		node = orderedGroup(fields)
	case *arrow.MapType: // before ListType: a map is a list of entries
		col.kind, col.repLevel = mapColumn, repeated+1
		kn, kc, err := b.field(t.KeyField(), repeated+1)
		if err != nil {
			return nil, nil, err
		}
		vn, vc, err := b.field(t.ItemField(), repeated+1)
		if err != nil {
			return nil, nil, err
		}
		col.children = []*parquetColumn{kc, vc}
		entries := orderedGroup{namedNode{Node: kn, name: "key"}, namedNode{Node: vn, name: "value"}}
		node = logicalGroup{orderedGroup{namedNode{Node: parquet.Repeated(entries), name: "key_value"}}, parquet.Map(kn, vn)}
	case *arrow.ListType, *arrow.LargeListType:
		col.kind, col.repLevel = listColumn, repeated+1
		en, ec, err := b.field(t.(arrow.ListLikeType).ElemField(), repeated+1)
		if err != nil {
			return nil, nil, err
		}
		col.children = []*parquetColumn{ec}
		element := orderedGroup{namedNode{Node: en, name: "element"}}
		node = logicalGroup{orderedGroup{namedNode{Node: parquet.Repeated(element), name: "list"}}, parquet.List(en)}
	default:
		leafNode, value, err := leafOf(f.Type)
		if err != nil {
			return nil, nil, err
		}
		col.kind, col.leaf, col.value = leafColumn, b.leaves, value
		col.leaves = []int{b.leaves}
		b.leaves++
		node = leafNode
	}
	for _, c := range col.children {
		col.leaves = append(col.leaves, c.leaves...)
	}
	if f.Nullable {
		return parquet.Optional(node), col, nil
	}
	return parquet.Required(node), col, nil
}

// leafOf is the Parquet leaf of an Arrow type and how its values are read.
func leafOf(t arrow.DataType) (parquet.Node, leafValue, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return parquet.Leaf(parquet.BooleanType), boolValue, nil
	case *arrow.Int8Type:
		return parquet.Int(8), int8Value, nil
	case *arrow.Int16Type:
		return parquet.Int(16), int16Value, nil
	case *arrow.Int32Type:
		return parquet.Int(32), int32Value, nil
	case *arrow.Int64Type:
		return parquet.Int(64), int64Value, nil
	case *arrow.Float32Type:
		return parquet.Leaf(parquet.FloatType), float32Value, nil
	case *arrow.Float64Type:
		return parquet.Leaf(parquet.DoubleType), float64Value, nil
	case *arrow.StringType:
		return parquet.String(), stringValue, nil
	case *arrow.LargeStringType:
		return parquet.String(), largeStringValue, nil
	case *arrow.BinaryType:
		return parquet.Leaf(parquet.ByteArrayType), binaryValue, nil
	case *arrow.LargeBinaryType:
		return parquet.Leaf(parquet.ByteArrayType), largeBinaryValue, nil
	case *arrow.Decimal128Type:
		size := decimalSize(t.Precision)
		return parquet.Decimal(int(t.Scale), int(t.Precision), parquet.FixedLenByteArrayType(size)), decimalValue(size), nil
	case *arrow.Date32Type:
		return parquet.Date(), int32Value, nil
	case *arrow.Time32Type:
		// Parquet's TIME has no seconds: TIME(0) is written in milliseconds
		if t.Unit == arrow.Second {
			return parquet.TimeAdjusted(parquet.Millisecond, false), time32SecondValue, nil
		}
		return parquet.TimeAdjusted(parquet.Millisecond, false), int32Value, nil
	case *arrow.Time64Type:
		unit := parquet.Microsecond
		if t.Unit == arrow.Nanosecond {
			unit = parquet.Nanosecond
		}
		return parquet.TimeAdjusted(unit, false), int64Value, nil
	case *arrow.TimestampType:
		// a zoned type (TIMESTAMP_LTZ) holds instants, one without a zone
		// wall times; seconds are written as milliseconds, as for TIME
		zoned := t.TimeZone != ""
		switch t.Unit {
		case arrow.Second:
			return parquet.TimestampAdjusted(parquet.Millisecond, zoned), timestampSecondValue, nil
		case arrow.Millisecond:
			return parquet.TimestampAdjusted(parquet.Millisecond, zoned), int64Value, nil
		case arrow.Microsecond:
			return parquet.TimestampAdjusted(parquet.Microsecond, zoned), int64Value, nil
		default:
			return parquet.TimestampAdjusted(parquet.Nanosecond, zoned), int64Value, nil
		}
	case *arrow.NullType:
		// a sink's columns have declared types: NULL's is a plan's alone
		return nil, nil, fmt.Errorf("a column of type NULL has no Parquet form")
	}
	if t.ID() == arrow.DURATION || t.ID() == arrow.INTERVAL_MONTHS {
		// the stored schema has a column's intervals as integers
		return nil, nil, fmt.Errorf("an INTERVAL inside a ROW, ARRAY or MAP has no Parquet form")
	}
	return nil, nil, fmt.Errorf("type %s is not supported", t)
}

// decimalSize is the fewest bytes that hold every unscaled value of a
// DECIMAL of the precision, in two's complement (pqarrow.DecimalSize).
func decimalSize(precision int32) int {
	return int(math.Ceil((float64(precision)*math.Log2(10) + 1) / 8))
}

// An orderedGroup is a Parquet group whose fields keep their order:
// parquet.Group is a map, whose fields are sorted by name.
type orderedGroup []parquet.Field

var groupNode = parquet.Group{}

func (g orderedGroup) ID() int                     { return 0 }
func (g orderedGroup) String() string              { return "group(" + strings.Join(g.names(), ", ") + ")" }
func (g orderedGroup) Type() parquet.Type          { return groupNode.Type() }
func (g orderedGroup) Optional() bool              { return false }
func (g orderedGroup) Repeated() bool              { return false }
func (g orderedGroup) Required() bool              { return true }
func (g orderedGroup) Leaf() bool                  { return false }
func (g orderedGroup) Fields() []parquet.Field     { return g }
func (g orderedGroup) Encoding() encoding.Encoding { return nil }
func (g orderedGroup) Compression() compress.Codec { return nil }
func (g orderedGroup) GoType() reflect.Type        { return g.asGroup().GoType() }

// asGroup is g as parquet-go's own group, for its Go type: the writer
// builds functions that write Go values of it, which wsql never calls.
func (g orderedGroup) asGroup() parquet.Group {
	group := make(parquet.Group, len(g))
	for _, f := range g {
		group[f.Name()] = f
	}
	return group
}

func (g orderedGroup) names() (names []string) {
	for _, f := range g {
		names = append(names, f.Name())
	}
	return names
}

// A logicalGroup is an ordered group with a logical type, LIST or MAP:
// like is parquet-go's node of the same type and Go type.
type logicalGroup struct {
	orderedGroup
	like parquet.Node
}

func (g logicalGroup) Type() parquet.Type   { return g.like.Type() }
func (g logicalGroup) GoType() reflect.Type { return g.like.GoType() }

// A namedNode is a node as a field of its group.
type namedNode struct {
	parquet.Node
	name string
}

func (f namedNode) Name() string { return f.name }

// Value is for writing Go values; the writer writes rows of values.
func (f namedNode) Value(reflect.Value) reflect.Value { return reflect.Value{} }
