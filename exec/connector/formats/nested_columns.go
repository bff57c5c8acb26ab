package formats

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// csvNestedColumns refuses, at the column, what Flink's csv format cannot
// read or write: a MAP or MULTISET ("Unsupported type"), and an ARRAY or
// ROW of other than scalars ("Only simple types are supported in the
// second level nesting"). An ARRAY or ROW of scalars is one field of
// elements separated by 'csv.array-element-delimiter'.
func csvNestedColumns(t *catalog.Table) error {
	for _, c := range t.Columns {
		if c.Computed != nil || !format.IsNestedType(c.Type) {
			continue
		}
		var parts []arrow.Field
		switch dt := c.Type.(type) {
		case *arrow.MapType:
			return sql.Errorf(sql.ErrUnsupported, c.At, "column %s: the csv format cannot read or write a %s, as Flink's cannot; declare the table with 'format' = 'json'", c.Name, c.SQLType)
		case *arrow.ListType:
			parts = []arrow.Field{dt.ElemField()}
		case *arrow.StructType:
			parts = dt.Fields()
		}
		for _, p := range parts {
			if format.IsNestedType(p.Type) {
				return sql.Errorf(sql.ErrUnsupported, c.At, "column %s: the csv format reads and writes only scalar elements of an ARRAY or ROW, as Flink's does, not %s; declare the table with 'format' = 'json'", c.Name, format.SQLTypeName(p.Type))
			}
		}
	}
	return nil
}

// jsonMapKeys refuses a MAP or MULTISET whose keys are not strings, at the
// column, as Flink's json format does ("JSON format doesn't support
// non-string as key type of map"): a JSON object's keys are strings.
func jsonMapKeys(t *catalog.Table) error {
	for _, c := range t.Columns {
		if c.Computed == nil && nonStringMapKey(c.Type) {
			return sql.Errorf(sql.ErrUnsupported, c.At, "column %s: the json format reads and writes only STRING keys of a MAP or MULTISET, as Flink's does; %s has others", c.Name, c.SQLType)
		}
	}
	return nil
}

func nonStringMapKey(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.MapType:
		return t.KeyType().ID() != arrow.STRING || nonStringMapKey(t.ItemType())
	case *arrow.ListType:
		return nonStringMapKey(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if nonStringMapKey(f.Type) {
				return true
			}
		}
	}
	return false
}
