package format

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// MultisetMetadataKey marks the value field of the Arrow map a MULTISET is
// stored as (catalog.MultisetMetadataKey, the same key).
const MultisetMetadataKey = "wsql.multiset"

// IsMultiset reports whether dt is the map a MULTISET is stored as.
func IsMultiset(dt arrow.DataType) bool {
	m, ok := dt.(*arrow.MapType)
	return ok && m.ItemField().Metadata.FindKey(MultisetMetadataKey) >= 0
}

// nestedSQLTypeName names a struct, list or map type as Flink prints it:
// ROW<`id` INT NOT NULL, `name` STRING>, ARRAY<INT>, MAP<STRING, INT>,
// MULTISET<STRING>; "" for other types.
func nestedSQLTypeName(dt arrow.DataType) string {
	var b strings.Builder
	switch t := dt.(type) {
	case *arrow.StructType:
		b.WriteString("ROW<")
		for k, f := range t.Fields() {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString("`" + strings.ReplaceAll(f.Name, "`", "``") + "` ")
			writeElementType(&b, f)
		}
		b.WriteByte('>')
	case *arrow.MapType:
		if IsMultiset(t) {
			b.WriteString("MULTISET<")
			writeElementType(&b, arrow.Field{Type: t.KeyType(), Nullable: true})
		} else {
			b.WriteString("MAP<")
			writeElementType(&b, arrow.Field{Type: t.KeyType(), Nullable: true})
			b.WriteString(", ")
			writeElementType(&b, t.ItemField())
		}
		b.WriteByte('>')
	case *arrow.ListType:
		b.WriteString("ARRAY<")
		writeElementType(&b, t.ElemField())
		b.WriteByte('>')
	default:
		return ""
	}
	return b.String()
}

func writeElementType(b *strings.Builder, f arrow.Field) {
	b.WriteString(SQLTypeName(f.Type))
	if !f.Nullable {
		b.WriteString(" NOT NULL")
	}
}
