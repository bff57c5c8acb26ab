package formats

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// csvNestedColumns refuses a ROW, ARRAY, MAP or MULTISET column of a csv
// table, at the column. Flink's csv format reads an ARRAY or a ROW as one
// field of elements separated by 'csv.array-element-delimiter' and has no
// MAP; wsql's csv decoder and writer do neither yet.
func csvNestedColumns(t *catalog.Table) error {
	for _, c := range t.Columns {
		if c.Computed == nil && format.IsNestedType(c.Type) {
			return sql.Errorf(sql.ErrUnsupported, c.At, "column %s: the csv format cannot read or write %s yet; declare the table with 'format' = 'json'", c.Name, c.SQLType)
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
