package catalog

import (
	"strings"

	"github.com/wsql/wsql/sql"
)

// setPartitionKeys checks PARTITIONED BY against the table's columns, as
// Flink's schema resolution does: each a column of the table, a physical
// one (a partition value is a directory name the connector writes and
// reads back, not something computed), listed once.
func setPartitionKeys(keys []sql.Ident, t *Table) error {
	for j, k := range keys {
		i := t.Column(k.Name)
		switch {
		case i < 0:
			hint := sql.DidYouMean(k.Name, t.ColumnNames())
			if hint == "" {
				hint = " (its columns: " + strings.Join(t.ColumnNames(), ", ") + ")"
			}
			return sql.Errorf(sql.ErrInvalid, k.At, "partition column %s is not a column of table %s%s", k.Name, t.Name, hint)
		case t.Columns[i].Computed != nil:
			return sql.Errorf(sql.ErrInvalid, k.At, "partition column %s is a computed column; partition columns must be physical columns", t.Columns[i].Name)
		case t.Columns[i].Metadata != "":
			return sql.Errorf(sql.ErrInvalid, k.At, "partition column %s is a metadata column; partition columns must be physical columns", t.Columns[i].Name)
		}
		for _, seen := range keys[:j] {
			if t.Column(seen.Name) == i {
				return sql.Errorf(sql.ErrInvalid, k.At, "partition column %s is listed twice", t.Columns[i].Name)
			}
		}
		t.PartitionKeys = append(t.PartitionKeys, t.Columns[i].Name)
		if j == 0 {
			t.PartitionsAt = k.At
		}
	}
	return nil
}
