package catalog

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/sql"
)

// setPrimaryKey checks a PRIMARY KEY against the table's columns, as
// Flink's schema resolution does: each column once, each a physical
// column; the key's columns become NOT NULL (in t and in fields).
func setPrimaryKey(def *sql.PrimaryKey, t *Table, fields []arrow.Field) error {
	if def == nil {
		return nil
	}
	pk := &PrimaryKey{Name: def.Name, At: def.At}
	for _, c := range def.Columns {
		i := t.Column(c.Name)
		switch {
		case i < 0:
			return sql.Errorf(sql.ErrInvalid, c.At, "primary key column %s is not a column of table %s%s", c.Name, t.Name, sql.DidYouMean(c.Name, t.ColumnNames()))
		case t.Columns[i].Computed != nil:
			return sql.Errorf(sql.ErrInvalid, c.At, "primary key column %s is a computed column; a PRIMARY KEY must be declared on physical columns", t.Columns[i].Name)
		}
		for _, seen := range pk.Columns {
			if seen == t.Columns[i].Name {
				return sql.Errorf(sql.ErrInvalid, c.At, "primary key column %s is listed twice", seen)
			}
		}
		pk.Columns = append(pk.Columns, t.Columns[i].Name)
		t.Columns[i].NotNull = true
		fields[i].Nullable = false
	}
	if pk.Name == "" {
		pk.Name = "PK_" + strings.Join(pk.Columns, "_") // Flink's name for an unnamed key
	}
	t.PrimaryKey = pk
	return nil
}

// physicalFields are the fields of the columns a source reads.
func physicalFields(t *Table, fields []arrow.Field) []arrow.Field {
	var out []arrow.Field
	for i, c := range t.Columns {
		if c.Computed == nil {
			out = append(out, fields[i])
		}
	}
	return out
}
