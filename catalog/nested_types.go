package catalog

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/sql"
)

// MultisetMetadataKey marks the value field of the Arrow map a MULTISET is
// stored as: Flink's MULTISET<T> is a map from each distinct element to
// its number of occurrences, so wsql keeps it as map<T, INT NOT NULL> and
// this mark tells it apart from a MAP<T, INT NOT NULL>.
const MultisetMetadataKey = "wsql.multiset"

// nestedArrowType maps ROW to an Arrow struct, ARRAY to a list, MAP to a
// map and MULTISET to a map of counts; a field or element is nullable
// unless declared NOT NULL. Arrow map keys are never NULL, so a MAP's key
// type is stored non-nullable whatever it is declared as.
func nestedArrowType(t sql.TypeName) (arrow.DataType, error) {
	switch {
	case t.Fields != nil:
		fields := make([]arrow.Field, len(t.Fields))
		for k, f := range t.Fields {
			dt, err := ArrowType(f.Type)
			if err != nil {
				return nil, err
			}
			fields[k] = arrow.Field{Name: f.Name, Type: dt, Nullable: !f.Type.NotNull}
		}
		return arrow.StructOf(fields...), nil
	case t.Key != nil:
		key, err := ArrowType(*t.Key)
		if err != nil {
			return nil, err
		}
		value, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, err
		}
		m := arrow.MapOf(key, value)
		m.SetItemNullable(!t.Elem.NotNull)
		return m, nil
	case t.Name == "MULTISET":
		elem, err := ArrowType(*t.Elem)
		if err != nil {
			return nil, err
		}
		m := arrow.MapOfWithMetadata(elem, arrow.Metadata{}, arrow.PrimitiveTypes.Int32,
			arrow.NewMetadata([]string{MultisetMetadataKey}, []string{"count"}))
		m.SetItemNullable(false)
		return m, nil
	}
	elem, err := ArrowType(*t.Elem)
	if err != nil {
		return nil, err
	}
	return arrow.ListOfField(arrow.Field{Name: "element", Type: elem, Nullable: !t.Elem.NotNull}), nil
}

// writeNestedType prints a type as Flink's DESCRIBE and SHOW CREATE TABLE
// do (LogicalType#asSummaryString): ROW<`id` INT, `name` STRING 'its
// description'>, ARRAY<INT NOT NULL>, MAP<STRING, INT>, MULTISET<STRING>.
func writeNestedType(b *strings.Builder, t sql.TypeName) {
	switch {
	case t.Fields != nil:
		b.WriteString("ROW<")
		for k, f := range t.Fields {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString("`" + strings.ReplaceAll(f.Name, "`", "``") + "`") // always quoted, as Flink prints it
			b.WriteByte(' ')
			writeNestedType(b, f.Type)
			if f.Description != "" {
				b.WriteByte(' ')
				b.WriteString("'" + strings.ReplaceAll(f.Description, "'", "''") + "'")
			}
		}
		b.WriteByte('>')
	case t.Key != nil:
		b.WriteString("MAP<")
		writeNestedType(b, *t.Key)
		b.WriteString(", ")
		writeNestedType(b, *t.Elem)
		b.WriteByte('>')
	case t.Elem != nil:
		b.WriteString(t.Name)
		b.WriteByte('<')
		writeNestedType(b, *t.Elem)
		b.WriteByte('>')
	default:
		b.WriteString(TypeString(t))
	}
	if t.NotNull {
		b.WriteString(" NOT NULL")
	}
}
