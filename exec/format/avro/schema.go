package avro

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	avrolib "github.com/twmb/avro"

	"github.com/wsql/wsql/exec/format"
)

// RecordName is the name of the record a table's row is, as Flink's
// AvroSchemaConverter names it; a ROW column's record is named after its
// parent's and its own: record_address.
const RecordName = "record"

// Schema is the Avro schema of a row of fields by Flink's type mapping
// (Flink's "Avro format" documentation): BOOLEAN boolean; TINYINT,
// SMALLINT and INT int; BIGINT long; FLOAT float; DOUBLE double; CHAR,
// VARCHAR and STRING string; BINARY, VARBINARY and BYTES bytes; DECIMAL
// bytes of logical type decimal; DATE int date; TIME int time-millis;
// TIMESTAMP(p) and TIMESTAMP_LTZ(p) long timestamp-millis (p <= 3) or
// timestamp-micros (p <= 6) (with legacy false, TIMESTAMP(p) is
// local-timestamp-millis or -micros); ARRAY array; MAP with STRING keys
// map; MULTISET map of int; ROW record. A nullable type is the union
// ["null", T], and a nullable field of a record defaults to null.
func Schema(fields []arrow.Field, legacyTimestamps bool) (*avrolib.Schema, error) {
	node, err := recordNode(fields, RecordName, legacyTimestamps)
	if err != nil {
		return nil, err
	}
	s, err := node.Schema()
	if err != nil {
		return nil, fmt.Errorf("avro: the table's schema: %w", err)
	}
	return s, nil
}

// UnsupportedError is a column whose type Avro cannot hold.
type UnsupportedError struct {
	Column string
	Type   string
	Why    string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("column %s of type %s cannot be read or written as Avro: %s", e.Column, e.Type, e.Why)
}

func recordNode(fields []arrow.Field, name string, legacy bool) (avrolib.SchemaNode, error) {
	n := avrolib.SchemaNode{Type: "record", Name: name}
	for _, f := range fields {
		t, err := fieldNode(f, f.Name, name+"_"+f.Name, legacy)
		if err != nil {
			return n, err
		}
		sf := avrolib.SchemaField{Name: f.Name, Type: t}
		if f.Nullable {
			sf.HasDefault = true // Flink: a nullable field defaults to null
		}
		n.Fields = append(n.Fields, sf)
	}
	return n, nil
}

// fieldNode is the schema of a value of f: ["null", T] when f is
// nullable. column names f in errors; rowName names a record it makes.
func fieldNode(f arrow.Field, column, rowName string, legacy bool) (avrolib.SchemaNode, error) {
	t, err := typeNode(f.Type, column, rowName, legacy)
	if err != nil || !f.Nullable {
		return t, err
	}
	return avrolib.SchemaNode{Type: "union", Branches: []avrolib.SchemaNode{{Type: "null"}, t}}, nil
}

func typeNode(dt arrow.DataType, column, rowName string, legacy bool) (avrolib.SchemaNode, error) {
	unsupported := func(why string) (avrolib.SchemaNode, error) {
		return avrolib.SchemaNode{}, &UnsupportedError{Column: column, Type: format.SQLTypeName(dt), Why: why}
	}
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return avrolib.SchemaNode{Type: "boolean"}, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type:
		return avrolib.SchemaNode{Type: "int"}, nil
	case *arrow.Int64Type:
		return avrolib.SchemaNode{Type: "long"}, nil
	case *arrow.Float32Type:
		return avrolib.SchemaNode{Type: "float"}, nil
	case *arrow.Float64Type:
		return avrolib.SchemaNode{Type: "double"}, nil
	case *arrow.StringType:
		return avrolib.SchemaNode{Type: "string"}, nil
	case *arrow.BinaryType:
		return avrolib.SchemaNode{Type: "bytes"}, nil
	case *arrow.Decimal128Type:
		return avrolib.SchemaNode{Type: "bytes", LogicalType: "decimal", Precision: int(t.Precision), Scale: int(t.Scale)}, nil
	case *arrow.Date32Type:
		return avrolib.SchemaNode{Type: "int", LogicalType: "date"}, nil
	case *arrow.Time32Type:
		return avrolib.SchemaNode{Type: "int", LogicalType: "time-millis"}, nil
	case *arrow.TimestampType:
		logical := "timestamp-"
		if !legacy && t.TimeZone == "" {
			logical = "local-timestamp-"
		}
		switch t.Unit {
		case arrow.Second, arrow.Millisecond:
			return avrolib.SchemaNode{Type: "long", LogicalType: logical + "millis"}, nil
		case arrow.Microsecond:
			return avrolib.SchemaNode{Type: "long", LogicalType: logical + "micros"}, nil
		}
		return unsupported("Avro's timestamps hold at most microseconds, as in Flink; declare a precision of at most 6")
	case *arrow.ListType:
		items, err := fieldNode(t.ElemField(), column, rowName, legacy)
		if err != nil {
			return items, err
		}
		return avrolib.SchemaNode{Type: "array", Items: &items}, nil
	case *arrow.MapType:
		if t.KeyType().ID() != arrow.STRING && !format.IsMultiset(t) {
			return unsupported("an Avro map's keys are strings, as Flink says: declare MAP<STRING, ...>")
		}
		if format.IsMultiset(t) && t.KeyType().ID() != arrow.STRING {
			return unsupported("an Avro map's keys are strings: a MULTISET is written as a map of its elements to their counts, so its elements must be STRING")
		}
		values, err := fieldNode(t.ItemField(), column, rowName, legacy)
		if err != nil {
			return values, err
		}
		return avrolib.SchemaNode{Type: "map", Values: &values}, nil
	case *arrow.StructType:
		return recordNode(t.Fields(), rowName, legacy)
	}
	return unsupported("Flink's avro format has no mapping for it")
}
