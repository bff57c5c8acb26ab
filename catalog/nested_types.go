package catalog

import (
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
