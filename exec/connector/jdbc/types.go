package jdbc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// PostgreSQL's type oids (pg_type.oid) of the types the connector writes.
const (
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidJSON        = 114
	oidFloat4      = 700
	oidFloat8      = 701
	oidBpchar      = 1042
	oidVarchar     = 1043
	oidDate        = 1082
	oidTime        = 1083
	oidTimestamp   = 1114
	oidTimestamptz = 1184
	oidNumeric     = 1700
	oidJSONB       = 3802
)

// pgNames are the types' names as PostgreSQL prints them, for messages.
var pgNames = map[uint32]string{
	oidBool: "boolean", oidBytea: "bytea", oidInt8: "bigint", oidInt2: "smallint", oidInt4: "integer",
	oidText: "text", oidJSON: "json", oidFloat4: "real", oidFloat8: "double precision", oidBpchar: "character",
	oidVarchar: "character varying", oidDate: "date", oidTime: "time", oidTimestamp: "timestamp",
	oidTimestamptz: "timestamptz", oidNumeric: "numeric", oidJSONB: "jsonb",
}

// targets are the PostgreSQL types a column of each Flink type may be
// written to, the first the one it maps to: the mapping of docs/postgresql.md.
func targets(t arrow.DataType) []uint32 {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return []uint32{oidBool}
	case *arrow.Int8Type, *arrow.Int16Type:
		return []uint32{oidInt2, oidInt4, oidInt8}
	case *arrow.Int32Type:
		return []uint32{oidInt4, oidInt8}
	case *arrow.Int64Type:
		return []uint32{oidInt8}
	case *arrow.Float32Type:
		return []uint32{oidFloat4, oidFloat8}
	case *arrow.Float64Type:
		return []uint32{oidFloat8}
	case *arrow.Decimal128Type:
		return []uint32{oidNumeric}
	case *arrow.StringType:
		return []uint32{oidText, oidVarchar, oidBpchar, oidJSONB, oidJSON}
	case *arrow.BinaryType:
		return []uint32{oidBytea}
	case *arrow.Date32Type:
		return []uint32{oidDate}
	case *arrow.Time32Type:
		return []uint32{oidTime}
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return []uint32{oidTimestamptz}
		}
		return []uint32{oidTimestamp}
	}
	return nil
}

// checkColumnTypes refuses, at plan time, a column of table t whose Flink
// type has no PostgreSQL type to be written to.
func checkColumnTypes(t *catalog.Table) error {
	return checkTypes(t, targets, "write it as a STRING into jsonb",
		"cannot write to PostgreSQL (the types it writes: docs/postgresql.md); CAST it to STRING and write it into a text or jsonb column")
}

// checkTypes refuses a column of table t of a Flink type allowed gives
// no PostgreSQL type for, a METADATA column, and an ARRAY of ARRAYs;
// arrays and others say what to do instead.
func checkTypes(t *catalog.Table, allowed func(arrow.DataType) []uint32, arrays, others string) error {
	for _, c := range t.Columns {
		if c.Computed != nil {
			continue
		}
		if c.Metadata != "" {
			return sql.Errorf(sql.ErrUnsupported, c.At, "column %s of table %s is a METADATA column; the jdbc connector has no metadata", c.Name, t.Name)
		}
		typ := c.Type
		if l, ok := typ.(*arrow.ListType); ok {
			typ = l.Elem()
			if _, nested := typ.(*arrow.ListType); nested {
				return sql.Errorf(sql.ErrUnsupported, c.At, "column %s of table %s is %s: an ARRAY of ARRAYs has no PostgreSQL type (PostgreSQL's arrays of several dimensions are rectangular); %s", c.Name, t.Name, c.SQLType, arrays)
			}
		}
		if allowed(typ) == nil {
			return sql.Errorf(sql.ErrUnsupported, c.At, "column %s of table %s is %s, which the jdbc connector %s", c.Name, t.Name, c.SQLType, others)
		}
	}
	return nil
}

// pgColumn is a column of the PostgreSQL table, as its catalog gives it.
type pgColumn struct {
	name  string
	oid   uint32 // the column's type; an array type for an array
	elem  uint32 // an array's element type; 0 for another type
	shown string // format_type: integer, character varying(20), numeric(10,2)[]
}

// fit finds the PostgreSQL type a Flink column is written to or read
// from (its element type for an ARRAY column, then elemOf), one of
// allowed(the column's type); verb says which ("written to", "read
// from") in the error naming the column when the types do not fit.
func fit(table, pgTable string, c catalog.Column, pg pgColumn, allowed func(arrow.DataType) []uint32, verb string) (typ arrow.DataType, oid uint32, elemOf bool, err error) {
	typ = c.Type
	if l, ok := typ.(*arrow.ListType); ok {
		typ, elemOf = l.Elem(), true
	}
	oid = pg.oid
	if elemOf {
		oid = pg.elem
	}
	if elemOf == (pg.elem != 0) && oid != 0 && slices.Contains(allowed(typ), oid) {
		return typ, oid, elemOf, nil
	}
	var names []string
	for _, o := range allowed(typ) {
		n := pgNames[o]
		if elemOf {
			n += "[]"
		}
		names = append(names, n)
	}
	return nil, 0, false, fmt.Errorf("table %s: column %s is %s, but column %s of PostgreSQL table %s is %s; a %s column is %s %s",
		table, c.Name, c.SQLType, pg.name, pgTable, pg.shown, c.SQLType, verb, strings.Join(names, ", "))
}

// match finds the encoder of a Flink column written to a PostgreSQL
// column: an error naming the column when the types do not fit.
func match(table, pgTable string, c catalog.Column, pg pgColumn) (encoder, error) {
	typ, oid, elemOf, err := fit(table, pgTable, c, pg, targets, "written to")
	if err != nil {
		return encoder{}, err
	}
	e := scalarEncoder(typ, oid)
	if elemOf {
		e = arrayEncoder(e, oid)
	}
	return e, nil
}
